/**
 * Checking a second factor (DESIGN §3): a TOTP code, accepted at most once per time step per user, across sign-in,
 * enrolment and step-up; or a backup code, accepted once. Every refusal is 401 `invalid_mfa_code`; a right code used
 * again within its step says so (wait for the next code), since "not valid" sends a person hunting for a clock or
 * secret problem they do not have.
 *
 * Replay protection is one conditional update (`totp_last_used_step < step`): when several requests carry the same
 * code at once, PostgreSQL serialises the row updates and only the first finds the condition true.
 */
import type { User, Repositories } from "@lm/db";
import { ApiError } from "../errors";
import { decryptSecret } from "../secret-box";
import { hashBackupCode, normalizeBackupCode } from "./backup-codes";
import { matchTotpStep } from "./totp";

/** `401 invalid_mfa_code` for a wrong or malformed code (or password, on step-up). */
export function invalidMfaCode(): ApiError {
  return new ApiError("invalid_mfa_code", "The code is not valid.");
}

/** `401 invalid_mfa_code` for a right TOTP code whose time step was already used (a replay, or a double submit). */
export function reusedTotpCode(): ApiError {
  return new ApiError(
    "invalid_mfa_code",
    "This code was already used; wait for the next one in your authenticator app (codes change every 30 seconds).",
  );
}

/** The user's TOTP secret (hex), decrypted with the user id as associated data; null when none is stored. */
export function readTotpSecret(
  encryptionKey: Buffer,
  user: Pick<User, "id" | "totp_secret_ciphertext">,
): string | null {
  return user.totp_secret_ciphertext === null
    ? null
    : decryptSecret(encryptionKey, user.totp_secret_ciphertext, user.id);
}

/**
 * Accepts `code` for `user` at `now` and records its step so that it is never accepted again.
 * @param options.completeEnrolment - also turn 2FA on, in the same update (first `verify-totp` after `enable`)
 * @throws ApiError `invalid_mfa_code` for a malformed or wrong code, or a user without a secret ("The code is not
 *   valid."); for a right code whose step was already used, the same code with its own message ({@link reusedTotpCode})
 */
export async function acceptTotpCode(
  repos: Repositories,
  encryptionKey: Buffer,
  input: { user: User; code: unknown; now: Date; completeEnrolment?: boolean },
): Promise<void> {
  const secret = readTotpSecret(encryptionKey, input.user);
  const step = secret === null ? null : matchTotpStep(secret, input.code, input.now);
  if (step === null) throw invalidMfaCode();
  const lastUsed = input.user.totp_last_used_step;
  if (lastUsed !== null && step <= lastUsed) throw reusedTotpCode();
  const recorded = await repos.accounts.recordUserTotpStep({
    userId: input.user.id,
    // The secret the code was checked against must still be the user's (not disabled or replaced meanwhile).
    secretCiphertext: input.user.totp_secret_ciphertext,
    step,
    ...(input.completeEnrolment ? { enabledAt: input.now } : {}),
  });
  // Refused by the row: a concurrent request recorded this step first (the usual case), or the secret was replaced.
  if (recorded !== 1) throw reusedTotpCode();
}

/**
 * Uses one of the user's backup codes.
 * @throws ApiError `invalid_mfa_code` for a malformed, unknown or already used code
 */
export async function acceptBackupCode(
  repos: Repositories,
  encryptionKey: Buffer,
  input: { userId: string; code: unknown; now: Date },
): Promise<void> {
  const code = normalizeBackupCode(input.code);
  if (code === null) throw invalidMfaCode();
  const used = await repos.accounts.useBackupCode({
    userId: input.userId,
    codeHash: hashBackupCode(encryptionKey, code),
    now: input.now,
  });
  if (used !== 1) throw invalidMfaCode();
}
