/**
 * `GET /docs` as an integrator sees it: headless Chromium (Debian's `chromium`, driven by playwright-core) opens the
 * page from a real listening API and finds an operation, with every request staying on the API's own origin and no
 * Content-Security-Policy violation. Skipped, saying so in its name, only when Chromium is not installed (`.ci/run`
 * installs it).
 */
import { existsSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Browser } from "playwright-core";
import { useApiTestContext } from "../support/harness";

const CHROMIUM_PATH = "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM_PATH);

/** Flags for a quiet, offline browser: no sandbox (CI runs as root), no GPU, no calls home. */
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * The one address off the API's origin the page asks for: Redoc's sidebar footer always shows Redocly's logo from its
 * CDN. The page's CSP (`img-src 'self' data:`) refuses it before any request leaves, and Redoc then hides the image.
 */
const REDOC_LOGO_URL = "https://cdn.redoc.ly/redoc/logo-mini.svg";

jest.setTimeout(60_000);

const title = hasChromium
  ? "GET /docs in headless Chromium"
  : `GET /docs in headless Chromium (SKIPPED: no Chromium at ${CHROMIUM_PATH}; apt-get install -y chromium)`;
// The reporter shows a skipped test only as a count; this line says which one and why.
if (!hasChromium) console.warn(title);

(hasChromium ? describe : describe.skip)(title, () => {
  const ctx = useApiTestContext();
  let server: Server;
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    server = ctx.app.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  test("when an integrator opens /docs, then Redoc renders the document's operations from this origin alone, within the page's CSP", async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    const problems: string[] = [];
    page.on("request", (req) => requested.push(req.url()));
    page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
    page.on("console", (msg) => {
      if (msg.type() === "error") problems.push(`console: ${msg.text()}`);
    });

    const res = await page.goto(`${origin}/docs`);
    await page.getByRole("heading", { name: "Create a Pix charge" }).waitFor({ timeout: 30_000 });

    expect(res?.status()).toBe(200);
    expect(res?.headers()["content-security-policy"]).toMatch(/script-src 'self'/);
    expect(await page.title()).toBe("LM Pix API reference");
    expect(await page.getByRole("heading", { name: "Create a webhook endpoint" }).count()).toBe(1);
    const offOrigin = requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith("blob:"));
    expect(offOrigin.filter((url) => url !== REDOC_LOGO_URL)).toEqual([]);
    expect(requested).toEqual(expect.arrayContaining([`${origin}/openapi.json`, `${origin}/docs/redoc.standalone.js`]));
    const logoRefused = (problem: string) =>
      problem.includes(REDOC_LOGO_URL) && /Content Security Policy/.test(problem);
    expect(problems.filter((problem) => !logoRefused(problem))).toEqual([]);
    await page.close();
  });
});
