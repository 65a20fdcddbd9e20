/**
 * The routes behind mailed links (DESIGN §3 "Tokens sent by mail"): email verification and password reset.
 * `callbackURL` and `redirectTo` are accepted only on `PANEL_ORIGINS`; links are built on `PUBLIC_BASE_URL`.
 */
import { Router } from "express";
import { requestPasswordReset, resetPassword, verifyEmail } from "@lm/domain";
import type { Status } from "@lm/wire";
import type { AppDeps } from "../../deps";
import { clearPanelCookie, SESSION_COOKIE } from "../../http/cookies";
import { assertPanelUrl } from "../../http/csrf";
import { afterReply } from "../../http/after-reply";
import { emailKey, tryConsume, type PanelRateLimits } from "../../http/rate-limit";
import { validate } from "../../http/validate";
import { requestPasswordResetSchema, resetPasswordSchema, verifyEmailQuery } from "./auth.contract";

/** Router of `/v1/me/auth/{verify-email, request-password-reset, reset-password}`. */
export function accountLinksRouter(deps: AppDeps, limits: PanelRateLimits): Router {
  const router = Router();

  router.get("/verify-email", async (req, res) => {
    const query = validate(verifyEmailQuery, req.query);
    assertPanelUrl(deps.config, query.callbackURL, "callbackURL");
    await verifyEmail(deps, query.token);
    res.json({ status: true } satisfies Status);
  });

  router.post("/request-password-reset", async (req, res) => {
    const body = validate(requestPasswordResetSchema, req.body);
    assertPanelUrl(deps.config, body.redirectTo, "redirectTo");
    if (await tryConsume(limits, limits.resetMailPerEmail, emailKey(body.email))) {
      afterReply(deps.logger, "password reset request", () =>
        requestPasswordReset(deps, { email: body.email, redirectTo: body.redirectTo }),
      );
    }
    res.json({ status: true } satisfies Status);
  });

  router.post("/reset-password", async (req, res) => {
    const body = validate(resetPasswordSchema, req.body);
    await resetPassword(deps, body);
    clearPanelCookie(res, deps.config, SESSION_COOKIE);
    res.json({ status: true } satisfies Status);
  });

  return router;
}
