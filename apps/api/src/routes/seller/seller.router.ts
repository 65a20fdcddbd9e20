/**
 * The seller profile (DESIGN §7 "Seller"): read and change it in the panel (a change needs a step-up while the
 * seller's `account` toggle is on), read it with an API key. The document is always masked.
 */
import { Router } from "express";
import { findSeller, findStoreSeller, updateSellerProfile } from "@lm/domain";
import { serializeSeller } from "@lm/wire";
import type { AppDeps } from "../../deps";
import { merchantOf } from "../../http/api-key-auth";
import { panelAuth, panelSellerId, requireStepUp } from "../../http/auth";
import { validate } from "../../http/validate";
import { updateSellerSchema } from "./seller.contract";

/** Router of `GET|PATCH /v1/me/seller`. */
export function panelSellerRouter(deps: AppDeps): Router {
  const router = Router();

  router.get("/", async (_req, res) => {
    res.json(serializeSeller(await findSeller(deps.repos, panelSellerId(res))));
  });

  router.patch("/", requireStepUp(deps, "account"), async (req, res) => {
    const changes = validate(updateSellerSchema, req.body);
    const actor = { sellerId: panelSellerId(res), userId: panelAuth(res).user.id };
    res.json(serializeSeller(await updateSellerProfile(deps, actor, changes)));
  });

  return router;
}

/** Router of `GET /v1/seller` (mounted behind API key authentication). */
export function merchantSellerRouter(deps: AppDeps): Router {
  const router = Router();
  router.get("/", async (_req, res) => {
    res.json(serializeSeller(await findStoreSeller(deps.repos, merchantOf(res).storeId)));
  });
  return router;
}
