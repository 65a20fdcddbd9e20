/**
 * `npm run build`: bundles each service's entry point with the workspace packages it imports into one CommonJS file,
 * `dist/api.cjs` and `dist/worker.cjs` (with source maps), which `npm run start:api` and `npm run start:worker` run
 * with plain node. npm packages are not bundled: node loads them from `node_modules` at run time, as it does for the
 * sources. Beside the API's bundle it writes the API reference page (`GET /docs`) that Redoc renders from
 * `apps/api/openapi.json`, `dist/api-docs-page.json`, so that the API never spends the seconds of that render on a
 * request (apps/api/src/routes/docs/render-docs-page.ts; a render is cached, and done again when the document changes).
 * It also builds the seller dashboard with Vite (`apps/dashboard`, DESIGN §15; apps/api/src/routes/dashboard/
 * dashboard-build.ts keeps builds in a cache the same way) into `dist/dashboard`, which the API serves at `/dashboard`.
 *
 * Why bundles: run through tsx, every module is its own CommonJS module, and each call into another module of
 * ours reads the imported function through a getter of that module's exports; one bundle calls it directly, and
 * tsx's loader and the sources it keeps are gone. Measured with `bench:api` against the same sources under tsx,
 * alternating (bench/README.md): about 25 MB less resident memory and a little less CPU per read.
 *
 * Usage: `npm run build [-- api|worker]` (both when neither is named).
 */
import { copyFile, mkdir, readdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { build, type Plugin } from "esbuild";
import { builtDashboard } from "../apps/api/src/routes/dashboard/dashboard-build";
import { renderDocsPage } from "../apps/api/src/routes/docs/render-docs-page";

const REPO_ROOT = path.resolve(__dirname, "..");
/** The bundles' folder, `dist/` at the repository root (git-ignored). */
const DIST_DIR = path.join(REPO_ROOT, "dist");

/** Each service's entry point, by the name of its bundle. */
const SERVICES = { api: "apps/api/src/main.ts", worker: "apps/worker/src/main.ts" } as const;

/**
 * The rendered reference page's file in `dist/`, whose name the API's bundle carries (`LM_BUILT_DOCS_PAGE`, read by
 * apps/api/src/routes/docs/docs.router.ts): the bundle serves this file and never renders the page itself.
 */
const BUILT_DOCS_PAGE = "api-docs-page.json";

/**
 * The dashboard's folder in `dist/`, whose name the API's bundle carries (`LM_BUILT_DASHBOARD`, read by
 * apps/api/src/routes/dashboard/dashboard.router.ts).
 */
const BUILT_DASHBOARD = "dashboard";

/** A service `npm run build` bundles. */
export type Service = keyof typeof SERVICES;

const HOISTED = path.join(REPO_ROOT, "node_modules") + path.sep;

/**
 * Leaves to node's `require` at run time every npm package that resolves to the root `node_modules`, where a
 * bare `require` from `dist/` finds the very same file. The workspace packages resolve (through their symlinks) to
 * `packages/` and `apps/`, and a version nested under one package (`packages/domain/node_modules/...`) to its
 * own folder: those are bundled, since `dist/` would reach another copy or none.
 */
const hoistedPackagesExternal: Plugin = {
  name: "hoisted-packages-external",
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === "resolving") return undefined;
      // `require.resolve` looks a file up when it runs; from `dist/`, the workspace's symlinks find the same file.
      if (args.kind === "require-resolve") return { path: args.path, external: true };
      const resolved = await builder.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: "resolving",
      });
      if (resolved.errors.length > 0 || resolved.external) return resolved;
      return resolved.path.startsWith(HOISTED) ? { path: args.path, external: true } : resolved;
    });
  },
};

/** Writes `file` as `target` whole: copied beside its place, then renamed into it. */
async function replaceFile(file: string, target: string): Promise<void> {
  const temporary = `${target}.${process.pid}.tmp`;
  await copyFile(file, temporary);
  await rename(temporary, target);
}

/**
 * Copies the dashboard's build of the current sources (built by Vite first when the cache has none) into
 * `dist/dashboard`: the hashed assets first, then `index.html`, which names them, each file whole; then the files of
 * older builds are removed. A running API keeps serving the build it read at its first request.
 * @throws Error when Vite cannot build the dashboard
 */
async function copyDashboard(): Promise<void> {
  const source = await builtDashboard();
  const target = path.join(DIST_DIR, BUILT_DASHBOARD);
  await mkdir(target, { recursive: true });
  const names = await readdir(source);
  const ordered = [...names.filter((name) => name !== "index.html"), "index.html"];
  for (const name of ordered) await replaceFile(path.join(source, name), path.join(target, name));
  const stale = (await readdir(target)).filter((name) => !names.includes(name));
  await Promise.all(stale.map((name) => rm(path.join(target, name), { force: true })));
}

/**
 * Writes `dist/<service>.cjs` and its source map for each of `services`, and for the API first its reference page,
 * `dist/api-docs-page.json` (rendered from `apps/api/openapi.json`, or taken from the render cache when that document
 * was rendered before) and the dashboard (`dist/dashboard`, see {@link copyDashboard}). Each file is written beside its place and renamed into it, so a process starting from `dist/`
 * while another build runs (tests build too) reads whole files.
 * @throws Error when esbuild cannot resolve or compile a source (its messages are printed first), Redoc cannot
 * render the document, or Vite cannot build the dashboard
 */
export async function buildServices(services: readonly Service[] = ["api", "worker"]): Promise<void> {
  await mkdir(DIST_DIR, { recursive: true });
  if (services.includes("api")) {
    await replaceFile((await renderDocsPage()).file, path.join(DIST_DIR, BUILT_DOCS_PAGE));
    await copyDashboard();
  }
  await Promise.all(
    services.map(async (service) => {
      const { outputFiles } = await build({
        absWorkingDir: REPO_ROOT,
        entryPoints: [SERVICES[service]],
        outfile: path.join(DIST_DIR, `${service}.cjs`),
        bundle: true,
        platform: "node",
        format: "cjs",
        target: "node20",
        sourcemap: true,
        plugins: [hoistedPackagesExternal],
        // Only the API's docs and dashboard routers name them; relative to the bundle's folder, where they were written.
        define: {
          LM_BUILT_DOCS_PAGE: JSON.stringify(BUILT_DOCS_PAGE),
          LM_BUILT_DASHBOARD: JSON.stringify(BUILT_DASHBOARD),
        },
        logLevel: "warning",
        write: false,
      });
      for (const file of outputFiles) {
        const temporary = `${file.path}.${process.pid}.tmp`;
        await writeFile(temporary, file.contents);
        await rename(temporary, file.path);
      }
    }),
  );
}

if (require.main === module) {
  const named = process.argv.slice(2);
  const unknown = named.filter((name) => !(name in SERVICES));
  if (unknown.length > 0) {
    process.stderr.write(`unknown service ${unknown.join(", ")}; known: ${Object.keys(SERVICES).join(", ")}\n`);
    process.exit(2);
  }
  buildServices(named.length > 0 ? (named as Service[]) : undefined).catch((err: unknown) => {
    // esbuild has printed its own messages; a failed render has not.
    if (!(err instanceof Error && "errors" in err)) process.stderr.write(`${String(err)}\n`);
    process.exit(1);
  });
}
