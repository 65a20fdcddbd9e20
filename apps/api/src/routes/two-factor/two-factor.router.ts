/**
 * Two-factor authentication (SPEC "Auth and account", DESIGN §3): enrolment (`enable`, then `verify-totp` with a
 * session), the second sign-in factor (`verify-totp` or `verify-backup-code` with the `lm.two_factor` challenge
 * cookie, optionally trusting the device), `disable` (with a live step-up while 2FA is on) and new backup codes.
 */
import { Router, type Request, type Response } from "express";
import {
  ApiError,
  confirmTwoFactor,
  disableTwoFactor,
  enableTwoFactor,
  findChallengeUserId,
  passChallenge,
  regenerateBackupCodes,
  replaceSession,
} from "@lm/domain";
import { type BackupCodes, serializeUser, type Status, type TwoFactorEnrolment, type UserReply } from "@lm/wire";
import type { AppDeps } from "../../deps";
import { authenticatePanel, clientInfo, clientIp, panelAuth, requireSession } from "../../http/auth";
import {
  clearPanelCookie,
  readCookie,
  SESSION_COOKIE,
  setSessionCookie,
  setSignInCookies,
  TRUST_DEVICE_COOKIE,
  TWO_FACTOR_COOKIE,
} from "../../http/cookies";
import { consumeOrReject, endSignInFailureRun, limitSecondFactor, type PanelRateLimits } from "../../http/rate-limit";
import { validate } from "../../http/validate";
import { enableSchema, passwordSchema, verifyBackupCodeSchema, verifyTotpSchema } from "./two-factor.contract";

/** Router of `/v1/me/auth/two-factor/{enable, verify-totp, verify-backup-code, disable, generate-backup-codes}`. */
export function twoFactorRouter(deps: AppDeps, limits: PanelRateLimits): Router {
  const router = Router();
  const session = requireSession(deps);
  const limitUser = (res: Response) => consumeOrReject(limits, [limits.twoFactorPerUser, panelAuth(res).user.id]);
  const limitCode = <T>(userId: string, attempt: () => Promise<T>) => limitSecondFactor(limits, deps, userId, attempt);

  /**
   * Second sign-in factor: closes the challenge of the cookie and signs in. Tries count per address and, across
   * every challenge, per account; passing ends the account's run of failed sign-ins.
   */
  const passSignInChallenge = async (req: Request, res: Response, method: "totp" | "backup") => {
    const body = validate(method === "totp" ? verifyTotpSchema : verifyBackupCodeSchema, req.body);
    const token = readCookie(req, TWO_FACTOR_COOKIE);
    if (token === undefined) throw new ApiError("authentication_required", "Sign in with your password first.");
    await consumeOrReject(limits, [limits.twoFactorChallengePerIp, clientIp(req)]);
    const pass = () =>
      passChallenge(deps, { token, code: body.code, method, trustDevice: body.trustDevice, client: clientInfo(req) });
    const userId = await findChallengeUserId(deps.repos, token, deps.now());
    // An unknown or spent challenge has no account to count against; passChallenge refuses it.
    const passed = userId === null ? await pass() : await limitCode(userId, pass);
    await endSignInFailureRun(limits, passed.user.email);
    setSignInCookies(res, deps.config, passed);
    res.json({ user: serializeUser(passed.user) } satisfies UserReply);
  };

  router.post("/enable", session, async (req, res) => {
    const body = validate(enableSchema, req.body);
    await limitUser(res);
    const enrolment = await enableTwoFactor(deps, { user: panelAuth(res).user, password: body.password });
    res.json({ method: "totp", ...enrolment } satisfies TwoFactorEnrolment);
  });

  router.post("/verify-totp", async (req, res) => {
    if (readCookie(req, TWO_FACTOR_COOKIE) !== undefined) return passSignInChallenge(req, res, "totp");
    const body = validate(verifyTotpSchema, req.body);
    const auth = await authenticatePanel(deps, req, res);
    await limitUser(res);
    const user = await limitCode(auth.user.id, () => confirmTwoFactor(deps, { user: auth.user, code: body.code }));
    setSessionCookie(
      res,
      deps.config,
      await replaceSession(deps.repos, { session: auth.session, client: clientInfo(req), now: deps.now() }),
    );
    res.json({ user: serializeUser(user) } satisfies UserReply);
  });

  router.post("/verify-backup-code", (req, res) => passSignInChallenge(req, res, "backup"));

  router.post("/disable", session, async (req, res) => {
    const { password } = validate(passwordSchema, req.body);
    const { user, session } = panelAuth(res);
    await limitUser(res);
    await limitCode(user.id, () => disableTwoFactor(deps, { user, session, password }));
    clearPanelCookie(res, deps.config, SESSION_COOKIE);
    clearPanelCookie(res, deps.config, TRUST_DEVICE_COOKIE);
    res.json({ status: true } satisfies Status);
  });

  router.post("/generate-backup-codes", session, async (req, res) => {
    const { password } = validate(passwordSchema, req.body);
    await limitUser(res);
    res.json({
      backupCodes: await regenerateBackupCodes(deps, { user: panelAuth(res).user, password }),
    } satisfies BackupCodes);
  });

  return router;
}
