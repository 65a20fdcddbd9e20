/**
 * Step-up and the seller's step-up toggles (SPEC `POST /v1/me/auth/step-up`, `GET|PUT /v1/me/security/step-up-prefs`,
 * DESIGN §3). Changing the toggles always needs a live step-up; they belong to the seller, so operators have none
 * (403 `permission_denied`).
 */
import { Router, type Response } from "express";
import { ApiError, getStepUpPrefs, setStepUpPrefs, stepUp } from "@lm/domain";
import type { AppDeps } from "../../deps";
import { panelAuth, requireSession, requireStepUp } from "../../http/auth";
import { consumeOrReject, type PanelRateLimits } from "../../http/rate-limit";
import { validate } from "../../http/validate";
import { stepUpPrefsSchema, stepUpSchema } from "../two-factor/two-factor.schemas";

/**
 * The seller of the signed-in user.
 * @throws ApiError `permission_denied` for an operator (no seller, no toggles)
 */
function sellerOf(res: Response): string {
  const sellerId = panelAuth(res).user.seller_id;
  if (sellerId === null) throw new ApiError("permission_denied", "Step-up preferences belong to a seller's account.");
  return sellerId;
}

/** Router of `/v1/me/auth/step-up` and `/v1/me/security/step-up-prefs`. */
export function stepUpRouter(deps: AppDeps, limits: PanelRateLimits): Router {
  const router = Router();
  const session = requireSession(deps);

  router.post("/v1/me/auth/step-up", session, async (req, res) => {
    const body = validate(stepUpSchema, req.body);
    const { session: current, user } = panelAuth(res);
    await consumeOrReject(limits, [limits.stepUpPerUser, user.id]);
    const until = await stepUp(deps, { session: current, user, code: body.code, password: body.password });
    res.json({ mfa_verified_until: until.toISOString() });
  });

  router.get("/v1/me/security/step-up-prefs", session, async (_req, res) => {
    res.json(await getStepUpPrefs(deps.db, sellerOf(res)));
  });

  router.put("/v1/me/security/step-up-prefs", session, requireStepUp(deps, "always"), async (req, res) => {
    const changes = validate(stepUpPrefsSchema, req.body);
    res.json(await setStepUpPrefs(deps.db, sellerOf(res), changes));
  });

  return router;
}
