/**
 * `GET /v1/me/event-types` (DESIGN §4 "Event types", §5): the types an endpoint can subscribe to, from the one
 * catalog, each with a one-line description. `ping` is not among them.
 */
import { Router } from "express";
import { serializeEventTypes } from "@lm/wire";

/** Router of `/v1/me/event-types`. */
export function eventTypesRouter(): Router {
  const router = Router();
  // Built once: the catalog is small and never changes while the process runs.
  const catalog = serializeEventTypes();

  router.get("/", (_req, res) => {
    res.json(catalog);
  });

  return router;
}
