/**
 * `GET /llms.txt` and the Markdown pages it lists (`GET /docs/{page}.md`), as an assistant reads them: the index in
 * the llmstxt.org layout, every link of it and of its pages answering, and the pages made from their sources (the
 * README, docs/receiving-webhooks.md, the OpenAPI document and the error catalog).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import request from "supertest";
import { ERROR_CATALOG } from "@lm/wire";
import { renderDocsPage } from "../../src/routes/docs/render-docs-page";
import { useApiTestContext } from "../support/harness";
import { operationsOf, type JsonObject } from "../support/openapi-document";

const REPO_ROOT = path.resolve(__dirname, "../../../..");

/** The `[title](url)` links of Markdown, code blocks left out. */
const linksOf = (markdown: string): { title: string; url: string }[] =>
  [...markdown.replace(/```[\s\S]*?```/g, "").matchAll(/\[([^\]\n]+)\]\(([^)\s]+)\)/g)].map((match) => ({
    title: match[1] ?? "",
    url: match[2] ?? "",
  }));

describe("GET /llms.txt and the Markdown docs", () => {
  const ctx = useApiTestContext();
  let index: string;
  let pages: Map<string, string>;

  beforeAll(async () => {
    // The HTML reference is a link of /llms.txt too: rendered first when openapi.json changed, as the build does.
    await renderDocsPage();
    const res = await request(ctx.app).get("/llms.txt");
    index = res.text;
    pages = new Map();
    for (const { url } of linksOf(index).filter(({ url }) => url.endsWith(".md"))) {
      pages.set(new URL(url).pathname, (await request(ctx.app).get(new URL(url).pathname)).text);
    }
  }, 120_000);

  test("when /llms.txt is asked for, then 200 text/plain laid out as llmstxt.org says: a title, a summary quote, details, then lists of links", async () => {
    const res = await request(ctx.app).get("/llms.txt");

    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
    const blocks = res.text.split("\n\n");
    expect(blocks[0]).toBe("# LM Pix API");
    expect(blocks[1]).toMatch(/^> \S/);
    expect(res.text.match(/^## .+$/gm)).toEqual(["## Docs", "## API", "## Optional"]);
    const listed = res.text
      .split(/^## .+$/m)
      .slice(1)
      .flatMap((section) => section.trim().split("\n"));
    expect(listed.filter((line) => !/^- \[[^\]]+\]\(\S+\)(: .+)?$/.test(line))).toEqual([]);
  });

  test("when each link of /llms.txt is followed, then it is under PUBLIC_BASE_URL and answers 200: the pages as Markdown, the document as JSON", async () => {
    const links = linksOf(index);
    const answers: string[] = [];
    for (const { url } of links) {
      expect(url.startsWith(`${ctx.config.publicBaseUrl}/`)).toBe(true);
      const res = await request(ctx.app).get(new URL(url).pathname);
      answers.push(`${new URL(url).pathname} ${res.status} ${String(res.headers["content-type"])}`);
    }

    expect(links.map(({ title }) => title)).toEqual(
      expect.arrayContaining([
        "Quick start",
        "Receiving webhooks",
        "Immediate charges",
        "Due-date charges",
        "Refunds",
        "Balance and withdrawals",
        "Webhooks",
        "Errors",
        "OpenAPI document",
      ]),
    );
    expect(answers).toEqual(
      links.map(({ url }) => {
        const pathname = new URL(url).pathname;
        const type = pathname.endsWith(".md")
          ? "text/markdown; charset=utf-8"
          : pathname === "/openapi.json"
            ? "application/json; charset=utf-8"
            : "text/html; charset=utf-8";
        return `${pathname} 200 ${type}`;
      }),
    );
  }, 30_000);

  test("when a page links to another address of the service, then that address answers 200, and no page keeps a link relative to the repository", async () => {
    const targets = new Set<string>();
    for (const [page, markdown] of pages) {
      for (const { url } of linksOf(markdown)) {
        if (/^[a-z]+:/.test(url)) continue;
        expect(`${page}: ${url}`).toMatch(/: \/\S+$/);
        targets.add(url.split("#")[0] ?? url);
      }
    }

    for (const target of targets)
      expect(`${target} ${(await request(ctx.app).get(target)).status}`).toBe(`${target} 200`);
    expect([...targets]).toEqual(expect.arrayContaining(["/docs/receiving-webhooks.md"]));
  });

  test("when the pages are read, then together they describe every merchant operation of the document, and each starts with its title", async () => {
    const document = (await request(ctx.app).get("/openapi.json")).body as JsonObject;
    const merchant = operationsOf(document).filter(({ operation }) =>
      JSON.stringify(operation.security).includes('"apiKey"'),
    );
    const all = [...pages.values()].join("\n");

    const undescribed = merchant
      .map(({ route, operation }) => ({ route, id: String(operation.operationId) }))
      .filter(({ route, id }) => !all.includes(`\`${route}\` (operationId \`${id}\`)`));

    expect(undescribed).toEqual([]);
    expect(merchant.length).toBeGreaterThanOrEqual(20);
    for (const markdown of pages.values()) expect(markdown).toMatch(/^# \S/);
  });

  test("when the quick start and the receiving guide are read, then they are the README's sections and the guide, with their links served", () => {
    const quickStart = pages.get("/docs/quick-start.md") ?? "";
    const guide = pages.get("/docs/receiving-webhooks.md") ?? "";
    const guideSource = readFileSync(path.join(REPO_ROOT, "docs/receiving-webhooks.md"), "utf8");

    expect(quickStart).toContain("npx lm trigger transaction.paid");
    expect(quickStart).toContain("## Use it from an assistant");
    expect(quickStart).toContain('"args": ["<repository>/apps/cli/bin/lm.cjs", "mcp"]');
    expect(quickStart).toContain("[docs/receiving-webhooks.md](/docs/receiving-webhooks.md)");
    expect(guide.match(/^#+ .+$/gm)).toEqual(guideSource.match(/^#+ .+$/gm));
    expect(guide).toContain("each is a file in\n`docs/receivers/` that runs");
  });

  test("when the errors page is read, then it has the envelope and every code of the catalog with its status and type", () => {
    const errors = pages.get("/docs/errors.md") ?? "";

    expect(errors).toContain("`request_id` (string, required)");
    for (const [code, { status, type }] of Object.entries(ERROR_CATALOG)) {
      expect(errors).toContain(`| \`${code}\` | ${status} | \`${type}\` |`);
    }
    expect(errors).toMatch(/\| `test_mode_only` \| 403 \| `permission_error` \| [^\n]*`simulateDispute`/);
  });

  test("when a page that does not exist is asked for, then 404 resource_not_found in the error envelope", async () => {
    const res = await request(ctx.app).get("/docs/pricing.md");

    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: "resource_not_found", message: expect.stringMatching(/llms\.txt/) });
  });
});
