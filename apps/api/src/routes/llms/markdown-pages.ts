/**
 * The Markdown pages an assistant reads (DESIGN §17), served at `/docs/<slug>.md`, and `/llms.txt` listing them in
 * the llmstxt.org format. Every page is made from what the repository already has, never copied by hand: the quick
 * start from sections of the README, receiving webhooks from `docs/receiving-webhooks.md`, each Pix product, the
 * webhooks and the errors from the OpenAPI document (its tag prose, operations, objects and examples) and the error
 * catalog; so the pages change with their sources.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { ERROR_CATALOG } from "@lm/wire";
import type { Json, JsonObject } from "../openapi/openapi-document";
import { OPENAPI_DOCUMENT_PATH } from "../openapi/openapi.router";
import {
  documentedOperations,
  fieldList,
  isMerchantOperation,
  isObject,
  jsonBlock,
  jsonMedia,
  objectMarkdown,
  objectsReferredBy,
  operationById,
  operationMarkdown,
} from "./openapi-markdown";

/** The repository's root, two folders above the document (`apps/api/openapi.json`). */
const REPO_ROOT = path.resolve(path.dirname(OPENAPI_DOCUMENT_PATH), "../..");

/** What the pages are made from. */
export interface MarkdownSources {
  /** The README's text. */
  readme: string;
  /** `docs/receiving-webhooks.md`'s text. */
  receivingWebhooks: string;
  /** The OpenAPI document as this deployment serves it. */
  document: JsonObject;
}

/** One served page. */
export interface MarkdownPage {
  /** The page is `/docs/<slug>.md`. */
  slug: string;
  title: string;
  /** One line saying what the page holds, for `/llms.txt`. */
  note: string;
  markdown: string;
}

/** How one page is made. */
interface PageSpec {
  slug: string;
  title: string;
  note: (document: JsonObject) => string;
  build: (sources: MarkdownSources) => string;
}

/** The README's sections the quick start is made of, by heading. */
const QUICK_START_SECTIONS = [
  "The two commands",
  "Quick start: from clone to a verified webhook",
  "Use it from an assistant",
];

/** Repository files served as pages or documents: where a link to one of them goes. */
const SERVED_FILES: Record<string, string> = {
  "docs/receiving-webhooks.md": "/docs/receiving-webhooks.md",
  "apps/api/openapi.json": "/openapi.json",
};

/**
 * `markdown` of the repository file `source` with its links made to work from the served page: a link to a served
 * file goes to its address, other relative links and anchors (to files or sections that are not served) become their
 * text; absolute links and code blocks are left alone.
 */
export function servedLinks(markdown: string, source: string): string {
  return markdown
    .split(/(^```[^\n]*\n[\s\S]*?^```)/m)
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part
            // An image of the repository (a screenshot) is not served: an assistant reads its alt text.
            .replace(/!\[([^\]\n]*)\]\((?![a-z][a-z+.-]*:)[^)\s]+\)/gi, (_image, alt: string) => alt)
            .replace(/(?<!!)\[([^\]\n]+)\]\(([^)\s]+)\)/g, (link, label: string, target: string) => {
              if (/^[a-z][a-z+.-]*:/i.test(target)) return link;
              const file = target.startsWith("#")
                ? undefined
                : path.posix.normalize(path.posix.join(path.posix.dirname(source), target.split("#")[0] ?? ""));
              const served = file === undefined ? undefined : SERVED_FILES[file];
              return served === undefined ? label : `[${label}](${served})`;
            }),
    )
    .join("");
}

/**
 * The README's section under `## <heading>`, up to the next `## ` heading, its links made to work.
 * @throws Error when the README has no such heading (a renamed section)
 */
function readmeSection(readme: string, heading: string): string {
  const lines = readme.split("\n");
  const start = lines.indexOf(`## ${heading}`);
  if (start === -1) throw new Error(`README.md has no section "## ${heading}" for the quick start page`);
  const end = lines.findIndex((line, index) => index > start && /^#{1,2} /.test(line));
  return servedLinks(
    lines
      .slice(start, end === -1 ? undefined : end)
      .join("\n")
      .trim(),
    "README.md",
  );
}

/** The description of the document's tag `name`. */
function tagDescription(document: JsonObject, name: string): string {
  const tags = Array.isArray(document.tags) ? document.tags.filter(isObject) : [];
  const description = tags.find((tag) => tag.name === name)?.description;
  if (typeof description !== "string") throw new Error(`the OpenAPI document has no tag "${name}"`);
  return description;
}

/** The operations of the document with `tag`, in its order. */
const operationIdsTagged = (document: JsonObject, tag: string): string[] =>
  documentedOperations(document)
    .filter(({ operation }) => Array.isArray(operation.tags) && operation.tags.includes(tag))
    .map(({ operation }) => String(operation.operationId));

/**
 * A page of operations: its title, an introduction, each operation and then the objects their 2xx replies return.
 * @throws Error when an operationId is not in the document
 */
function operationsPage(document: JsonObject, title: string, intro: string[], operationIds: string[]): string {
  const operations = operationIds.map((id) => operationById(document, id));
  const replies = operations.flatMap(({ operation }) =>
    Object.entries(isObject(operation.responses) ? operation.responses : {})
      .filter(([status]) => status.startsWith("2"))
      .map(([, reply]) => reply),
  );
  const objects = [...objectsReferredBy(document, replies)];
  return [
    `# ${title}`,
    ...intro,
    ...operations.map((operation) => operationMarkdown(document, operation)),
    ...(objects.length === 0 ? [] : ["## Objects", ...objects.map((name) => objectMarkdown(document, name))]),
  ].join("\n\n");
}

/** The page of the merchant operations of `tag`, introduced by its description (`except` left to other pages). */
function tagPage(slug: string, title: string, tag: string, except: string[] = []): PageSpec {
  return {
    slug,
    title,
    note: (document) => tagDescription(document, tag),
    build: ({ document }) =>
      operationsPage(
        document,
        title,
        [tagDescription(document, tag)],
        operationIdsTagged(document, tag).filter((id) => !except.includes(id)),
      ),
  };
}

/**
 * The request body field `field` of the operation `operationId`, as its line of a field list.
 * @throws Error when the operation has no such field
 */
function bodyFieldLine(document: JsonObject, operationId: string, field: string): string {
  const { operation } = operationById(document, operationId);
  const body = isObject(operation.requestBody) ? jsonMedia(operation.requestBody) : undefined;
  const properties = isObject(body?.schema) && isObject(body.schema.properties) ? body.schema.properties : {};
  const property = properties[field];
  if (property === undefined) throw new Error(`${operationId} has no body field ${field}`);
  return fieldList(document, { properties: { [field]: property } }).join("\n");
}

/** The webhooks page: the event types by family, the events API, and where receiving them is explained. */
function webhooksPage(document: JsonObject): string {
  const webhooks = isObject(document.webhooks) ? document.webhooks : {};
  const families = new Map<string, string[]>();
  for (const [type, item] of Object.entries(webhooks)) {
    const post = isObject(item) && isObject(item.post) ? item.post : {};
    const tag = Array.isArray(post.tags) ? String(post.tags[0]) : "Events";
    const description = typeof post.description === "string" ? post.description.split("\n\n")[0] : "";
    families.set(tag, [...(families.get(tag) ?? []), `- \`${type}\`: ${description}`]);
  }
  const eventTypes = [...families].flatMap(([tag, lines]) => [
    `### ${tag}`,
    tagDescription(document, tag),
    lines.join("\n"),
  ]);
  return operationsPage(
    document,
    "Webhooks",
    [
      tagDescription(document, "Events"),
      "How to receive them, verify their signature and answer: [Receiving webhooks](/docs/receiving-webhooks.md).",
      "## Event types",
      ...eventTypes,
    ],
    operationIdsTagged(document, "Events"),
  );
}

/** The errors page: the envelope, an example, and every code of the catalog with the merchant operations answering it. */
function errorsPage(document: JsonObject): string {
  const schemas =
    isObject(document.components) && isObject(document.components.schemas) ? document.components.schemas : {};
  const envelope = isObject(schemas.Error) ? schemas.Error : {};
  const refersTo = (value: Json | undefined, code: string) =>
    JSON.stringify(value ?? null).includes(`"#/components/schemas/Error.${code}"`);
  const responses = isObject(document.components) ? document.components.responses : undefined;
  const merchant = documentedOperations(document).filter(isMerchantOperation);
  const rows = Object.entries(ERROR_CATALOG).map(([code, { status, type }]) => {
    const answeredBy = merchant
      .filter(({ operation }) => {
        const { default: _, ...listed } = isObject(operation.responses) ? operation.responses : {};
        return refersTo(listed, code);
      })
      .map(({ operation }) => `\`${String(operation.operationId)}\``);
    if (refersTo(responses, code)) answeredBy.unshift("any operation");
    return `| \`${code}\` | ${status} | \`${type}\` | ${answeredBy.join(", ")} |`;
  });
  const example = documentedOperations(document)
    .flatMap(({ operation }) => Object.values(isObject(operation.responses) ? operation.responses : {}))
    .map((reply) => (isObject(reply) ? jsonMedia(reply) : undefined))
    .flatMap((media) => (isObject(media?.examples) ? Object.values(media.examples) : []))
    .map((named) => (isObject(named) ? named.value : undefined))
    .find((value) => isObject(value) && isObject(value.error));
  const generic = isObject(responses) && isObject(responses.Error) ? responses.Error.description : undefined;
  return [
    "# Errors",
    String(envelope.description ?? ""),
    fieldList(document, envelope).join("\n"),
    ...(example === undefined ? [] : ["For example:", jsonBlock(example)]),
    "Each operation lists the codes it answers and when, by status (see each product's page).",
    ...(typeof generic === "string" ? [`Any operation may also answer: ${generic}`] : []),
    "## Codes",
    ["| Code | HTTP status | `type` | Merchant operations that answer it |", "| --- | --- | --- | --- |", ...rows].join(
      "\n",
    ),
  ].join("\n\n");
}

/** Every page, in the order `/llms.txt` lists them. */
const PAGES: PageSpec[] = [
  {
    slug: "quick-start",
    title: "Quick start",
    note: () =>
      "Run the service, make a test key, have a test charge paid and verify its webhook; use the API from an assistant.",
    build: ({ readme }) =>
      ["# Quick start", ...QUICK_START_SECTIONS.map((heading) => readmeSection(readme, heading))].join("\n\n"),
  },
  {
    slug: "receiving-webhooks",
    title: "Receiving webhooks",
    note: () =>
      "What a webhook carries, how to verify its signature and what to answer; receivers in Node.js, Python, PHP and Go.",
    build: ({ receivingWebhooks }) => servedLinks(receivingWebhooks, "docs/receiving-webhooks.md"),
  },
  tagPage("immediate-charges", "Immediate charges", "Charges", ["getAmountDue"]),
  {
    slug: "due-date-charges",
    title: "Due-date charges",
    note: () =>
      "Charges with a due date, fine, interest, reduction and discounts (the API Pix standard's cobv), and their batches.",
    build: ({ document }) =>
      operationsPage(
        document,
        "Due-date charges",
        [
          `A charge created with \`due_date\` is a due-date charge:\n\n${bodyFieldLine(document, "createTransaction", "due_date")}`,
          tagDescription(document, "Charge batches"),
        ],
        ["createTransaction", "getAmountDue", "simulatePayment", ...operationIdsTagged(document, "Charge batches")],
      ),
  },
  tagPage("qr-codes", "Reusable QR codes", "QR codes"),
  tagPage("subscriptions", "Subscriptions (Pix Automático)", "Recurrences"),
  tagPage("refunds", "Refunds", "Refunds"),
  tagPage("withdrawals", "Balance and withdrawals", "Balance and withdrawals"),
  tagPage("disputes", "Disputes", "Disputes"),
  {
    slug: "webhooks",
    title: "Webhooks",
    note: () => "Every event type and its payload, and the events API to poll as a safety net.",
    build: ({ document }) => webhooksPage(document),
  },
  {
    slug: "errors",
    title: "Errors",
    note: () =>
      "The error envelope of every refusal and each error code: its HTTP status, type and the operations answering it.",
    build: ({ document }) => errorsPage(document),
  },
];

/** The slugs of the pages, `/docs/<slug>.md` each. */
export const MARKDOWN_PAGE_SLUGS = PAGES.map((page) => page.slug);

/**
 * Every page, made from `sources`.
 * @throws Error when a source lacks what a page is made from (a README section, a tag, an operation)
 */
export function markdownPages(sources: MarkdownSources): MarkdownPage[] {
  return PAGES.map((page) => ({
    slug: page.slug,
    title: page.title,
    note: page.note(sources.document),
    markdown: `${page.build(sources).trim()}\n`,
  }));
}

/** Reads the README and `docs/receiving-webhooks.md` from the repository, beside the document it was given. */
export async function readMarkdownSources(document: JsonObject): Promise<MarkdownSources> {
  const [readme, receivingWebhooks] = await Promise.all([
    readFile(path.join(REPO_ROOT, "README.md"), "utf8"),
    readFile(path.join(REPO_ROOT, "docs/receiving-webhooks.md"), "utf8"),
  ]);
  return { readme, receivingWebhooks, document };
}

/**
 * `/llms.txt` (llmstxt.org): the API's name, its summary as the quote, the document's conventions, then the pages and
 * the OpenAPI document as links under `baseUrl` (the deployment's `PUBLIC_BASE_URL`), the HTML reference as optional.
 */
export function llmsTxt(pages: MarkdownPage[], document: JsonObject, baseUrl: string): string {
  const info = isObject(document.info) ? document.info : {};
  const base = baseUrl.replace(/\/+$/, "");
  return [
    `# ${String(info.title)}`,
    `> ${String(info.summary)}`,
    String(info.description ?? ""),
    "## Docs",
    pages.map((page) => `- [${page.title}](${base}/docs/${page.slug}.md): ${page.note}`).join("\n"),
    "## API",
    `- [OpenAPI document](${base}/openapi.json): every route, request, reply, error code and webhook event (OpenAPI 3.1)`,
    "## Optional",
    `- [API reference](${base}/docs): the OpenAPI document as an HTML page, for people`,
  ]
    .join("\n\n")
    .concat("\n");
}
