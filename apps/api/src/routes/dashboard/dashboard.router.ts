/**
 * `GET /dashboard`: the seller dashboard (DESIGN §15), a single-page application that speaks the panel API from this
 * same origin, so the session cookie and the CSRF rule apply unchanged. Its files come from the build
 * (dashboard-build.ts): the built API reads `dist/dashboard` beside its bundle, the API run from its sources reads
 * the cached build of the current sources (building it first when missing). They are read once, on the first
 * request, and kept in memory with their gzipped bytes.
 *
 * Served safely: a Content-Security-Policy that admits scripts and styles of this origin only (no inline script or
 * style), no framing; assets named after a digest of their bytes are cached for good, `index.html` is never cached.
 * Every address of a page (at most two segments under `/dashboard`) answers `index.html`, and the page's router
 * shows the page; an address with a dot that names no file of the build is 404.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { Router, type Request, type Response } from "express";
import { notFound } from "@lm/domain";
import { builtDashboard } from "./dashboard-build";

/**
 * The built dashboard's folder, relative to the bundle, that `npm run build` defines in `dist/api.cjs` (esbuild's
 * `define`); undefined in the sources.
 */
declare const LM_BUILT_DASHBOARD: string | undefined;

/** The dashboard's policy: this origin only, nothing inline, never in a frame. */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** Content types of the files a build holds, by extension. */
const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".json": "application/json",
};

/** An asset's name as Vite writes it: `<name>-<8 characters of its digest>.<extension>`. */
const HASHED_NAME = /-[A-Za-z0-9_-]{8}\.[a-z0-9]+$/;

/** One served file: its bytes, gzipped once, its content type and cache rule. */
interface DashboardFile {
  body: Buffer;
  gzipped: Buffer;
  type: string;
  cacheControl: string;
}

/** The build as served: `index.html` and every other file by name. */
interface ServedDashboard {
  index: DashboardFile;
  files: Map<string, DashboardFile>;
}

const gzipped = promisify(gzip);

/**
 * The build's folder this process serves: beside the bundle when built, else the cached build of the sources.
 * @throws Error when the built API's folder is missing (the build was not run), or the sources cannot be built
 */
async function dashboardFolder(): Promise<string> {
  if (typeof LM_BUILT_DASHBOARD !== "string") return builtDashboard();
  return path.join(__dirname, LM_BUILT_DASHBOARD);
}

/**
 * Reads every file of the build in `dir` into memory, gzipped once.
 * @throws Error when `index.html` is missing
 */
export async function loadDashboard(dir: string): Promise<ServedDashboard> {
  const names = await readdir(dir).catch((err: unknown) => {
    throw new Error(`the dashboard's build ${dir} is missing; \`npm run build\` writes it`, { cause: err });
  });
  const files = new Map<string, DashboardFile>();
  await Promise.all(
    names.map(async (name) => {
      const body = await readFile(path.join(dir, name));
      const cacheControl = HASHED_NAME.test(name) ? "public, max-age=31536000, immutable" : "no-cache";
      const type = CONTENT_TYPES[path.extname(name)] ?? "application/octet-stream";
      files.set(name, { body, gzipped: await gzipped(body), type, cacheControl });
    }),
  );
  const index = files.get("index.html");
  if (index === undefined) throw new Error(`the dashboard's build ${dir} has no index.html`);
  files.delete("index.html");
  return { index, files };
}

/** Sends `file`, gzipped when the client accepts it, under the dashboard's policy. */
function send(req: Request, res: Response, file: DashboardFile): void {
  const gzip = req.acceptsEncodings("gzip", "identity") === "gzip";
  res
    .set({
      "Content-Type": file.type,
      "Cache-Control": file.cacheControl,
      "Content-Security-Policy": DASHBOARD_CSP,
      "X-Content-Type-Options": "nosniff",
      "X-Frame-Options": "DENY",
      "Referrer-Policy": "same-origin",
      Vary: "Accept-Encoding",
    })
    .set(gzip ? { "Content-Encoding": "gzip" } : {})
    .send(gzip ? file.gzipped : file.body);
}

/**
 * Router of `GET /dashboard`, `GET /dashboard/{page}` (a page, or a file of the build) and
 * `GET /dashboard/{section}/{page}` (a page). The build is read on the first request; a failed read is not kept: the
 * next request tries again.
 */
export function dashboardRouter(): Router {
  let served: Promise<ServedDashboard> | undefined;
  const dashboard = (): Promise<ServedDashboard> => {
    served ??= dashboardFolder()
      .then(loadDashboard)
      .catch((err: unknown) => {
        served = undefined;
        throw err;
      });
    return served;
  };
  const router = Router();
  router.get("/dashboard", async (req, res) => {
    send(req, res, (await dashboard()).index);
  });
  router.get("/dashboard/:page", async (req, res) => {
    const { index, files } = await dashboard();
    const file = files.get(String(req.params.page));
    // Pages have no dot in their address; a file the build does not have (an asset of an older build) is 404.
    if (file === undefined && String(req.params.page).includes(".")) throw notFound("file");
    send(req, res, file ?? index);
  });
  router.get("/dashboard/:section/:page", async (req, res) => {
    send(req, res, (await dashboard()).index);
  });
  return router;
}
