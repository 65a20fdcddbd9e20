/**
 * The panel's accounts: users, their sessions, invites, mailed single-use tokens, trusted devices and the second
 * factor (sign-in challenges, backup codes, the TOTP secret and its last used step). Tokens of every kind are looked
 * up by their SHA-256 (hex) only; the tokens themselves are never stored.
 *
 * The conditional updates here are the concurrency rules of DESIGN §3: a token, an invite, a challenge try or a code
 * is used by one UPDATE whose `WHERE` holds only while it is still usable, so of two concurrent uses only one changes
 * a row, and the caller reads the count (or rows) to learn whether it was the one.
 */
import { onPrisma, type Connection } from "../connection";
import type { DbClient } from "../client";
import type {
  Invite,
  MailedToken,
  MailedTokenPurpose,
  Prisma,
  Session,
  TrustedDevice,
  TwoFactorChallenge,
  User,
} from "../generated/client";

// ---------------------------------------------------------------------------------------------------------------
// Users

/**
 * Inserts a user (an invited owner, an operator).
 * @returns the stored row
 * @throws Prisma P2002 (see `isUniqueViolation(err, "email")`) when an account has that address
 */
export function insertUser(db: DbClient, data: Prisma.UserUncheckedCreateInput): Promise<User> {
  return db.user.create({ data });
}

/** The user with address `email` (already normalised), or null. */
export function findUserByEmail(db: DbClient, email: string): Promise<User | null> {
  return db.user.findUnique({ where: { email } });
}

/** The owners (role `owner`) of seller `sellerId`, in no particular order. */
export function listOwnersOfSeller(db: DbClient, sellerId: string): Promise<User[]> {
  return db.user.findMany({ where: { seller_id: sellerId, role: "owner" } });
}

/** User `userId`, or null. */
export function findUserById(db: DbClient, userId: string): Promise<User | null> {
  return db.user.findUnique({ where: { id: userId } });
}

/**
 * User `userId`, for a caller that holds a reference to it (a token, a challenge, a session).
 * @throws Prisma P2025 (`isRecordNotFound`) when it does not exist
 */
export function getUserById(db: DbClient, userId: string): Promise<User> {
  return db.user.findUniqueOrThrow({ where: { id: userId } });
}

/** Marks the user's address verified at `now`, unless it already was (the first verification time stays). */
export async function markUserEmailVerified(db: DbClient, userId: string, now: Date): Promise<void> {
  await db.user.updateMany({ where: { id: userId, email_verified_at: null }, data: { email_verified_at: now } });
}

/**
 * Records that the user accepted terms `version` at `acceptedAt`.
 * @throws Prisma P2025 when the user does not exist
 */
export async function recordUserTermsAccepted(
  db: DbClient,
  userId: string,
  version: string,
  acceptedAt: Date,
): Promise<void> {
  await db.user.update({ where: { id: userId }, data: { terms_version: version, terms_accepted_at: acceptedAt } });
}

/**
 * Sets the user's password hash (bcrypt) and when the address was verified.
 * @throws Prisma P2025 when the user does not exist
 */
export async function setUserPassword(
  db: DbClient,
  userId: string,
  input: { passwordHash: string; emailVerifiedAt: Date },
): Promise<void> {
  await db.user.update({
    where: { id: userId },
    data: { password_hash: input.passwordHash, email_verified_at: input.emailVerifiedAt },
  });
}

/**
 * Stores a pending TOTP secret (encrypted) for a user whose 2FA is not on, forgetting the last used step.
 * @returns 1 when stored, 0 when 2FA is already on (or the user does not exist)
 */
export async function setUserPendingTotpSecret(db: DbClient, userId: string, ciphertext: string): Promise<number> {
  const pending = await db.user.updateMany({
    where: { id: userId, two_factor_enabled_at: null },
    // A new secret starts a new sequence of steps.
    data: { totp_secret_ciphertext: ciphertext, totp_last_used_step: null },
  });
  return pending.count;
}

/**
 * Records TOTP step `step` as the user's last used one, only while it is later than the last recorded, the user's
 * secret is still `secretCiphertext` and 2FA is on (or, with `enabledAt`, still pending: then it is turned on at
 * `enabledAt` in the same update). PostgreSQL serialises concurrent updates of the row, so of several requests
 * carrying one code only the first finds the condition true.
 * @returns 1 when recorded, 0 when the code was replayed or the secret or 2FA state changed meanwhile
 */
export async function recordUserTotpStep(
  db: DbClient,
  input: { userId: string; secretCiphertext: string | null; step: number; enabledAt?: Date },
): Promise<number> {
  const recorded = await db.user.updateMany({
    where: {
      id: input.userId,
      // The secret the code was checked against must still be the user's (not disabled or replaced meanwhile).
      totp_secret_ciphertext: input.secretCiphertext,
      two_factor_enabled_at: input.enabledAt ? null : { not: null },
      OR: [{ totp_last_used_step: null }, { totp_last_used_step: { lt: input.step } }],
    },
    data: { totp_last_used_step: input.step, ...(input.enabledAt ? { two_factor_enabled_at: input.enabledAt } : {}) },
  });
  return recorded.count;
}

/** Records that user `userId`'s 2FA was turned off at `now` (disabled or recovered; a dropped enrolment is not). */
export async function markUserTwoFactorDisabled(db: DbClient, userId: string, now: Date): Promise<void> {
  await db.user.update({ where: { id: userId }, data: { two_factor_disabled_at: now } });
}

/**
 * Forgets the user's TOTP secret and turns 2FA off.
 * @throws Prisma P2025 when the user does not exist
 */
export async function clearUserTwoFactor(db: DbClient, userId: string): Promise<void> {
  await db.user.update({ where: { id: userId }, data: { totp_secret_ciphertext: null, two_factor_enabled_at: null } });
}

// ---------------------------------------------------------------------------------------------------------------
// Sessions

/** Inserts a session and returns the stored row. */
export function insertSession(db: DbClient, data: Prisma.SessionUncheckedCreateInput): Promise<Session> {
  return db.session.create({ data });
}

/** The session whose token has SHA-256 `tokenHash`, with its user, whatever its state; null when unknown. */
export function findSessionWithUserByTokenHash(
  db: DbClient,
  tokenHash: string,
): Promise<(Session & { user: User }) | null> {
  return db.session.findUnique({ where: { token_hash: tokenHash }, include: { user: true } });
}

/**
 * Records a use of session `sessionId` at `lastSeenAt` and moves its sliding end to `expiresAt`.
 * @returns the session after the change
 * @throws Prisma P2025 when it does not exist
 */
export function touchSession(
  db: DbClient,
  sessionId: string,
  input: { lastSeenAt: Date; expiresAt: Date },
): Promise<Session> {
  return db.session.update({
    where: { id: sessionId },
    data: { last_seen_at: input.lastSeenAt, expires_at: input.expiresAt },
  });
}

/** The user's sessions that are neither revoked nor expired at `now`, newest first. */
export function listLiveSessionsOfUser(db: DbClient, userId: string, now: Date): Promise<Session[]> {
  return db.session.findMany({
    where: { user_id: userId, revoked_at: null, expires_at: { gt: now } },
    orderBy: { created_at: "desc" },
  });
}

/**
 * Revokes session `sessionId` of user `userId` at `now` while it is live.
 * @returns 1 when revoked, 0 when it is unknown, another user's, or already ended
 */
export async function revokeLiveSessionOfUser(
  db: DbClient,
  input: { sessionId: string; userId: string; now: Date },
): Promise<number> {
  const revoked = await db.session.updateMany({
    where: { id: input.sessionId, user_id: input.userId, revoked_at: null, expires_at: { gt: input.now } },
    data: { revoked_at: input.now },
  });
  return revoked.count;
}

/** Revokes, at `now`, every session of the user not revoked yet. */
export async function revokeSessionsOfUser(db: DbClient, userId: string, now: Date): Promise<void> {
  await db.session.updateMany({ where: { user_id: userId, revoked_at: null }, data: { revoked_at: now } });
}

/** Revokes, at `now`, the session whose token has SHA-256 `tokenHash`, unless unknown or already revoked. */
export async function revokeSessionByTokenHash(db: DbClient, tokenHash: string, now: Date): Promise<void> {
  await db.session.updateMany({ where: { token_hash: tokenHash, revoked_at: null }, data: { revoked_at: now } });
}

/**
 * Revokes session `sessionId` at `now`.
 * @throws Prisma P2025 when it does not exist
 */
export async function revokeSessionById(db: DbClient, sessionId: string, now: Date): Promise<void> {
  await db.session.update({ where: { id: sessionId }, data: { revoked_at: now } });
}

/**
 * Makes session `sessionId` stepped up (sensitive actions allowed) until `until`.
 * @throws Prisma P2025 when it does not exist
 */
export async function setSessionStepUpUntil(db: DbClient, sessionId: string, until: Date): Promise<void> {
  await db.session.update({ where: { id: sessionId }, data: { mfa_verified_until: until } });
}

// ---------------------------------------------------------------------------------------------------------------
// Invites

/** Inserts an invite and returns the stored row. */
export function insertInvite(db: DbClient, data: Prisma.InviteUncheckedCreateInput): Promise<Invite> {
  return db.invite.create({ data });
}

/** The invite whose token has SHA-256 `tokenHash`, whatever its state; null when unknown. */
export function findInviteByTokenHash(db: DbClient, tokenHash: string): Promise<Invite | null> {
  return db.invite.findUnique({ where: { token_hash: tokenHash } });
}

/**
 * Marks invite `inviteId` used at `now` while it is unused, unrevoked and unexpired.
 * @returns 1 when claimed, 0 when it is no longer active (another request may have claimed it first)
 */
export async function claimActiveInvite(db: DbClient, inviteId: string, now: Date): Promise<number> {
  const claimed = await db.invite.updateMany({
    where: { id: inviteId, used_at: null, revoked_at: null, expires_at: { gt: now } },
    data: { used_at: now },
  });
  return claimed.count;
}

// ---------------------------------------------------------------------------------------------------------------
// Mailed tokens

/** Inserts a mailed token (email verification, password reset or setup, 2FA recovery). */
export async function insertMailedToken(db: DbClient, data: Prisma.MailedTokenUncheckedCreateInput): Promise<void> {
  await db.mailedToken.create({ data });
}

/** The mailed token whose SHA-256 is `tokenHash`, whatever its purpose and state; null when unknown. */
export function findMailedTokenByHash(db: DbClient, tokenHash: string): Promise<MailedToken | null> {
  return db.mailedToken.findUnique({ where: { token_hash: tokenHash } });
}

/**
 * Marks the mailed token whose SHA-256 is `tokenHash` used at `now` while it is of `purpose`, unused and unexpired.
 * @returns 1 when used now, 0 otherwise (unknown, another purpose, used or expired: all alike to the caller)
 */
export async function useMailedToken(
  db: DbClient,
  input: { tokenHash: string; purpose: MailedTokenPurpose; now: Date },
): Promise<number> {
  const used = await db.mailedToken.updateMany({
    where: { token_hash: input.tokenHash, purpose: input.purpose, used_at: null, expires_at: { gt: input.now } },
    data: { used_at: input.now },
  });
  return used.count;
}

// ---------------------------------------------------------------------------------------------------------------
// Trusted devices

/** Inserts a trusted device. */
export async function insertTrustedDevice(db: DbClient, data: Prisma.TrustedDeviceUncheckedCreateInput): Promise<void> {
  await db.trustedDevice.create({ data });
}

/**
 * Replaces the token of user `userId`'s live trusted device whose token has SHA-256 `oldHash` by `newHash`, and
 * records its use at `now` (the end of trust stays).
 * @returns the device after the change, or undefined when no live device of this user has that token
 */
export async function rotateLiveTrustedDevice(
  db: DbClient,
  input: { userId: string; oldHash: string; newHash: string; now: Date },
): Promise<TrustedDevice | undefined> {
  const rotated = await db.trustedDevice.updateManyAndReturn({
    where: { token_hash: input.oldHash, user_id: input.userId, revoked_at: null, expires_at: { gt: input.now } },
    data: { token_hash: input.newHash, last_used_at: input.now },
  });
  return rotated[0];
}

/** Revokes, at `now`, every trusted device of the user not revoked yet. */
export async function revokeTrustedDevicesOfUser(db: DbClient, userId: string, now: Date): Promise<void> {
  await db.trustedDevice.updateMany({ where: { user_id: userId, revoked_at: null }, data: { revoked_at: now } });
}

// ---------------------------------------------------------------------------------------------------------------
// Two-factor sign-in challenges

/** Inserts a sign-in challenge. */
export async function insertTwoFactorChallenge(
  db: DbClient,
  data: Prisma.TwoFactorChallengeUncheckedCreateInput,
): Promise<void> {
  await db.twoFactorChallenge.create({ data });
}

/**
 * The user id of the live challenge whose token has SHA-256 `tokenHash`: unconsumed, unexpired at `now` and with
 * fewer than `maxAttempts` tries; reads only (spends no try).
 * @returns the user id, or null
 */
export async function findLiveTwoFactorChallengeUserId(
  db: DbClient,
  input: { tokenHash: string; now: Date; maxAttempts: number },
): Promise<string | null> {
  const challenge = await db.twoFactorChallenge.findFirst({
    where: {
      token_hash: input.tokenHash,
      consumed_at: null,
      expires_at: { gt: input.now },
      attempts: { lt: input.maxAttempts },
    },
    select: { user_id: true },
  });
  return challenge?.user_id ?? null;
}

/**
 * Reserves one try of the live challenge whose token has SHA-256 `tokenHash` (see
 * {@link findLiveTwoFactorChallengeUserId} for live): one conditional increment, so that concurrent guesses cannot
 * exceed `maxAttempts`.
 * @returns the challenge after the increment (`attempts` counts this try), or undefined when it is not live
 */
export async function reserveTwoFactorChallengeAttempt(
  db: DbClient,
  input: { tokenHash: string; now: Date; maxAttempts: number },
): Promise<TwoFactorChallenge | undefined> {
  const [challenge] = await db.twoFactorChallenge.updateManyAndReturn({
    where: {
      token_hash: input.tokenHash,
      consumed_at: null,
      expires_at: { gt: input.now },
      attempts: { lt: input.maxAttempts },
    },
    data: { attempts: { increment: 1 } },
  });
  return challenge;
}

/**
 * Consumes challenge `challengeId` at `now` unless it already was.
 * @returns 1 when consumed now, 0 when it already was
 */
export async function consumeTwoFactorChallenge(db: DbClient, challengeId: string, now: Date): Promise<number> {
  const closed = await db.twoFactorChallenge.updateMany({
    where: { id: challengeId, consumed_at: null },
    data: { consumed_at: now },
  });
  return closed.count;
}

/** Consumes, at `now`, every open challenge of the user (2FA turned off: no challenge may end in a session). */
export async function consumeTwoFactorChallengesOfUser(db: DbClient, userId: string, now: Date): Promise<void> {
  await db.twoFactorChallenge.updateMany({ where: { user_id: userId, consumed_at: null }, data: { consumed_at: now } });
}

// ---------------------------------------------------------------------------------------------------------------
// Backup codes

/** Deletes every backup code of the user, used or not. */
export async function deleteBackupCodesOfUser(db: DbClient, userId: string): Promise<void> {
  await db.backupCode.deleteMany({ where: { user_id: userId } });
}

/** Inserts backup codes (keyed hashes, never the codes). */
export async function insertBackupCodes(db: DbClient, rows: Prisma.BackupCodeCreateManyInput[]): Promise<void> {
  await db.backupCode.createMany({ data: rows });
}

/**
 * Marks the user's unused backup code whose keyed hash is `codeHash` used at `now`.
 * @returns 1 when used now, 0 when unknown or already used
 */
export async function useBackupCode(
  db: DbClient,
  input: { userId: string; codeHash: string; now: Date },
): Promise<number> {
  const used = await db.backupCode.updateMany({
    where: { user_id: input.userId, code_hash: input.codeHash, used_at: null },
    data: { used_at: input.now },
  });
  return used.count;
}

/** This repository bound to connection `c` (`createRepositories`): each function without its client. */
export function accountsRepository(c: Connection) {
  return {
    ...onPrisma(c, {
      insertUser,
      findUserByEmail,
      listOwnersOfSeller,
      findUserById,
      getUserById,
      markUserEmailVerified,
      recordUserTermsAccepted,
      setUserPassword,
      setUserPendingTotpSecret,
      recordUserTotpStep,
      markUserTwoFactorDisabled,
      clearUserTwoFactor,
      insertSession,
      findSessionWithUserByTokenHash,
      touchSession,
      listLiveSessionsOfUser,
      revokeLiveSessionOfUser,
      revokeSessionsOfUser,
      revokeSessionByTokenHash,
      revokeSessionById,
      setSessionStepUpUntil,
      insertInvite,
      findInviteByTokenHash,
      claimActiveInvite,
      insertMailedToken,
      findMailedTokenByHash,
      useMailedToken,
      insertTrustedDevice,
      rotateLiveTrustedDevice,
      revokeTrustedDevicesOfUser,
      insertTwoFactorChallenge,
      findLiveTwoFactorChallengeUserId,
      reserveTwoFactorChallengeAttempt,
      consumeTwoFactorChallenge,
      consumeTwoFactorChallengesOfUser,
      deleteBackupCodesOfUser,
      insertBackupCodes,
      useBackupCode,
    }),
  };
}
