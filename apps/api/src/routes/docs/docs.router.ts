/**
 * `GET /docs`: the API reference for integrators, the OpenAPI document rendered by Redoc, interactive within 2 s in
 * a browser (apps/api/test/docs/docs-page.int.test.ts measures it). Redoc laying out the whole document in the
 * browser took 4 to 8 s on a busy machine, so the page is rendered on the server instead: Redoc's markup and CSS
 * arrive ready to read, a small script (docs-nav.js) makes the menu work at once, and Redoc hydrates the same markup
 * later (docs-hydrate.mjs), when the reader first needs more than the menu or the page is idle.
 *
 * That render takes seconds of CPU, so it is never done for a request: `npm run build` renders the page
 * (render-docs-page.ts) and writes it beside the bundle, and the built API reads that file on the first request for
 * the page, puts its own `PUBLIC_BASE_URL` in and keeps the result in memory, gzipped too, all within a second. Run
 * from the sources (the tests), the API takes the page from the same cache the build fills, rendering it there first
 * if the document changed. Everything is served from this origin, never from a CDN, under a Content-Security-Policy
 * that admits nothing else: scripts are files of this origin (the page's state is a JSON data block, which runs
 * nothing).
 */
import { readFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { Router, type Request, type Response } from "express";
import type { AppDeps } from "../../deps";
import { DOCS_SERVER_PLACEHOLDER, renderDocsPage, type RenderedDocsPage } from "./render-docs-page";

/**
 * The rendered page's file, relative to the bundle, that `npm run build` defines in `dist/api.cjs` (esbuild's
 * `define`); undefined in the sources.
 */
declare const LM_BUILT_DOCS_PAGE: string | undefined;

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

/** The pre-hydration menu script, served as it is. */
const NAV_SCRIPT = readFileSync(require.resolve("@lm/api/src/routes/docs/docs-nav.js"));

/** Where the page loads its two scripts from. */
export const DOCS_NAV_URL = "/docs/nav.js";
/** The hydration bundle's address; it is built with the page, which names it with its version for docs-nav.js. */
export const DOCS_SCRIPT_URL = "/docs/docs.js";

/** One served file: its bytes, gzipped once, and its content type. */
export interface Asset {
  body: Buffer;
  gzipped: Buffer;
  type: string;
}

/** The served page and its hydration script, whose address carries `version` (a digest of its bytes). */
export interface ServedDocs {
  page: Asset;
  script: Asset;
  version: string;
}

const gzipped = promisify(gzip);

/** `body` as served, gzipped once (off the event loop: the page and its script are megabytes). */
async function asset(body: string | Buffer, type: string): Promise<Asset> {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, "utf8");
  return { body: bytes, gzipped: await gzipped(bytes), type };
}

/** JSON text made safe inside a `<script>` data block (no `</script>`, no HTML comment openers). */
function scriptSafe(json: string): string {
  return json
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/**
 * The page around Redoc's server-rendered markup. The state's data block also names the hydration script's address,
 * versioned, so that a page never hydrates with the script of another render (a cached one from before a deploy).
 */
function pageHtml(reply: { markup: string; css: string; state: string }, scriptUrl: string): string {
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
<script type="application/json" id="redoc-state" data-script="${scriptUrl}">${reply.state}</script>
</body>
</html>
`;
}

/** `text` as React writes it into an element: its five HTML-special characters escaped. */
function htmlText(text: string): string {
  const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };
  return text.replace(/[&<>"']/g, (char) => entities[char] ?? char);
}

/**
 * The page and script a deployment serves from `rendered`: its server, `publicBaseUrl`, in place of the placeholder,
 * escaped for the markup (exactly as Redoc's own render of that address would be, so that hydration finds the same
 * markup) and for the JSON of the state.
 * @returns the page (HTML) and the hydration script, each with its gzipped bytes, and the script's version
 */
export async function servedDocsPage(rendered: RenderedDocsPage, publicBaseUrl: string): Promise<ServedDocs> {
  const markup = rendered.markup.split(DOCS_SERVER_PLACEHOLDER).join(htmlText(publicBaseUrl));
  const state = scriptSafe(JSON.stringify(rendered.state))
    .split(DOCS_SERVER_PLACEHOLDER)
    .join(scriptSafe(JSON.stringify(publicBaseUrl).slice(1, -1)));
  const version = createHash("sha256").update(rendered.script).digest("hex").slice(0, 16);
  const [page, script] = await Promise.all([
    asset(
      pageHtml({ markup, css: rendered.css, state }, `${DOCS_SCRIPT_URL}?v=${version}`),
      "text/html; charset=utf-8",
    ),
    asset(rendered.script, "text/javascript; charset=utf-8"),
  ]);
  return { page, script, version };
}

/**
 * The rendered page this process serves: the file `npm run build` wrote beside the bundle, or, run from the sources,
 * the cache's render of the current document (rendered first when missing).
 * @throws Error when the built API's file is missing (the build was not run, or `dist/` lost it)
 */
async function renderedDocsPage(): Promise<RenderedDocsPage> {
  if (typeof LM_BUILT_DOCS_PAGE !== "string") return (await renderDocsPage()).page;
  const file = path.join(__dirname, LM_BUILT_DOCS_PAGE);
  const text = await readFile(file, "utf8").catch((err: unknown) => {
    throw new Error(`the API reference page ${file} is missing; \`npm run build\` writes it`, { cause: err });
  });
  return JSON.parse(text) as RenderedDocsPage;
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
 * Router with `GET /docs`, its menu script and its hydration script. The page shows the OpenAPI document as this
 * deployment serves it (its server is `PUBLIC_BASE_URL`); it is loaded on the first request for it, and a failed load
 * is not kept: the next request tries again.
 */
export function docsRouter(deps: Pick<AppDeps, "config">): Router {
  let served: Promise<ServedDocs> | undefined;
  const docs = (): Promise<ServedDocs> => {
    served ??= renderedDocsPage()
      .then((rendered) => servedDocsPage(rendered, deps.config.publicBaseUrl))
      .catch((err: unknown) => {
        served = undefined;
        throw err;
      });
    return served;
  };
  const router = Router();
  const nav = asset(NAV_SCRIPT, "text/javascript; charset=utf-8");
  router.get("/docs", async (req, res) => {
    const { page } = await docs();
    send(req, res, page, { "Content-Security-Policy": DOCS_CSP, "Cache-Control": "no-cache" });
  });
  router.get(DOCS_NAV_URL, async (req, res) => {
    send(req, res, await nav, { "Cache-Control": "public, max-age=300" });
  });
  router.get(DOCS_SCRIPT_URL, async (req, res) => {
    const { script, version } = await docs();
    // The page asks for this render's version, which never changes: cached for good. Any other address may be stale.
    const cache = req.query.v === version ? "public, max-age=31536000, immutable" : "no-cache";
    send(req, res, script, { "Cache-Control": cache });
  });
  return router;
}
