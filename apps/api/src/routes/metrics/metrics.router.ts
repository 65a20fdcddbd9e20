/**
 * `GET /metrics` on the API's public port: the Prometheus exposition of this process, mounted
 * only when `METRICS_TOKEN` is set and answered only to `Authorization: Bearer <METRICS_TOKEN>`. Without a token the
 * route does not exist here, and the metrics are on the private `METRICS_PORT` listener instead (see main.ts): the
 * public port never shows request rates, routes or process internals to anyone who asks.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { Router } from "express";
import { ApiError } from "@lm/domain";
import type { AppDeps } from "../../deps";

const BEARER = /^Bearer +(\S+)$/i;

/** SHA-256 of a token, so that tokens of any length compare in constant time. */
const digest = (token: string) => createHash("sha256").update(token).digest();

/**
 * Router with `GET /metrics` guarded by `token`.
 * @throws ApiError `authentication_required` (401, `WWW-Authenticate: Bearer`) for a missing or wrong token
 */
export function metricsRouter(deps: Pick<AppDeps, "metrics">, token: string): Router {
  const expected = digest(token);
  const router = Router();
  router.get("/metrics", async (req, res) => {
    const presented = BEARER.exec(req.get("authorization") ?? "")?.[1];
    if (presented === undefined || !timingSafeEqual(digest(presented), expected)) {
      throw new ApiError("authentication_required", "Send Authorization: Bearer <METRICS_TOKEN> to read metrics.", {
        headers: { "WWW-Authenticate": 'Bearer realm="metrics"' },
      });
    }
    res.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
  });
  return router;
}
