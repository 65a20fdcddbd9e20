/**
 * The merchant API's events, the polling safety net beside webhooks (DESIGN §5): `GET /v1/events/{id}` and
 * `GET /v1/events?type=&created_after=&created_before=`, in the envelope that webhooks deliver (SPEC "Event envelope"), scoped to the key's store
 * and mode.
 */
import { Router } from "express";
import { buildEventEnvelope, findEvent, listEvents } from "@lm/domain";
import type { AppDeps } from "../../deps";
import { merchantOf } from "../../http/api-key-auth";
import { listPage } from "../../http/list";
import { validate } from "../../http/validate";
import { listEventsSchema } from "./events.contract";

/** Router for `/v1/events`. */
export function eventsRouter(deps: AppDeps): Router {
  const router = Router();

  router.get("/", async (req, res) => {
    const { type, created_after, created_before, ...page } = validate(listEventsSchema, req.query);
    const filters = { type, created_after, created_before };
    const scope = merchantOf(res);
    res.json(await listPage(page, "event", (args) => listEvents(deps, scope, filters, args), buildEventEnvelope));
  });

  router.get("/:id", async (req, res) => {
    res.json(buildEventEnvelope(await findEvent(deps, merchantOf(res), req.params.id)));
  });

  return router;
}
