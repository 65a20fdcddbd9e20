/**
 * Vite's configuration of the seller dashboard (DESIGN §15): a single-page application served by the API at
 * `/dashboard`. Assets sit beside `index.html` (no `assets/` folder), named after a digest of their bytes, so the API
 * serves every file of the build at `/dashboard/<name>` and caches the hashed ones for good.
 */
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  root: import.meta.dirname,
  base: "/dashboard/",
  plugins: [react()],
  build: {
    assetsDir: "",
    target: "es2022",
    // The page's CSP admits no inline script or style (DESIGN §15): nothing is inlined as a data: URL either.
    assetsInlineLimit: 0,
    sourcemap: false,
    reportCompressedSize: false,
  },
});
