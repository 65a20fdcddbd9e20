/**
 * Renders the API reference page in a worker thread (render-docs-page.ts starts it, for `npm run build` and for the
 * API run from its sources), so the seconds it takes never block the caller's event loop: Redoc lays the OpenAPI
 * document out on the server (React's `renderToString`, with styled-components collecting the page's CSS), and esbuild
 * bundles the browser script that later hydrates that same markup with the same React, Redoc and styled-components (a
 * renderer of another React version would not match it, and would render the page from scratch). Plain CommonJS,
 * because a worker runs this file as it is, under tsx and jest alike.
 *
 * Input (`workerData`): `{document}`, the OpenAPI document, its server the placeholder the router later replaces.
 * Output (one message): `{markup, css, state, script}` or `{error}`.
 */
/* global __dirname */
const { parentPort, workerData } = require("node:worker_threads");
const path = require("node:path");

/**
 * Redoc's options, shared by the server render and the hydration (the state carries them). The search index is off:
 * it is built in the browser for the whole document, and the menu, grouped by who calls, does the finding.
 */
const REDOC_OPTIONS = { disableSearch: true, hideDownloadButton: false, jsonSampleExpandLevel: 3 };

async function render(document) {
  const React = require("react");
  const { renderToString } = require("react-dom/server");
  const { ServerStyleSheet } = require("styled-components");
  const { createStore, Redoc } = require("redoc");
  const esbuild = require("esbuild");

  const store = await createStore(document, "/openapi.json", REDOC_OPTIONS);
  const sheet = new ServerStyleSheet();
  try {
    const markup = renderToString(sheet.collectStyles(React.createElement(Redoc, { store })));
    const css = sheet.getStyleTags();
    const state = await store.toJS();
    const built = await esbuild.build({
      entryPoints: [path.join(__dirname, "docs-hydrate.mjs")],
      bundle: true,
      minify: true,
      format: "iife",
      platform: "browser",
      target: "es2020",
      write: false,
      legalComments: "none",
      define: { "process.env.NODE_ENV": '"production"' },
      logLevel: "silent",
    });
    return { markup, css, state, script: built.outputFiles[0].text };
  } finally {
    sheet.seal();
  }
}

render(workerData.document).then(
  (page) => parentPort.postMessage(page),
  (err) => parentPort.postMessage({ error: err instanceof Error ? err.stack || err.message : String(err) }),
);
