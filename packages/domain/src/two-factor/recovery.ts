/**
 * Lost-2FA recovery (SPEC Authentication 6, DESIGN §3): a seller's owner who lost the authenticator asks with email
 * and password; a single-use link (1 h) is mailed. Following it turns 2FA off, ends every session and trusted device,
 * and blocks the seller's withdrawals for 24 hours (withdrawal-lock.ts), so that a stolen mailbox and password cannot
 * move money at once.
 */
import { twoFactorRecoveryMail } from "@lm/mail";
import { ApiError } from "../errors";
import { normalizeEmail } from "../email";
import { sendMailSafely, type AccountDeps } from "../accounts/account-deps";
import { verifyPassword } from "../accounts/credentials";
import { consumeMailedToken, issueMailedToken, mailedLink } from "../accounts/mailed-tokens";
import { turnOffTwoFactor } from "./turn-off";
import { lockWithdrawalsOnTwoFactorChange } from "./withdrawal-lock";

/** The dashboard's page that recovery links open, on `PUBLIC_BASE_URL`; it posts the token to `recovery/confirm`. */
export const TWO_FACTOR_RECOVERY_PAGE = "/dashboard/two-factor/recovery";

/**
 * Mails a recovery link when the address belongs to a seller's owner with 2FA on and the password is right; does
 * nothing otherwise, after the same bcrypt work, so the caller's reply reveals nothing.
 * @param input.redirectTo - `redirect_to`, already checked against `PANEL_ORIGINS`
 */
export async function requestTwoFactorRecovery(
  deps: AccountDeps,
  input: { email: string; password: string; redirectTo: string | undefined },
): Promise<void> {
  const user = await deps.repos.accounts.findUserByEmail(normalizeEmail(input.email));
  const matches = await verifyPassword(input.password, user?.password_hash ?? null, deps.config.bcryptCost);
  if (!user || !matches || user.role !== "owner" || user.seller_id === null || user.two_factor_enabled_at === null)
    return;
  const token = await issueMailedToken(deps.repos, {
    userId: user.id,
    purpose: "two_factor_recovery",
    now: deps.now(),
  });
  const link = mailedLink(deps.config.publicBaseUrl, TWO_FACTOR_RECOVERY_PAGE, {
    token,
    redirect_to: input.redirectTo,
  });
  await sendMailSafely(deps, twoFactorRecoveryMail(user.email, user.name, link), "2fa recovery");
}

/**
 * Uses a recovery token.
 * @returns when the seller's withdrawals unlock (now + 24 h)
 * @throws ApiError `invalid_mfa_code` for an unknown, used or expired token
 */
export async function confirmTwoFactorRecovery(deps: AccountDeps, token: string): Promise<Date> {
  const { lockedUntil } = await lockWithdrawalsOnTwoFactorChange(deps, "recovered", async (tx, now) => {
    const used = await consumeMailedToken(tx, { token, purpose: "two_factor_recovery", now });
    if (!used) throw new ApiError("invalid_mfa_code", "This recovery link is invalid, used or expired.");
    const owner = await tx.accounts.getUserById(used.user_id);
    await turnOffTwoFactor(tx, owner.id, now);
    return owner;
  });
  return lockedUntil;
}
