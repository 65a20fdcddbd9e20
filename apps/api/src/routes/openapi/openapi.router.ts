/**
 * `GET /openapi.json`: the machine-readable description of the API (SPEC "Versioning": version 0.0.0), served
 * without authentication. The document is `apps/api/openapi.json`, generated from the route contracts by
 * `npm run openapi` (openapi-document.ts); `apps/api/test/openapi/openapi.int.test.ts` checks that the mounted routes
 * are exactly the documented ones.
 */
import { readFileSync } from "node:fs";
import { Router } from "express";
import type { AppDeps } from "../../deps";

/**
 * Where the document lives, beside the API's package.json; found through the workspace package, so that the sources
 * and the bundle `npm run build` writes (`dist/api.cjs`) find the same file.
 */
export const OPENAPI_DOCUMENT_PATH = require.resolve("@lm/api/openapi.json");

/**
 * The OpenAPI document as this deployment serves it: the file with `servers` set to `PUBLIC_BASE_URL`, the service's
 * own origin, so that tools pointed at the document (and the reference page, `GET /docs`) call this deployment.
 */
export function servedOpenApiDocument(config: Pick<AppDeps["config"], "publicBaseUrl">): Record<string, unknown> {
  const document = JSON.parse(readFileSync(OPENAPI_DOCUMENT_PATH, "utf8")) as Record<string, unknown>;
  return { ...document, servers: [{ url: config.publicBaseUrl }] };
}

/** Router with `GET /openapi.json`. */
export function openapiRouter(deps: Pick<AppDeps, "config">): Router {
  const served = servedOpenApiDocument(deps.config);
  const router = Router();
  router.get("/openapi.json", (_req, res) => {
    res.json(served);
  });
  return router;
}
