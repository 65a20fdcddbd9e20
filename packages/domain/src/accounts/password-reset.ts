/**
 * Use cases: forgotten password (SPEC `request-password-reset`, `reset-password`; DESIGN §3: 1 h, single use,
 * every session revoked) and an operator's first password, which reuses the same token and route.
 */
import { passwordResetMail } from "@lm/mail";
import { validationFailed } from "../errors";
import { normalizeEmail } from "../email";
import { sendMailSafely, type AccountDeps } from "./account-deps";
import { hashPassword, hashToken, isWellFormedToken } from "./credentials";
import { consumeMailedToken, issueMailedToken, mailedLink } from "./mailed-tokens";
import { revokeAllSessions } from "./sessions";
import { revokeTrustedDevices } from "./trusted-devices";

/** The dashboard's page that mailed reset links open, on `PUBLIC_BASE_URL`; it posts the token to `reset-password`. */
export const RESET_PASSWORD_PAGE = "/dashboard/reset-password";

/**
 * Mails a reset link when an account has this address; does nothing otherwise, so the caller's reply is the same
 * either way. Mail failures are logged, not thrown.
 * @param input.redirectTo - where the panel goes after the reset; already checked against `PANEL_ORIGINS`
 */
export async function requestPasswordReset(
  deps: AccountDeps,
  input: { email: string; redirectTo: string | undefined },
): Promise<void> {
  const now = deps.now();
  const user = await deps.repos.accounts.findUserByEmail(normalizeEmail(input.email));
  if (!user) return;
  const token = await issueMailedToken(deps.repos, { userId: user.id, purpose: "password_reset", now });
  const link = mailedLink(deps.config.publicBaseUrl, RESET_PASSWORD_PAGE, { token, redirectTo: input.redirectTo });
  await sendMailSafely(deps, passwordResetMail(user.email, user.name, link), "password reset");
}

/**
 * Sets a new password with a mailed token, then revokes every session and trusted device of the user. The address
 * counts as verified: the token arrived there.
 * @param input.newPassword - 12 to 128 characters (checked by the route's schema)
 * @throws ApiError `validation_failed` (param `token`) when the token is unknown, used or expired
 */
export async function resetPassword(deps: AccountDeps, input: { token: string; newPassword: string }): Promise<void> {
  const now = deps.now();
  const invalid = () => validationFailed("This reset link is invalid, used or expired.", "token");
  // Checked before the (deliberately slow) hash so that a bad token costs no bcrypt work.
  const pending = isWellFormedToken(input.token)
    ? await deps.repos.accounts.findMailedTokenByHash(hashToken(input.token))
    : null;
  if (!pending || pending.purpose !== "password_reset" || pending.used_at !== null || pending.expires_at <= now) {
    throw invalid();
  }
  const passwordHash = await hashPassword(input.newPassword, deps.config.bcryptCost);
  await deps.repos.transaction(async (tx) => {
    const used = await consumeMailedToken(tx, { token: input.token, purpose: "password_reset", now });
    if (!used) throw invalid();
    const user = await tx.accounts.getUserById(used.user_id);
    await tx.accounts.setUserPassword(user.id, { passwordHash, emailVerifiedAt: user.email_verified_at ?? now });
    await revokeAllSessions(tx, user.id, now);
    await revokeTrustedDevices(tx, user.id, now);
  });
}

/** Life of an operator's password-setup token: long enough to hand over out of band. */
export const PASSWORD_SETUP_TTL_MS = 24 * 3_600_000;

/**
 * Issues a password-setup token for a user who has none yet (`user:create`); `reset-password` accepts it.
 * @returns the token and the panel link that uses it
 */
export async function issuePasswordSetup(
  deps: Pick<AccountDeps, "repos" | "config">,
  input: { userId: string; now: Date },
): Promise<{ token: string; link: string }> {
  const token = await issueMailedToken(deps.repos, {
    userId: input.userId,
    purpose: "password_reset",
    now: input.now,
    ttlMs: PASSWORD_SETUP_TTL_MS,
  });
  return { token, link: mailedLink(deps.config.publicBaseUrl, RESET_PASSWORD_PAGE, { token }) };
}
