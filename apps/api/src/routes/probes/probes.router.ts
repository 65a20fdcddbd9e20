/**
 * Operational probes (SPEC "Probe results"): `GET /health` (the process is up) and `GET /ready` (PostgreSQL and Redis
 * answer within 2 s; 503 `degraded` naming the failing dependency otherwise; 200 `degraded` naming `change_feed` when
 * only the API key change feed is offline).
 */
import { Router } from "express";
import type { Health } from "@lm/wire";
import type { AppDeps } from "../../deps";
import { checkReadiness, readinessHttpStatus } from "./readiness";

/** Version of the service, from the root package.json. */
const VERSION: string = (require("../../../../../package.json") as { version: string }).version;
const STARTED_AT = Date.now();

/** Router with `/health` and `/ready`. */
export function probesRouter(deps: Pick<AppDeps, "db" | "redis" | "apiKeyChanges">): Router {
  const router = Router();
  router.get("/health", (_req, res) => {
    res.json({
      status: "ok",
      version: VERSION,
      uptime_s: Math.floor((Date.now() - STARTED_AT) / 1000),
    } satisfies Health);
  });
  router.get("/ready", async (_req, res) => {
    const readiness = await checkReadiness(deps);
    res.status(readinessHttpStatus(readiness)).json(readiness);
  });
  return router;
}
