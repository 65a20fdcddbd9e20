/**
 * Use cases: turning 2FA on and off, and new backup codes (SPEC `two-factor/enable`, `verify-totp` without a
 * challenge, `disable`, `generate-backup-codes`; DESIGN §3). `enable` stores a pending secret and backup codes; 2FA is
 * on only after the first valid code. Each of these needs the account password; turning 2FA off also needs a live
 * step-up and locks the seller's withdrawals for 24 h (DESIGN §11).
 */
import type { Session, User, Repositories } from "@lm/db";
import { twoFactorChangedMail } from "@lm/mail";
import { randomUUID } from "node:crypto";
import { ApiError } from "../errors";
import { encryptSecret } from "../secret-box";
import { sendMailSafely, type AccountDeps } from "../accounts/account-deps";
import { confirmPassword } from "../accounts/sign-in";
import { generateBackupCodes, hashBackupCode } from "./backup-codes";
import { acceptTotpCode } from "./second-factor";
import { assertStepUp } from "./step-up";
import { generateTotpSecret, totpUri } from "./totp";
import { turnOffTwoFactor } from "./turn-off";
import { lockWithdrawalsOnTwoFactorChange } from "./withdrawal-lock";

/** What `enable` returns, once: the URI for the authenticator app and the backup codes. */
export interface TwoFactorEnrolment {
  totpURI: string;
  backupCodes: string[];
}

function alreadyOn(): ApiError {
  return new ApiError("invalid_state", "Two-factor authentication is already on; disable it first.");
}

async function replaceBackupCodes(
  tx: Repositories,
  encryptionKey: Buffer,
  userId: string,
  now: Date,
): Promise<string[]> {
  const codes = generateBackupCodes();
  await tx.accounts.deleteBackupCodesOfUser(userId);
  await tx.accounts.insertBackupCodes(
    codes.map((code) => ({
      id: randomUUID(),
      user_id: userId,
      code_hash: hashBackupCode(encryptionKey, code),
      created_at: now,
    })),
  );
  return codes;
}

/**
 * Starts enrolment: a new secret (replacing any pending one) and ten backup codes.
 * @throws ApiError `invalid_state` when 2FA is already on (the secret stays as it is); `invalid_credentials` for a
 *   wrong password
 */
export async function enableTwoFactor(
  deps: AccountDeps,
  input: { user: User; password: string },
): Promise<TwoFactorEnrolment> {
  if (input.user.two_factor_enabled_at !== null) throw alreadyOn();
  await confirmPassword(deps, input.user, input.password);
  const now = deps.now();
  const secret = generateTotpSecret();
  const backupCodes = await deps.repos.transaction(async (tx) => {
    const ciphertext = encryptSecret(deps.config.encryptionKey, secret, input.user.id);
    if ((await tx.accounts.setUserPendingTotpSecret(input.user.id, ciphertext)) !== 1) throw alreadyOn();
    return replaceBackupCodes(tx, deps.config.encryptionKey, input.user.id, now);
  });
  return { totpURI: totpUri(secret, input.user.email), backupCodes };
}

/**
 * Completes enrolment with the first valid code and mails a security notice. An enrolment after 2FA was turned off
 * (disabled or recovered) also locks the seller's withdrawals for 24 h and tells every owner; a first one does not.
 * @returns the user with 2FA on
 * @throws ApiError `invalid_state` when 2FA is already on or `enable` was not called; `invalid_mfa_code`
 */
export async function confirmTwoFactor(deps: AccountDeps, input: { user: User; code: unknown }): Promise<User> {
  if (input.user.two_factor_enabled_at !== null) throw alreadyOn();
  if (input.user.totp_secret_ciphertext === null) {
    throw new ApiError("invalid_state", "Start with POST /v1/me/auth/two-factor/enable.");
  }
  await acceptTotpCode(deps.repos, deps.config.encryptionKey, {
    user: input.user,
    code: input.code,
    now: deps.now(),
    completeEnrolment: true,
  });
  if (input.user.two_factor_disabled_at === null) {
    const user = await deps.repos.accounts.getUserById(input.user.id);
    await sendMailSafely(deps, twoFactorChangedMail(user.email, user.name, "enabled"), "2fa enabled");
    return user;
  }
  // Enrolling again after 2FA was turned off: the new authenticator may be an intruder's (DESIGN §11).
  const { user } = await lockWithdrawalsOnTwoFactorChange(deps, "reenrolled", (tx) =>
    tx.accounts.getUserById(input.user.id),
  );
  return user;
}

/**
 * Turns 2FA off (or drops a pending enrolment): every session and trusted device of the user ends. Turning it off
 * also needs a live step-up on `input.session`, so that a session and the password alone cannot remove the second
 * factor, and locks the seller's withdrawals for 24 h with a notice to every owner (DESIGN §11); a pending enrolment,
 * which never protected anything, is dropped with the password alone.
 * @throws ApiError `invalid_state` when 2FA is neither on nor pending; `mfa_required` when it is on and the session
 *   has no live step-up; `invalid_credentials` for a wrong password
 */
export async function disableTwoFactor(
  deps: AccountDeps,
  input: { user: User; session: Session; password: string },
): Promise<void> {
  const { user } = input;
  if (user.two_factor_enabled_at === null && user.totp_secret_ciphertext === null) {
    throw new ApiError("invalid_state", "Two-factor authentication is off.");
  }
  if (user.two_factor_enabled_at === null) {
    await confirmPassword(deps, user, input.password);
    await deps.repos.transaction((tx) => turnOffTwoFactor(tx, user.id, deps.now()));
    return;
  }
  await assertStepUp(deps, { session: input.session, user, kind: "always" });
  await confirmPassword(deps, user, input.password);
  await lockWithdrawalsOnTwoFactorChange(deps, "disabled", async (tx, now) => {
    await turnOffTwoFactor(tx, user.id, now);
    return user;
  });
}

/**
 * Replaces the backup codes; the old ones stop working.
 * @throws ApiError `invalid_state` when 2FA is off; `invalid_credentials` for a wrong password
 */
export async function regenerateBackupCodes(
  deps: AccountDeps,
  input: { user: User; password: string },
): Promise<string[]> {
  if (input.user.two_factor_enabled_at === null)
    throw new ApiError("invalid_state", "Two-factor authentication is off.");
  await confirmPassword(deps, input.user, input.password);
  return deps.repos.transaction((tx) => replaceBackupCodes(tx, deps.config.encryptionKey, input.user.id, deps.now()));
}
