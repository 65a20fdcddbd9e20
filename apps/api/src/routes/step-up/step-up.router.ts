/**
 * Step-up and the seller's step-up toggles (SPEC `POST /v1/me/auth/step-up`, `GET|PUT /v1/me/security/step-up-prefs`,
 * DESIGN §3). Changing the toggles always needs a live step-up; they belong to the seller, so operators have none
 * (403 `permission_denied`).
 */
import { Router } from "express";
import { getStepUpPrefs, setStepUpPrefs, stepUp } from "@lm/domain";
import type { StepUpResult } from "@lm/wire";
import type { AppDeps } from "../../deps";
import { panelAuth, panelSellerId, requireStepUp } from "../../http/auth";
import { limitSecondFactor, type PanelRateLimits } from "../../http/rate-limit";
import { validate } from "../../http/validate";
import { stepUpPrefsSchema, stepUpSchema } from "../two-factor/two-factor.contract";

/** Router of `POST /v1/me/auth/step-up` (mounted behind the panel session). */
export function stepUpRouter(deps: AppDeps, limits: PanelRateLimits): Router {
  const router = Router();

  router.post("/", async (req, res) => {
    const body = validate(stepUpSchema, req.body);
    const { session: current, user } = panelAuth(res);
    const until = await limitSecondFactor(limits, deps, user.id, () =>
      stepUp(deps, { session: current, user, code: body.code, password: body.password }),
    );
    res.json({ mfa_verified_until: until.toISOString() } satisfies StepUpResult);
  });

  return router;
}

/** Router of `GET|PUT /v1/me/security/step-up-prefs` (mounted behind the panel session). */
export function stepUpPrefsRouter(deps: AppDeps): Router {
  const router = Router();

  router.get("/", async (_req, res) => {
    res.json(await getStepUpPrefs(deps.repos, panelSellerId(res)));
  });

  router.put("/", requireStepUp(deps, "always"), async (req, res) => {
    const changes = validate(stepUpPrefsSchema, req.body);
    res.json(await setStepUpPrefs(deps.repos, panelSellerId(res), changes));
  });

  return router;
}
