/**
 * Debian's headless Chromium driven by playwright-core, for the tests that open pages in a real browser (the API
 * reference, the seller dashboard). `.ci/run` installs it (`apt-get install -y chromium`); where it is missing the
 * browser tests are skipped, saying so in their names.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

/** Where Debian's package puts Chromium. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/** Whether Chromium is installed here. */
export const hasChromium = existsSync(CHROMIUM_PATH);

/** Flags for a quiet, offline browser: no sandbox (CI runs as root), no GPU, no calls home. */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A test title that says, when Chromium is missing, that the browser part is skipped and how to install it. */
export function chromiumTitle(title: string): string {
  return hasChromium ? title : `${title} (SKIPPED: no Chromium at ${CHROMIUM_PATH}; apt-get install -y chromium)`;
}

/** Launches headless Chromium with {@link CHROMIUM_FLAGS}. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
}
