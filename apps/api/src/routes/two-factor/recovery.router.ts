/**
 * Lost-2FA recovery (SPEC `two-factor/recovery/request` and `/confirm`, Authentication 6): the request answers 200
 * whatever the account (its work runs after the reply); the mailed token turns 2FA off and locks withdrawals 24 h.
 */
import { Router } from "express";
import { confirmTwoFactorRecovery, requestTwoFactorRecovery } from "@lm/domain";
import type { RecoveryConfirmed, Status } from "@lm/wire";
import type { AppDeps } from "../../deps";
import { afterReply } from "../../http/after-reply";
import { clientIp } from "../../http/auth";
import { clearPanelCookie, SESSION_COOKIE, TRUST_DEVICE_COOKIE } from "../../http/cookies";
import { assertPanelUrl } from "../../http/csrf";
import { consumeOrReject, emailKey, type PanelRateLimits } from "../../http/rate-limit";
import { validate } from "../../http/validate";
import { recoveryConfirmSchema, recoveryRequestSchema } from "./two-factor.contract";

/** Router of `/v1/me/auth/two-factor/recovery/{request, confirm}`. */
export function recoveryRouter(deps: AppDeps, limits: PanelRateLimits): Router {
  const router = Router();

  router.post("/request", async (req, res) => {
    const body = validate(recoveryRequestSchema, req.body);
    assertPanelUrl(deps.config, body.redirect_to, "redirect_to");
    await consumeOrReject(
      limits,
      [limits.recoveryPerIp, clientIp(req)],
      [limits.recoveryPerEmail, emailKey(body.email)],
    );
    afterReply(deps.logger, "2fa recovery request", () =>
      requestTwoFactorRecovery(deps, { email: body.email, password: body.password, redirectTo: body.redirect_to }),
    );
    res.json({ status: true } satisfies Status);
  });

  router.post("/confirm", async (req, res) => {
    const { token } = validate(recoveryConfirmSchema, req.body);
    const lockedUntil = await confirmTwoFactorRecovery(deps, token);
    clearPanelCookie(res, deps.config, SESSION_COOKIE);
    clearPanelCookie(res, deps.config, TRUST_DEVICE_COOKIE);
    res.json({ withdrawals_locked_until: lockedUntil.toISOString() } satisfies RecoveryConfirmed);
  });

  return router;
}
