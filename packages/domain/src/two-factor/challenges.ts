/**
 * The second step of a sign-in with 2FA on (DESIGN §3): the password opens a challenge (cookie `lm.two_factor`,
 * 10 minutes, 5 tries) and a TOTP or backup code closes it with a new session, optionally trusting the device.
 * Each try is reserved with one conditional update before the code is checked, so that concurrent guesses cannot
 * exceed five; the fifth wrong code burns the challenge.
 */
import type { User, Repositories } from "@lm/db";
import { randomUUID } from "node:crypto";
import { ApiError } from "../errors";
import type { AccountDeps } from "../accounts/account-deps";
import { generateToken, hashToken, isWellFormedToken } from "../accounts/credentials";
import { createSession, type ClientInfo, type IssuedSession } from "../accounts/sessions";
import { trustDevice, type IssuedTrustedDevice } from "../accounts/trusted-devices";
import { acceptBackupCode, acceptTotpCode } from "./second-factor";

/** Life of a challenge. */
export const CHALLENGE_TTL_MS = 10 * 60_000;
/** Codes a challenge accepts before it is burned. */
export const CHALLENGE_MAX_ATTEMPTS = 5;

/** A challenge token for the cookie, and its end. */
export interface IssuedChallenge {
  token: string;
  expiresAt: Date;
}

/**
 * Opens a challenge for a user whose password was right.
 * @param input.persistent - `rememberMe` of the sign-in, applied to the session the challenge ends in
 */
export async function createChallenge(
  repos: Repositories,
  input: { userId: string; persistent: boolean; now: Date },
): Promise<IssuedChallenge> {
  const { token, hash } = generateToken();
  const expiresAt = new Date(input.now.getTime() + CHALLENGE_TTL_MS);
  await repos.accounts.insertTwoFactorChallenge({
    id: randomUUID(),
    token_hash: hash,
    user_id: input.userId,
    persistent: input.persistent,
    created_at: input.now,
    expires_at: expiresAt,
  });
  return { token, expiresAt };
}

/** A completed sign-in: the user, a new session and, when asked for, a trusted-device token. */
export interface PassedChallenge {
  user: User;
  session: IssuedSession;
  trustedDevice: IssuedTrustedDevice | null;
}

/**
 * The user a live challenge belongs to, without spending one of its tries: the second-factor limits are counted per
 * user (DESIGN §3) before the code is checked.
 * @returns the user id, or null for a malformed, unknown, expired, used or burned challenge token
 */
export async function findChallengeUserId(repos: Repositories, token: string, now: Date): Promise<string | null> {
  if (!isWellFormedToken(token)) return null;
  return repos.accounts.findLiveTwoFactorChallengeUserId({
    tokenHash: hashToken(token),
    now,
    maxAttempts: CHALLENGE_MAX_ATTEMPTS,
  });
}

function challengeOver(): ApiError {
  return new ApiError("authentication_required", "The sign-in challenge is over; sign in again.");
}

/**
 * Closes the challenge of `token` with a second factor.
 * @param input.method - `totp` (`verify-totp`) or `backup` (`verify-backup-code`)
 * @throws ApiError `authentication_required` when the challenge is unknown, expired, used or burned;
 *   `invalid_mfa_code` for a wrong, malformed or replayed code (the try counts)
 */
export async function passChallenge(
  deps: AccountDeps,
  input: { token: string; code: unknown; method: "totp" | "backup"; trustDevice: boolean; client: ClientInfo },
): Promise<PassedChallenge> {
  const now = deps.now();
  if (!isWellFormedToken(input.token)) throw challengeOver();
  const challenge = await deps.repos.accounts.reserveTwoFactorChallengeAttempt({
    tokenHash: hashToken(input.token),
    now,
    maxAttempts: CHALLENGE_MAX_ATTEMPTS,
  });
  if (!challenge) throw challengeOver();
  const user = await deps.repos.accounts.getUserById(challenge.user_id);
  if (user.two_factor_enabled_at === null) throw challengeOver();
  try {
    if (input.method === "totp")
      await acceptTotpCode(deps.repos, deps.config.encryptionKey, { user, code: input.code, now });
    else await acceptBackupCode(deps.repos, deps.config.encryptionKey, { userId: user.id, code: input.code, now });
  } catch (err) {
    if (challenge.attempts >= CHALLENGE_MAX_ATTEMPTS) {
      await deps.repos.accounts.consumeTwoFactorChallenge(challenge.id, now);
    }
    throw err;
  }
  return deps.repos.transaction(async (tx) => {
    if ((await tx.accounts.consumeTwoFactorChallenge(challenge.id, now)) !== 1) throw challengeOver();
    const session = await createSession(tx, {
      userId: user.id,
      persistent: challenge.persistent,
      client: input.client,
      now,
    });
    const trustedDevice = input.trustDevice ? await trustDevice(tx, { userId: user.id, now }) : null;
    return { user, session, trustedDevice };
  });
}
