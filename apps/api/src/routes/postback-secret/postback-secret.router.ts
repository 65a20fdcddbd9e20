/**
 * The store postback secret in the panel (SPEC `GET /v1/me/postback-secret`, `POST /v1/me/postback-secret/rotate`;
 * DESIGN §3-4): its info, never the secret; rotation returns the new secret once and needs a step-up while the
 * seller's `account` toggle is on. Owners only.
 */
import { Router } from "express";
import { getPostbackSecretInfo, rotatePostbackSecret } from "@lm/domain";
import { type RotatedPostbackSecret, serializePostbackSecretInfo } from "@lm/wire";
import type { AppDeps } from "../../deps";
import { panelActor, requireStepUp } from "../../http/auth";
import { withRequestLogger } from "../../http/request-log";

/** Router of `/v1/me/postback-secret`. */
export function postbackSecretRouter(deps: AppDeps): Router {
  const router = Router();

  router.get("/", async (_req, res) => {
    const actor = await panelActor(deps, res);
    res.json(serializePostbackSecretInfo(await getPostbackSecretInfo(deps.repos, actor.storeId)));
  });

  router.post("/rotate", requireStepUp(deps, "account"), async (_req, res) => {
    const rotated = await rotatePostbackSecret(withRequestLogger(deps, res), await panelActor(deps, res));
    res.json({ secret: rotated.secret, ...serializePostbackSecretInfo(rotated.info) } satisfies RotatedPostbackSecret);
  });

  return router;
}
