/**
 * The API reference page (`GET /docs`) rendered before anyone asks for it. Redoc laying the OpenAPI document out takes
 * seconds of CPU (2 s on an idle 2-core machine, 10 s on a busy one), so `npm run build` renders it and the built API
 * only reads the result (docs.router.ts); the API run from its sources (the tests) renders it here too, once.
 *
 * A render is kept in a cache file named after a digest of everything it is made from: the document, the renderer's
 * two files and the versions of the packages that draw it. A changed `openapi.json` gets a new name, so the next build
 * renders it; an unchanged one is read back in milliseconds, by the build and by every test run alike.
 *
 * The render does not know the deployment's address: the document's server is a placeholder, which the router replaces
 * with `PUBLIC_BASE_URL` when it loads the page, so one render serves every deployment of the same document.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { OPENAPI_DOCUMENT_PATH } from "../openapi/openapi.router";

/**
 * The server address the page is rendered with. Redoc shows the server's address before every operation's path and
 * keeps it in the state it hydrates from; a name under `.invalid` (RFC 2606), it is in no document, so replacing it
 * touches nothing else.
 */
export const DOCS_SERVER_PLACEHOLDER = "https://lm-pix-server.invalid";

/** Where renders are kept: `dist/docs-cache/` at the repository root, git-ignored like the bundles beside it. */
const DOCS_CACHE_DIR = path.resolve(path.dirname(OPENAPI_DOCUMENT_PATH), "../../dist/docs-cache");

/** A cache file's name: `reference-` and 16 hex digits of the digest of what it was rendered from. */
const CACHE_FILE = /^reference-[0-9a-f]{16}\.json$/;

/** What one render produces (docs-renderer.worker.cjs): Redoc's markup and CSS, its state, the hydration script. */
export interface RenderedDocsPage {
  /** Redoc's server-rendered HTML, the server's address in it `DOCS_SERVER_PLACEHOLDER`. */
  markup: string;
  /** The `<style>` elements styled-components collected during the render. */
  css: string;
  /** Redoc's store as JSON, which the browser hydrates the markup from (it holds the document, placeholder too). */
  state: unknown;
  /** The browser script that hydrates the markup (docs-hydrate.mjs bundled with Redoc, React and styled-components). */
  script: string;
}

/** The renderer, run in a worker thread; found when a render is asked for, which the built API never does. */
function rendererPath(): string {
  return require.resolve("@lm/api/src/routes/docs/docs-renderer.worker.cjs");
}

/** What a render is made from besides the document: the renderer's two files and its packages' versions. */
function rendererInputs(): (Buffer | string)[] {
  const packages = [
    require("redoc/package.json"),
    require("react/package.json"),
    require("react-dom/package.json"),
    require("styled-components/package.json"),
    require("esbuild/package.json"),
  ] as { name: string; version: string }[];
  return [
    readFileSync(rendererPath()),
    readFileSync(require.resolve("@lm/api/src/routes/docs/docs-hydrate.mjs")),
    ...packages.map(({ name, version }) => `${name}@${version}`),
  ];
}

/**
 * The cache file a render of `document` (the bytes of `openapi.json`) is kept in, in `cacheDir`: named after a digest
 * of the document, the placeholder, the renderer's files and the versions of the packages it uses.
 * @returns an absolute path (the file may not exist yet)
 */
function docsCacheFile(document: Buffer, cacheDir: string = DOCS_CACHE_DIR): string {
  const digest = createHash("sha256").update(DOCS_SERVER_PLACEHOLDER).update("\0").update(document);
  for (const input of rendererInputs()) digest.update("\0").update(input);
  return path.join(cacheDir, `reference-${digest.digest("hex").slice(0, 16)}.json`);
}

/** What the worker posts back. */
type RendererReply = RenderedDocsPage | { error: string };

/** Renders `document` in a worker thread (docs-renderer.worker.cjs), so the caller's event loop keeps running. */
function renderInWorker(document: Record<string, unknown>): Promise<RenderedDocsPage> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(rendererPath(), { workerData: { document } });
    worker.once("message", (reply: RendererReply) => {
      void worker.terminate();
      if ("error" in reply) reject(new Error(`the API reference could not be rendered: ${reply.error}`));
      else resolve(reply);
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the API reference renderer exited with code ${code}`)));
  });
}

/**
 * The rendered reference page of the OpenAPI document at `documentPath`, from its cache file in `cacheDir`, rendered
 * and stored there first when the file is missing (seconds of CPU, in a worker thread). The file is written beside its
 * place and renamed into it, so a build and test processes rendering at once each read a whole file; older renders
 * are then removed from the cache.
 * @returns the cache file's path and what it holds
 * @throws Error when the document cannot be read or parsed, or Redoc cannot render it
 */
export async function renderDocsPage(
  documentPath: string = OPENAPI_DOCUMENT_PATH,
  cacheDir: string = DOCS_CACHE_DIR,
): Promise<{ file: string; page: RenderedDocsPage }> {
  const documentBytes = await readFile(documentPath);
  const file = docsCacheFile(documentBytes, cacheDir);
  if (existsSync(file)) return { file, page: JSON.parse(await readFile(file, "utf8")) as RenderedDocsPage };

  // As `GET /openapi.json` serves it (openapi.router.ts), but for the deployment's address.
  const document = JSON.parse(documentBytes.toString("utf8")) as Record<string, unknown>;
  const page = await renderInWorker({ ...document, servers: [{ url: DOCS_SERVER_PLACEHOLDER }] });
  await mkdir(cacheDir, { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(page));
  await rename(temporary, file);
  const stale = (await readdir(cacheDir)).filter((name) => CACHE_FILE.test(name) && name !== path.basename(file));
  await Promise.all(stale.map((name) => rm(path.join(cacheDir, name), { force: true })));
  return { file, page };
}
