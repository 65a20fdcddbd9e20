/**
 * `GET /docs` as an integrator sees it, from a real listening API: the first request after the API starts answers
 * the whole page from what was rendered before (by `npm run build`, and here by the same function, which reads the
 * render cache back unless `openapi.json` changed), so well before a render would end (one takes over 10 s; the bound
 * is 5 s so that a loaded machine is no failure, and the time is logged); then headless Chromium (Debian's
 * `chromium`, driven by playwright-core) opens the page and finds an operation, with every request staying on the
 * API's own origin and no Content-Security-Policy violation. The browser's part is skipped, saying so in its name,
 * only when Chromium is not installed (`.ci/run` installs it).
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { SUBSCRIBABLE_EVENT_TYPES } from "@lm/domain";
import { DOCS_SERVER_PLACEHOLDER, renderDocsPage } from "../../src/routes/docs/render-docs-page";
import { chromiumTitle, hasChromium, launchChromium } from "../support/chromium";
import { useApiTestContext } from "../support/harness";

/**
 * The one address off the API's origin the page asks for: Redoc's sidebar footer always shows Redocly's logo from its
 * CDN. The page's CSP (`img-src 'self' data:`) refuses it before any request leaves, and Redoc then hides the image.
 */
const REDOC_LOGO_URL = "https://cdn.redoc.ly/redoc/logo-mini.svg";

jest.setTimeout(60_000);

/** The operation the menu is asked to reach: Redoc's id of its section, also the address's #fragment. */
const OPERATION_SECTION = "tag/Webhook-endpoints/operation/createWebhookEndpoint";

const title = chromiumTitle("in headless Chromium");
// The reporter shows a skipped test only as a count; this line says which one and why.
if (!hasChromium) console.warn(`GET /docs ${title}`);

describe("GET /docs", () => {
  const ctx = useApiTestContext();
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    // What `npm run build` does before the API starts: seconds when openapi.json changed, milliseconds otherwise.
    await renderDocsPage();
    server = ctx.app.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  test("when the API has just started, then its first GET /docs answers the whole page rendered before, under the page's CSP, showing this deployment's server", async () => {
    const start = performance.now();
    const res = await fetch(`${origin}/docs`);
    const html = await res.text();
    const firstLoadMs = performance.now() - start;
    console.log(`first GET /docs after the start answered ${html.length} characters in ${Math.round(firstLoadMs)} ms`);

    expect(firstLoadMs).toBeLessThan(5_000);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toMatch(/script-src 'self';/);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(html).toContain(`<span>${ctx.config.publicBaseUrl}</span>/v1/transactions`);
    expect(html).toContain(`"servers":[{"url":"${ctx.config.publicBaseUrl}"}]`);
    expect(html).not.toContain(DOCS_SERVER_PLACEHOLDER);
  });

  (hasChromium ? describe : describe.skip)(title, () => {
    let browser: Browser;

    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
    });

    /** Whether the heading of the section `sectionId` (Redoc's `data-section-id`) is within the viewport. */
    const headingInView = async (page: Page, sectionId: string): Promise<boolean> => {
      const heading = page.locator(`[data-section-id="${sectionId}"] h2`);
      if ((await heading.count()) === 0) return false;
      const box = await heading.first().boundingBox();
      const viewport = page.viewportSize();
      return box !== null && viewport !== null && box.y >= 0 && box.y < viewport.height;
    };

    test("when an integrator opens /docs, then the menu scrolls to an operation, from this origin alone, within the page's CSP", async () => {
      // The first load's answer is timed above; this times what the reader waits for in the browser.
      expect((await fetch(`${origin}/docs`)).status).toBe(200);
      const page = await browser.newPage();
      const requested: string[] = [];
      const problems: string[] = [];
      page.on("request", (req) => requested.push(req.url()));
      page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
      page.on("console", (msg) => {
        if (msg.type() === "error") problems.push(`console: ${msg.text()}`);
      });

      const start = Date.now();
      const res = await page.goto(`${origin}/docs`, { waitUntil: "commit" });
      let clicks = 0;
      for (;;) {
        clicks++;
        await page.locator("li[data-item-id] > label", { hasText: "Webhook endpoints" }).first().click();
        await page
          .locator("li[data-item-id] > label", { hasText: "Create a webhook endpoint" })
          .first()
          .click({ timeout: 1_000 })
          .catch(() => undefined);
        if (await headingInView(page, OPERATION_SECTION)) break;
        if (Date.now() - start > 30_000) throw new Error("the menu never reached the operation");
      }
      const interactiveMs = Date.now() - start;
      console.log(
        `/docs interactive (menu click scrolled to its operation) in ${interactiveMs} ms, ${clicks} click(s)`,
      );

      expect(page.url()).toBe(`${origin}/docs#${OPERATION_SECTION}`);
      expect((await page.locator(`[data-section-id="${OPERATION_SECTION}"] h2`).first().textContent())?.trim()).toBe(
        "Create a webhook endpoint",
      );
      expect(res?.status()).toBe(200);
      expect(res?.headers()["content-security-policy"]).toMatch(/script-src 'self';/);
      expect(await page.title()).toBe("LM Pix API reference");
      expect(await page.getByRole("heading", { name: "Create a Pix charge" }).count()).toBe(1);
      // Every event's payload is on the page, as an operation of the Webhooks group.
      const eventSections = page.locator("#redoc [data-section-id^='tag/'][data-section-id*='-events/operation/']");
      expect(await eventSections.count()).toBe(Object.keys(SUBSCRIBABLE_EVENT_TYPES).length + 1);

      // The first interaction beyond the menu (here a response tab) hands the page to Redoc; once it has hydrated the
      // page, Redoc answers its own controls: the 400 tab of the response samples shows that reply's first example.
      const section = page.locator(`[data-section-id="${OPERATION_SECTION}"]`);
      const tab400 = section.getByRole("tab", { name: "400" });
      await tab400.click();
      await page.locator("#docs-before-redoc").waitFor({ state: "detached", timeout: 30_000 });
      await tab400.click();
      await section.getByRole("tabpanel").filter({ hasText: "validation_failed" }).waitFor({ timeout: 30_000 });

      const offOrigin = requested.filter((url) => !url.startsWith(`${origin}/`));
      expect(offOrigin.filter((url) => url !== REDOC_LOGO_URL)).toEqual([]);
      expect(requested).toEqual(
        expect.arrayContaining([`${origin}/docs/nav.js`, expect.stringMatching(/\/docs\/docs\.js\?v=[0-9a-f]{16}$/)]),
      );
      const logoRefused = (problem: string) =>
        problem.includes(REDOC_LOGO_URL) && /Content Security Policy/.test(problem);
      expect(problems.filter((problem) => !logoRefused(problem))).toEqual([]);
      await page.close();
    });
  });
});
