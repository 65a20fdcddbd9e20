/**
 * Builds the dashboard with Vite's `build()` into the folder named by the first argument. Run in a child process by
 * apps/api/src/routes/dashboard/dashboard-build.ts, which keeps builds in a cache named after the sources' digest.
 */
import process from "node:process";
import { fileURLToPath } from "node:url";
import { build } from "vite";

const [outDir] = process.argv.slice(2);
if (outDir === undefined) {
  process.stderr.write("usage: node vite-build.mjs <output folder>\n");
  process.exit(2);
}
// React and the router ship their development builds unless NODE_ENV says production (the tests run under "test").
process.env.NODE_ENV = "production";
await build({
  configFile: fileURLToPath(import.meta.resolve("./vite.config.mts")),
  mode: "production",
  build: { outDir, emptyOutDir: true },
  logLevel: "warn",
});
