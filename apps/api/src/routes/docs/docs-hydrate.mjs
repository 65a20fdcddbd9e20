/**
 * The API reference page's Redoc, in the browser: hydrates the markup the server rendered (docs-renderer.worker.cjs)
 * with the state it embedded, so Redoc takes the page over without rendering it again. Bundled by esbuild with the
 * same React, Redoc and styled-components as the server render. `docs-nav.js` decides when: this file only defines
 * `window.lmDocsHydrate`.
 */
/* global document, window */
import { createElement } from "react";
import { hydrateRoot } from "react-dom/client";
import { AppStore, Redoc } from "redoc";

window.lmDocsHydrate = () => {
  const state = JSON.parse(document.getElementById("redoc-state").textContent);
  hydrateRoot(document.getElementById("redoc"), createElement(Redoc, { store: AppStore.fromJS(state) }));
};
