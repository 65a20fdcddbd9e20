/**
 * Contracts of the routes an assistant reads (DESIGN §17): `/llms.txt` and the Markdown pages it lists.
 */
import Joi from "joi";
import { defineRoute, NOT_JSON, PUBLIC } from "../../http/contract";
import { MARKDOWN_PAGE_SLUGS } from "./markdown-pages";

/** The path of `GET /docs/{page}.md`: the page's name. */
export const markdownPageParamsSchema = Joi.object({
  page: Joi.string()
    .max(64)
    .description(`The page: ${MARKDOWN_PAGE_SLUGS.map((slug) => `\`${slug}\``).join(", ")}.`),
});

/** `getLlmsTxt`. */
export const getLlmsTxt = defineRoute({
  method: "get",
  path: "/llms.txt",
  operationId: "getLlmsTxt",
  tag: "Reference and metrics",
  summary: "What an assistant should read",
  description:
    "The llmstxt.org index for assistants: the API's summary and conventions, then links to the Markdown pages (`GET /docs/{page}.md`: the quick start, receiving webhooks, each Pix product, webhooks, errors) and to this document, under `PUBLIC_BASE_URL`.",
  security: PUBLIC,
  replies: {
    200: { description: "Markdown, as llmstxt.org lays it out.", mediaType: "text/plain" },
  },
  errors: {
    415: NOT_JSON,
  },
});

/** `getDocsMarkdownPage`. */
export const getDocsMarkdownPage = defineRoute<{ page: string }>({
  method: "get",
  path: "/docs/{page}.md",
  operationId: "getDocsMarkdownPage",
  tag: "Reference and metrics",
  summary: "A page of the docs in Markdown",
  description:
    "Made from the README, `docs/receiving-webhooks.md` and this document (its tags, operations, objects and examples), so it changes with them; listed by `GET /llms.txt`.",
  security: PUBLIC,
  params: markdownPageParamsSchema,
  replies: {
    200: { description: "The page, Markdown.", mediaType: "text/markdown" },
  },
  errors: {
    404: { description: "`resource_not_found`: no page of that name.", codes: ["resource_not_found"] },
    415: NOT_JSON,
  },
});
