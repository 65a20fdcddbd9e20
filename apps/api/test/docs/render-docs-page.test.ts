/**
 * The reference page rendered ahead of its requests (render-docs-page.ts) and served for a deployment
 * (docs.router.ts): a render follows the document it was made from, and the deployment's address put in place of the
 * placeholder gives the very markup Redoc renders for that address, so that the browser's hydration matches it.
 * A small document stands in for `openapi.json`: each render still takes a second or two (Redoc, React and esbuild).
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { servedDocsPage } from "../../src/routes/docs/docs.router";
import { DOCS_SERVER_PLACEHOLDER, renderDocsPage, type RenderedDocsPage } from "../../src/routes/docs/render-docs-page";

jest.setTimeout(60_000);

/** A one-operation OpenAPI document whose operation is summarised as `summary`. */
function smallDocument(summary: string): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: { title: "Small", version: "0.0.0" },
    paths: {
      "/v1/things": {
        get: { operationId: "listThings", summary, responses: { "200": { description: "The things." } } },
      },
    },
  };
}

/** Redoc's own render of `document`, with no placeholder: what the browser hydrates against. */
function renderDirectly(document: Record<string, unknown>): Promise<RenderedDocsPage> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(require.resolve("../../src/routes/docs/docs-renderer.worker.cjs"), {
      workerData: { document },
    });
    worker.once("message", (reply: RenderedDocsPage | { error: string }) => {
      void worker.terminate();
      if ("error" in reply) reject(new Error(reply.error));
      else resolve(reply);
    });
    worker.once("error", reject);
  });
}

describe("the reference page rendered ahead of its requests", () => {
  let dir: string;
  let documentPath: string;
  let cacheDir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "lm-docs-render-"));
    documentPath = path.join(dir, "openapi.json");
    cacheDir = path.join(dir, "cache");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test("when the document changes, then the next render is a new cache file with the new document, the old file is removed, and an unchanged document is read back without rendering", async () => {
    await writeFile(documentPath, JSON.stringify(smallDocument("List the old things")));
    const first = await renderDocsPage(documentPath, cacheDir);
    await writeFile(documentPath, JSON.stringify(smallDocument("List the new things")));

    const second = await renderDocsPage(documentPath, cacheDir);
    const writtenAt = (await stat(second.file)).mtimeMs;
    const started = performance.now();
    const again = await renderDocsPage(documentPath, cacheDir);
    const againMs = performance.now() - started;

    expect(path.basename(first.file)).toMatch(/^reference-[0-9a-f]{16}\.json$/);
    expect(second.file).not.toBe(first.file);
    expect(first.page.markup).toContain("List the old things");
    expect(second.page.markup).toContain("List the new things");
    expect(second.page.markup).not.toContain("List the old things");
    expect(existsSync(first.file)).toBe(false);
    expect(again.file).toBe(second.file);
    expect((await stat(again.file)).mtimeMs).toBe(writtenAt);
    expect(againMs).toBeLessThan(500);
  });

  test("when the page is served for an address that HTML and JSON escape, then its markup and state are Redoc's own render for that address", async () => {
    const address = "http://api.test/pix&co's";
    await writeFile(documentPath, JSON.stringify(smallDocument("List the things")));
    const [{ page: rendered }, direct] = await Promise.all([
      renderDocsPage(documentPath, cacheDir),
      renderDirectly({ ...smallDocument("List the things"), servers: [{ url: address }] }),
    ]);

    const html = (await servedDocsPage(rendered, address)).page.body.toString("utf8");
    const state = /<script type="application\/json" id="redoc-state"[^>]*>([^<]*)<\/script>/.exec(html)?.[1];

    expect(rendered.markup).toContain(DOCS_SERVER_PLACEHOLDER);
    expect(direct.markup).toContain("http://api.test/pix&amp;co&#x27;s");
    expect(html).toContain(`<div id="redoc">${direct.markup}</div>`);
    expect(html).not.toContain(DOCS_SERVER_PLACEHOLDER);
    expect(JSON.parse(state ?? "null")).toEqual(direct.state);
  });
});
