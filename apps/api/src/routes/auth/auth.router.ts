/**
 * Sign-up, sign-in (with the 2FA challenge when it is on), sign-out and the invite look-up (SPEC "Auth and
 * account", DESIGN §3).
 */
import { Router } from "express";
import { findActiveInvite, signIn, signUp, endSession, dummyPasswordHash } from "@lm/domain";
import { type InviteCheck, serializeUser, type Status, type TwoFactorRedirect, type UserReply } from "@lm/wire";
import type { AppDeps } from "../../deps";
import { clientInfo, clientIp } from "../../http/auth";
import {
  clearPanelCookie,
  readCookie,
  SESSION_COOKIE,
  setChallengeCookie,
  setSessionCookie,
  setSignInCookies,
  TRUST_DEVICE_COOKIE,
} from "../../http/cookies";
import { consumeOrReject, limitSignIn, type PanelRateLimits } from "../../http/rate-limit";
import { validate } from "../../http/validate";
import { inviteParams, signInSchema, signUpSchema } from "./auth.contract";

/** Router of `/v1/me/auth/{sign-up/email, sign-in/email, sign-out, invites/{token}}`. */
export function authRouter(deps: AppDeps, limits: PanelRateLimits): Router {
  const router = Router();
  // Made now, so the first unknown-address sign-in is not slower than a wrong password.
  void dummyPasswordHash(deps.config.bcryptCost);

  router.post("/sign-up/email", async (req, res) => {
    const body = validate(signUpSchema, req.body);
    const { user, session } = await signUp(deps, {
      name: body.name,
      email: body.email,
      password: body.password,
      inviteToken: body.invite_token,
      client: clientInfo(req),
    });
    setSessionCookie(res, deps.config, session);
    res.json({ user: serializeUser(user) } satisfies UserReply);
  });

  router.post("/sign-in/email", async (req, res) => {
    const body = validate(signInSchema, req.body);
    const trustedDeviceToken = readCookie(req, TRUST_DEVICE_COOKIE);
    const outcome = await limitSignIn(
      limits,
      { ip: clientIp(req), email: body.email },
      () => signIn(deps, { ...body, client: clientInfo(req), trustedDeviceToken }),
      (result) => result.kind !== "two_factor",
    );
    if (outcome.kind === "two_factor") {
      setChallengeCookie(res, deps.config, outcome.challenge);
      res.json({ twoFactorRedirect: true } satisfies TwoFactorRedirect);
      return;
    }
    setSignInCookies(res, deps.config, outcome);
    res.json({ user: serializeUser(outcome.user) } satisfies UserReply);
  });

  router.post("/sign-out", async (req, res) => {
    const token = readCookie(req, SESSION_COOKIE);
    if (token !== undefined) await endSession(deps.repos, token, deps.now());
    clearPanelCookie(res, deps.config, SESSION_COOKIE);
    res.json({ status: true } satisfies Status);
  });

  router.get("/invites/:token", async (req, res) => {
    const { token } = validate(inviteParams, req.params);
    await consumeOrReject(limits, [limits.inviteLookupPerIp, clientIp(req)]);
    const invite = await findActiveInvite(deps.repos, token, deps.now());
    res.json({ email: invite.email, expires_at: invite.expires_at.toISOString() } satisfies InviteCheck);
  });

  return router;
}
