/**
 * `GET /llms.txt` and `GET /docs/{page}.md` (DESIGN §17): what an assistant reads, in Markdown, beside the HTML
 * reference (`GET /docs`). The pages are made on the first request for one (a few milliseconds: markdown-pages.ts)
 * and kept; a failed making is not kept, so the next request tries again.
 */
import { Router, type Response } from "express";
import { notFound } from "@lm/domain";
import type { AppDeps } from "../../deps";
import { validate } from "../../http/validate";
import { servedOpenApiDocument } from "../openapi/openapi.router";
import type { JsonObject } from "../openapi/openapi-document";
import { markdownPageParamsSchema } from "./llms.contract";
import { llmsTxt, markdownPages, readMarkdownSources, type MarkdownPage } from "./markdown-pages";

/** What the routes serve: the pages by slug and the index. */
interface Served {
  pages: Map<string, MarkdownPage>;
  index: string;
}

/** Sends `text` as `type`, revalidated on every use (a deployment changes it). */
function send(res: Response, type: string, text: string): void {
  res.set({ "Content-Type": type, "X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache" }).send(text);
}

/** Router with `/llms.txt` and `/docs/{page}.md`, their links under `PUBLIC_BASE_URL`. */
export function llmsRouter(deps: Pick<AppDeps, "config">): Router {
  let served: Promise<Served> | undefined;
  const load = (): Promise<Served> => {
    served ??= (async () => {
      const document = servedOpenApiDocument(deps.config) as JsonObject;
      const pages = markdownPages(await readMarkdownSources(document));
      return {
        pages: new Map(pages.map((page) => [page.slug, page])),
        index: llmsTxt(pages, document, deps.config.publicBaseUrl),
      };
    })().catch((err: unknown) => {
      served = undefined;
      throw err;
    });
    return served;
  };
  const router = Router();
  router.get("/llms.txt", async (_req, res) => {
    send(res, "text/plain; charset=utf-8", (await load()).index);
  });
  router.get("/docs/:page.md", async (req, res) => {
    const { page } = validate(markdownPageParamsSchema, req.params);
    const found = (await load()).pages.get(page);
    if (found === undefined) throw notFound("page; /llms.txt lists them");
    send(res, "text/markdown; charset=utf-8", found.markdown);
  });
  return router;
}
