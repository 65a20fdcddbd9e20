/**
 * `GET /openapi.json`: the machine-readable description of the API (SPEC "Versioning": version 0.0.0), served
 * without authentication. The document is `apps/api/openapi.json`, kept in step with the mounted routes by
 * `apps/api/test/openapi/openapi.int.test.ts`; a change of public contract changes it too (DESIGN preamble).
 */
import { readFileSync } from "node:fs";
import { Router } from "express";
import type { AppDeps } from "../../deps";
import { mountDocsPage } from "../docs/docs.router";

/**
 * Where the document lives, beside the API's package.json; found through the workspace package, so that the sources
 * and the bundle `npm run build` writes (`dist/api.cjs`) find the same file.
 */
export const OPENAPI_DOCUMENT_PATH = require.resolve("@lm/api/openapi.json");

/**
 * Router with `GET /openapi.json` and the reference page that renders it (`GET /docs`, see docs.router.ts). The file
 * is read once; `servers` is set to `PUBLIC_BASE_URL`, the service's own origin, so that tools pointed at the
 * document call this deployment, and the page shows the same.
 */
export function openapiRouter(deps: Pick<AppDeps, "config">): Router {
  const document = JSON.parse(readFileSync(OPENAPI_DOCUMENT_PATH, "utf8")) as Record<string, unknown>;
  const served = { ...document, servers: [{ url: deps.config.publicBaseUrl }] };
  const router = Router();
  router.get("/openapi.json", (_req, res) => {
    res.json(served);
  });
  mountDocsPage(router, served);
  return router;
}
