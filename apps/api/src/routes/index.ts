/**
 * Every router of the API, mounted in one place.
 */
import type { Express } from "express";
import type { AppDeps } from "../deps";
import { probesRouter } from "./probes/probes.router";
import { requireApiKey } from "../http/api-key-auth";
import { apiKeyRateLimit } from "../http/api-rate-limit";
import { requireOpsRolePlaceholder } from "../http/ops-auth";
import { eventsRouter } from "./events/events.router";
import { opsInboxRouter } from "./ops-inbox/ops-inbox.router";
import { transactionsRouter } from "./transactions/transactions.router";

/** Mounts the routers on `app`. */
export function mountRoutes(app: Express, deps: AppDeps): void {
  app.use(probesRouter(deps));
  const merchant = [requireApiKey(deps), apiKeyRateLimit(deps)];
  app.use("/v1/transactions", ...merchant, transactionsRouter(deps));
  app.use("/v1/events", ...merchant, eventsRouter(deps));
  app.use("/v1/ops/inbox", requireOpsRolePlaceholder, opsInboxRouter(deps));
}
