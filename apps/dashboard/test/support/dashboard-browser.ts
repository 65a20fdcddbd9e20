/**
 * What the dashboard's browser tests share (DESIGN §15 "Quality bar"): the real API listening on a port of this
 * machine whose origin is its `PUBLIC_BASE_URL` (so the page, its session cookie and mailed links are all on it), the
 * dashboard built by Vite as `npm run build` builds it (from the build cache when the sources did not change), an
 * axe-core check of the page in the browser, real TOTP codes from the authenticator's secret, and screenshots.
 */
import { readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import * as OTPAuth from "otpauth";
import type { Locator, Page } from "playwright-core";
import { builtDashboard } from "../../../api/src/routes/dashboard/dashboard-build";
import type { ApiTestContext, TestEnv } from "../../../api/test/support/harness";

/**
 * Starts a harness (`useApiTestContext` or `useE2eTestContext`) whose API listens on 127.0.0.1 at a port chosen
 * before its configuration is made, with `PUBLIC_BASE_URL` that origin, and builds the dashboard. Call once at the top
 * of a file, in place of the harness.
 * @returns the harness's context and the API's origin (known once `beforeAll` ran)
 */
export function useDashboardApi<T extends ApiTestContext>(
  harness: (env: TestEnv) => T,
): { ctx: T; origin: () => string } {
  const server = createServer();
  let origin = "";
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  const ctx = harness(() => ({ PUBLIC_BASE_URL: origin }));
  beforeAll(async () => {
    await builtDashboard();
    server.on("request", ctx.app);
  }, 120_000);
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { ctx, origin: () => origin };
}

/** axe-core's browser bundle, injected into each page checked. */
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/** One violation as axe reports it, cut to what a failure message needs. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core on the page as it is now (WCAG 2.x A and AA rules and axe's best practices) and returns the serious
 * and critical violations. The script is evaluated through the browser's debugging protocol, which the page's CSP
 * does not govern, so the page is checked under its real policy.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    interface AxeResult {
      id: string;
      impact: string | null;
      help: string;
      nodes: { target: string[] }[];
    }
    // The page's globals, named without the DOM's types (this file is type-checked as Node code).
    const scope = globalThis as unknown as {
      axe: { run: (context: unknown) => Promise<{ violations: AxeResult[] }> };
      document: unknown;
    };
    const { violations } = await scope.axe.run(scope.document);
    return violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.map((node) => node.target.join(" ")),
      }));
  });
}

/**
 * The authenticator of a seller: TOTP codes (RFC 6238, an implementation of its own, otpauth) from the secret the
 * enrolment page showed. A step once accepted is never accepted again (DESIGN §3), so each code is of a step after the
 * last one given, waiting for the clock when the next step is not within the server's one step of drift yet.
 */
export class Authenticator {
  private readonly totp: OTPAuth.TOTP;
  private lastStep = -1;

  constructor(secret: string) {
    this.totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 });
  }

  /** A code of a step never given before, within one step of now. */
  async nextCode(): Promise<string> {
    const step = Math.max(Math.floor(Date.now() / 30_000), this.lastStep + 1);
    // The server accepts a code of the next step too; one further ahead waits for the clock to reach the step before.
    const waitMs = (step - 1) * 30_000 - Date.now();
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs + 200));
    this.lastStep = step;
    return this.totp.generate({ timestamp: step * 30_000 + 1_000 });
  }
}

/** Where screenshots go: `docs/screenshots` with `UPDATE_SCREENSHOTS=1` (the README shows them), else a temporary folder. */
const SCREENSHOT_DIR =
  process.env.UPDATE_SCREENSHOTS === "1"
    ? path.resolve(__dirname, "../../../../docs/screenshots")
    : path.join(tmpdir(), "lm-dashboard-screenshots");

/** Saves a screenshot of the page's viewport as `<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

/** The text of `locator` once it is visible. */
export async function textOf(locator: Locator): Promise<string> {
  await locator.waitFor();
  return (await locator.textContent()) ?? "";
}
