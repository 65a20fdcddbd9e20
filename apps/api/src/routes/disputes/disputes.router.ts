/**
 * Disputes (DESIGN §11): the devoluções the payer's bank made under the MED, listed and read with an API key (the
 * key's store and mode) and listed in the panel (the seller's, in the mode of the query). Raising one in test mode is
 * `POST /v1/transactions/{id}/simulate-dispute` (transactions router).
 */
import { Router } from "express";
import { findDispute, listDisputes } from "@lm/domain";
import { serializeDispute } from "@lm/wire";
import type { AppDeps } from "../../deps";
import { merchantOf } from "../../http/api-key-auth";
import { panelSellerId } from "../../http/auth";
import { listPage } from "../../http/list";
import { validate } from "../../http/validate";
import { listDisputesSchema, panelListDisputesSchema } from "./disputes.contract";

/** Router of `GET /v1/disputes` and `GET /v1/disputes/{id}` (mounted behind API key authentication). */
export function merchantDisputesRouter(deps: AppDeps): Router {
  const router = Router();
  router.get("/", async (req, res) => {
    const page = validate(listDisputesSchema, req.query);
    const scope = merchantOf(res);
    res.json(await listPage(page, "dispute", (args) => listDisputes(deps.repos, scope, args), serializeDispute));
  });
  router.get("/:id", async (req, res) => {
    res.json(serializeDispute(await findDispute(deps.repos, merchantOf(res), String(req.params.id))));
  });
  return router;
}

/** Router of `GET /v1/me/disputes?mode=` (mounted behind the session). */
export function panelDisputesRouter(deps: AppDeps): Router {
  const router = Router();
  router.get("/", async (req, res) => {
    const { mode, ...page } = validate(panelListDisputesSchema, req.query);
    const scope = { sellerId: panelSellerId(res), mode };
    res.json(await listPage(page, "dispute", (args) => listDisputes(deps.repos, scope, args), serializeDispute));
  });
  return router;
}
