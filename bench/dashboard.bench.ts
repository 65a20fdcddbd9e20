/**
 * `npm run bench:dashboard`: what the seller dashboard's first load costs a browser (DESIGN §15: at most 250 KB of
 * compressed JavaScript). Builds the dashboard with Vite as `npm run build` does, into a fresh folder (so the build's
 * time is measured too), reads the scripts its `index.html` loads (the entry and every module it preloads) and gzips
 * each as the API serves them (Node's zlib, default level), and prints one JSON object: the first load's JavaScript
 * raw and gzipped, its stylesheet, the chunks loaded later (the QR encoder of the 2FA page), and whether the first
 * load is within the budget. Needs no database. Not a timed test.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { builtDashboard } from "../apps/api/src/routes/dashboard/dashboard-build";

/** The first load's budget of compressed JavaScript (DESIGN §15), bytes. */
const BUDGET_BYTES = 250 * 1024;

/** A file of the build: its name, bytes and gzipped bytes. */
interface Sized {
  file: string;
  bytes: number;
  gzip_bytes: number;
}

async function sized(dir: string, file: string): Promise<Sized> {
  const body = await readFile(path.join(dir, file));
  return { file, bytes: body.length, gzip_bytes: gzipSync(body).length };
}

/** The `/dashboard/<name>` files `index.html` names in `<attribute>="…"` of tags matching `tag`. */
function referenced(html: string, tag: RegExp, attribute: string): string[] {
  const found: string[] = [];
  for (const [element] of html.matchAll(new RegExp(tag, "g"))) {
    const value = new RegExp(`${attribute}="/dashboard/([^"]+)"`).exec(element)?.[1];
    if (value !== undefined) found.push(value);
  }
  return found;
}

async function main(): Promise<void> {
  const cache = await mkdtemp(path.join(tmpdir(), "lm-dashboard-bench-"));
  try {
    const started = performance.now();
    const dir = await builtDashboard(cache);
    const buildMs = performance.now() - started;
    const html = await readFile(path.join(dir, "index.html"), "utf8");
    const firstLoad = [
      ...referenced(html, /<script\b[^>]*>/, "src"),
      ...referenced(html, /<link\b[^>]*rel="modulepreload"[^>]*>/, "href"),
    ];
    const styles = referenced(html, /<link\b[^>]*rel="stylesheet"[^>]*>/, "href");
    const scripts = await Promise.all(firstLoad.map((file) => sized(dir, file)));
    const later = (await readdir(dir)).filter((file) => file.endsWith(".js") && !firstLoad.includes(file));
    const gzipBytes = scripts.reduce((sum, file) => sum + file.gzip_bytes, 0);
    process.stdout.write(
      `${JSON.stringify({
        bench: "dashboard",
        build_ms: Math.round(buildMs),
        first_load_js_bytes: scripts.reduce((sum, file) => sum + file.bytes, 0),
        first_load_js_gzip_bytes: gzipBytes,
        budget_gzip_bytes: BUDGET_BYTES,
        within_budget: gzipBytes <= BUDGET_BYTES,
        first_load_scripts: scripts,
        stylesheets: await Promise.all(styles.map((file) => sized(dir, file))),
        loaded_later: await Promise.all(later.map((file) => sized(dir, file))),
      })}\n`,
    );
  } finally {
    await rm(cache, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
