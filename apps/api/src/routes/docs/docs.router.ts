/**
 * `GET /docs`: the API reference for integrators, `/openapi.json` rendered by Redoc. The
 * renderer's standalone bundle is served from `node_modules` by this API, never from a CDN, and the page's
 * Content-Security-Policy admits nothing but this origin: Redoc's own bundle, the document it fetches, the styles it
 * injects at run time and the search worker it starts from a `blob:` URL.
 */
import path from "node:path";
import { Router } from "express";

/** Redoc's self-contained browser build (React and its other dependencies included). */
const REDOC_BUNDLE_PATH = require.resolve("redoc/bundles/redoc.standalone.js");

/** Where the page loads the bundle from. */
const REDOC_BUNDLE_URL = `/docs/${path.basename(REDOC_BUNDLE_PATH)}`;

/**
 * Redoc needs `'unsafe-inline'` styles (styled-components writes `<style>` elements) and `blob:` workers (its search
 * index); scripts stay `'self'` only, with no inline script on the page: the bundle finds `<redoc spec-url>` itself.
 * `img-src` refuses the one third-party address Redoc asks for (Redocly's logo in the sidebar footer, from its CDN),
 * so nothing leaves the integrator's browser for another host; Redoc hides the image when it does not load.
 */
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>LM Pix API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<redoc spec-url="/openapi.json"></redoc>
<noscript>This page needs JavaScript. The machine-readable description is at <a href="/openapi.json">/openapi.json</a>.</noscript>
<script src="${REDOC_BUNDLE_URL}"></script>
</body>
</html>
`;

/** Router with `GET /docs` and the renderer's bundle it loads. */
export function docsRouter(): Router {
  const router = Router();
  router.get("/docs", (_req, res) => {
    res.set({ "Content-Security-Policy": DOCS_CSP, "X-Content-Type-Options": "nosniff" }).type("html").send(PAGE);
  });
  router.get(REDOC_BUNDLE_URL, (_req, res) => {
    res.set("X-Content-Type-Options", "nosniff").sendFile(REDOC_BUNDLE_PATH, { maxAge: "1d" });
  });
  return router;
}
