/**
 * The seller dashboard's build (DESIGN §15): Vite bundles `apps/dashboard` into static files (an `index.html` and
 * assets named after a digest of their bytes), which the API serves at `/dashboard` (dashboard.router.ts).
 *
 * A build takes seconds of CPU, so it is kept in a cache folder named after a digest of everything it is made from:
 * the dashboard's sources, its Vite configuration and the versions of the packages it bundles. `npm run build` copies
 * the cached build beside the API's bundle (`dist/dashboard`); the API run from its sources (the tests) serves the
 * cached build itself. An unchanged dashboard is read back in milliseconds by the build and by every test run alike.
 *
 * Vite runs in a child process (apps/dashboard/vite-build.mjs calls its `build()`): Vite is an ES module that the
 * tests' module loader cannot load, and its memory is given back when the child exits.
 */
import { createHash } from "node:crypto";
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, readdir, rename, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";

/** The dashboard's workspace, `apps/dashboard`; found when a build is asked for, which the built API never does. */
export function dashboardDir(): string {
  return path.dirname(require.resolve("@lm/dashboard/package.json"));
}

/** A cached build's folder name: `build-` and 16 hex digits of the digest of what it was built from. */
const CACHE_ENTRY = /^build-[0-9a-f]{16}$/;

/** The packages whose versions change what a build holds (resolved from the dashboard's workspace). */
const BUNDLED_PACKAGES = [
  "vite",
  "@vitejs/plugin-react",
  "react",
  "react-dom",
  "react-router",
  "@tanstack/react-query",
  "qrcode",
];

/**
 * The installed version of package `name` as `require` (the dashboard's) finds it: its `package.json`, found from its
 * entry point upwards when the package does not export that file.
 */
function packageVersion(fromDashboard: NodeJS.Require, name: string): string {
  let dir = path.dirname(fromDashboard.resolve(name));
  for (;;) {
    const manifest = path.join(dir, "package.json");
    if (existsSync(manifest)) {
      const { name: found, version } = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; version: string };
      if (found === name) return version;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json of ${name} above its entry point`);
    dir = parent;
  }
}

/** Every file under `dir`, sorted, as paths relative to `root`. */
function filesUnder(dir: string, root: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const file = path.join(dir, name);
      return statSync(file).isDirectory() ? filesUnder(file, root) : [path.relative(root, file)];
    });
}

/**
 * The digest of what a build is made from: the dashboard's sources (`src/`, `index.html`, `vite.config.mts`, the
 * builder script, `package.json`), each file's path and bytes, and the bundled packages' versions.
 * @returns 16 hex digits
 */
export function dashboardSourceDigest(): string {
  const root = dashboardDir();
  const digest = createHash("sha256");
  const inputs = [
    ...filesUnder(path.join(root, "src"), root),
    "index.html",
    "vite.config.mts",
    "vite-build.mjs",
    "package.json",
  ];
  for (const file of inputs)
    digest
      .update(file)
      .update("\0")
      .update(readFileSync(path.join(root, file)));
  const fromDashboard = createRequire(path.join(root, "package.json"));
  for (const name of BUNDLED_PACKAGES) digest.update("\0").update(`${name}@${packageVersion(fromDashboard, name)}`);
  return digest.digest("hex").slice(0, 16);
}

/**
 * The built dashboard of the current sources, from its cache folder in `cacheDir`, built there first when missing
 * (seconds, in a child process running Vite). The build is written to a folder beside its place and renamed into it,
 * so a build and test processes building at once each find a whole build; older builds are then removed.
 * @param cacheDir - by default `dist/dashboard-cache/` at the repository root, git-ignored like the bundles beside it
 * @returns the folder holding `index.html` and the assets
 * @throws Error when Vite fails (its output is in the message)
 */
export async function builtDashboard(cacheDir?: string): Promise<string> {
  const root = dashboardDir();
  cacheDir ??= path.resolve(root, "../../dist/dashboard-cache");
  const dir = path.join(cacheDir, `build-${dashboardSourceDigest()}`);
  if (existsSync(path.join(dir, "index.html"))) return dir;

  await mkdir(cacheDir, { recursive: true });
  const temporary = `${dir}.${process.pid}.tmp`;
  await promisify(execFile)(process.execPath, [path.join(root, "vite-build.mjs"), temporary], {
    cwd: root,
    maxBuffer: 10 * 1024 * 1024,
  }).catch((err: { stderr?: string; message: string }) => {
    throw new Error(`the dashboard could not be built: ${err.stderr || err.message}`);
  });
  // Another process may have renamed the same build in meanwhile: its folder is as good as this one.
  await rename(temporary, dir).catch(async (err: unknown) => {
    await rm(temporary, { recursive: true, force: true });
    if (!existsSync(path.join(dir, "index.html"))) throw err;
  });
  const stale = (await readdir(cacheDir)).filter((name) => CACHE_ENTRY.test(name) && name !== path.basename(dir));
  await Promise.all(stale.map((name) => rm(path.join(cacheDir, name), { recursive: true, force: true })));
  return dir;
}
