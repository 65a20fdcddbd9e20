/**
 * The seller's payout keys in the panel (DESIGN §7 "Payout keys"): list, add and delete; adding and deleting always
 * need a step-up (DESIGN §3). Keys are shown masked only.
 */
import { Router } from "express";
import { addPayoutKey, deletePayoutKey, listPayoutKeys } from "@lm/domain";
import { serializePayoutKey } from "@lm/wire";
import type { AppDeps } from "../../deps";
import { panelActor, panelSellerId, requireStepUp } from "../../http/auth";
import { listPage } from "../../http/list";
import { validate } from "../../http/validate";
import { createPayoutKeySchema } from "./payout-keys.contract";
import { listPayoutKeysSchema } from "./payout-keys.contract";

/** Router of `/v1/me/payout-keys` and `/v1/me/payout-keys/{id}`. */
export function payoutKeysRouter(deps: AppDeps): Router {
  const router = Router();
  const change = requireStepUp(deps, "always");

  router.get("/", async (req, res) => {
    const page = validate(listPayoutKeysSchema, req.query);
    const sellerId = panelSellerId(res);
    res.json(
      await listPage(page, "payoutKey", (args) => listPayoutKeys(deps.repos, sellerId, args), serializePayoutKey),
    );
  });

  router.post("/", change, async (req, res) => {
    const input = validate(createPayoutKeySchema, req.body);
    res.status(201).json(serializePayoutKey(await addPayoutKey(deps, await panelActor(deps, res), input)));
  });

  router.delete("/:id", change, async (req, res) => {
    await deletePayoutKey(deps, await panelActor(deps, res), String(req.params.id));
    res.status(204).end();
  });

  return router;
}
