/**
 * `GET /docs`: the API reference for integrators, the OpenAPI document rendered by Redoc, interactive within 2 s in
 * a browser (apps/api/test/docs/docs-page.int.test.ts measures it). Redoc laying out the whole document in the
 * browser took 4 to 8 s on a busy machine, so the page is rendered on the server instead: Redoc's markup and CSS
 * arrive ready to read, a small script (docs-nav.js) makes the menu work at once, and Redoc hydrates the same markup
 * later (docs-hydrate.mjs), when the reader first needs more than the menu or the page is idle.
 *
 * The render takes seconds of CPU, so it runs once per process, in a worker thread (docs-renderer.worker.cjs, with
 * React, styled-components and esbuild, dependencies of this package for that reason), on the first request for the
 * page (never at start-up: most processes never serve it), and its result is kept in memory, gzipped too. Everything is
 * served from this origin, never from a CDN, under a Content-Security-Policy that admits nothing else: scripts are
 * files of this origin (the page's state is a JSON data block, which runs nothing).
 */
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { Worker } from "node:worker_threads";
import { Router, type Request, type Response } from "express";
import type { AppDeps } from "../../deps";
import { servedOpenApiDocument } from "../openapi/openapi.router";

/**
 * Redoc's styled-components write `<style>` elements (hence `'unsafe-inline'` styles); scripts stay `'self'` only.
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
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The worker that renders the page; found through the workspace package, from the sources and the built bundle. */
const RENDERER_PATH = require.resolve("@lm/api/src/routes/docs/docs-renderer.worker.cjs");

/** The pre-hydration menu script, served as it is. */
const NAV_SCRIPT = readFileSync(require.resolve("@lm/api/src/routes/docs/docs-nav.js"));

/** Where the page loads its two scripts from. */
export const DOCS_NAV_URL = "/docs/nav.js";
/** The hydration bundle's address; it is built with the page, which names it with its version for docs-nav.js. */
export const DOCS_SCRIPT_URL = "/docs/docs.js";

/** One served file: its bytes, gzipped once, and its content type. */
interface Asset {
  body: Buffer;
  gzipped: Buffer;
  type: string;
}

/** The rendered page and its hydration script, whose address carries `version` (a digest of its bytes). */
interface RenderedDocs {
  page: Asset;
  script: Asset;
  version: string;
}

/** What the worker posts back. */
type RendererReply = { markup: string; css: string; state: unknown; script: string } | { error: string };

function asset(body: string | Buffer, type: string): Asset {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, "utf8");
  return { body: bytes, gzipped: gzipSync(bytes), type };
}

/** `JSON.stringify` made safe inside a `<script>` data block (no `</script>`, no HTML comment openers). */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/**
 * The page around Redoc's server-rendered markup. The state's data block also names the hydration script's address,
 * versioned, so that a page never hydrates with the script of another render (a cached one from before a deploy).
 */
function pageHtml(reply: { markup: string; css: string; state: unknown }, scriptUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>LM Pix API reference</title>
<link rel="icon" href="data:,">
<style>body { margin: 0; padding: 0; }</style>
<style id="docs-before-redoc">#redoc [data-section-id*="/operation/"] { content-visibility: auto; contain-intrinsic-size: auto 1200px; }</style>
${reply.css}
<script src="${DOCS_NAV_URL}" defer></script>
</head>
<body>
<div id="redoc">${reply.markup}</div>
<script type="application/json" id="redoc-state" data-script="${scriptUrl}">${scriptSafeJson(reply.state)}</script>
</body>
</html>
`;
}

/** Renders `document` in a worker thread. */
function renderInWorker(document: Record<string, unknown>): Promise<RenderedDocs> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(RENDERER_PATH, { workerData: { document } });
    // A process that is shutting down does not wait for a render nobody may need any more.
    worker.unref();
    worker.once("message", (reply: RendererReply) => {
      void worker.terminate();
      if ("error" in reply) reject(new Error(`the API reference could not be rendered: ${reply.error}`));
      else {
        const version = createHash("sha256").update(reply.script).digest("hex").slice(0, 16);
        resolve({
          page: asset(pageHtml(reply, `${DOCS_SCRIPT_URL}?v=${version}`), "text/html; charset=utf-8"),
          script: asset(reply.script, "text/javascript; charset=utf-8"),
          version,
        });
      }
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the API reference renderer exited with code ${code}`)));
  });
}

/** Sends `file`, gzipped when the client accepts it. */
function send(req: Request, res: Response, file: Asset, headers: Record<string, string>): void {
  const gzip = req.acceptsEncodings("gzip", "identity") === "gzip";
  res
    .set({ ...headers, "Content-Type": file.type, "X-Content-Type-Options": "nosniff", Vary: "Accept-Encoding" })
    .set(gzip ? { "Content-Encoding": "gzip" } : {})
    .send(gzip ? file.gzipped : file.body);
}

/**
 * Router with `GET /docs`, its menu script and its hydration script. The page renders the OpenAPI document as this
 * deployment serves it (its server is `PUBLIC_BASE_URL`), on the first request; a failed render is not kept: the next
 * request tries again.
 */
export function docsRouter(deps: Pick<AppDeps, "config">): Router {
  const document = servedOpenApiDocument(deps.config);
  let rendered: Promise<RenderedDocs> | undefined;
  const docs = (): Promise<RenderedDocs> => {
    rendered ??= renderInWorker(document).catch((err: unknown) => {
      rendered = undefined;
      throw err;
    });
    return rendered;
  };
  const router = Router();
  const nav = asset(NAV_SCRIPT, "text/javascript; charset=utf-8");
  router.get("/docs", async (req, res) => {
    const { page } = await docs();
    send(req, res, page, { "Content-Security-Policy": DOCS_CSP, "Cache-Control": "no-cache" });
  });
  router.get(DOCS_NAV_URL, (req, res) => {
    send(req, res, nav, { "Cache-Control": "public, max-age=300" });
  });
  router.get(DOCS_SCRIPT_URL, async (req, res) => {
    const { script, version } = await docs();
    // The page asks for this render's version, which never changes: cached for good. Any other address may be stale.
    const cache = req.query.v === version ? "public, max-age=31536000, immutable" : "no-cache";
    send(req, res, script, { "Cache-Control": cache });
  });
  return router;
}
