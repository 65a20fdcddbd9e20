/**
 * Panel sessions (DESIGN §3): a random token in the `lm.session` cookie, only its SHA-256 in the database; 7 days
 * sliding (`last_seen_at` refreshed at most once a minute) under an absolute cap of 30 days, or 24 hours for a
 * browser-session cookie (`rememberMe: false`). Sign-out and revocation mark the row; a revoked row never comes back.
 */
import { randomUUID } from "node:crypto";
import type { Session, User, Repositories } from "@lm/db";
import { notFound } from "../errors";
import { generateToken, hashToken, isWellFormedToken } from "./credentials";

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** Sliding life: a session unused this long ends. */
export const SESSION_IDLE_MS = 7 * DAY_MS;
/** Absolute life of a `rememberMe` session. */
export const SESSION_MAX_MS = 30 * DAY_MS;
/** Absolute life of a browser-session (`rememberMe: false`) session. */
export const BROWSER_SESSION_MAX_MS = DAY_MS;
/** `last_seen_at` is written at most this often, so that reads do not each cost a write. */
export const SESSION_TOUCH_INTERVAL_MS = MINUTE_MS;

/** A new session and, once, its token (for the cookie). */
export interface IssuedSession {
  session: Session;
  token: string;
}

/** Where a sign-in came from, kept on the session for the owner's session list. */
export interface ClientInfo {
  ipAddress: string | null;
  userAgent: string | null;
}

function slidingEnd(now: Date, absolute: Date): Date {
  return new Date(Math.min(now.getTime() + SESSION_IDLE_MS, absolute.getTime()));
}

/**
 * Opens a session for `userId`.
 * @param input.persistent - `rememberMe`: 30-day cap and a cookie with Max-Age, else 24 h and a browser-session cookie
 */
export async function createSession(
  repos: Repositories,
  input: { userId: string; persistent: boolean; client: ClientInfo; now: Date },
): Promise<IssuedSession> {
  const { token, hash } = generateToken();
  const absolute = new Date(input.now.getTime() + (input.persistent ? SESSION_MAX_MS : BROWSER_SESSION_MAX_MS));
  const session = await repos.accounts.insertSession({
    id: randomUUID(),
    token_hash: hash,
    user_id: input.userId,
    ip_address: input.client.ipAddress,
    user_agent: input.client.userAgent?.slice(0, 512) ?? null,
    persistent: input.persistent,
    created_at: input.now,
    last_seen_at: input.now,
    expires_at: slidingEnd(input.now, absolute),
    absolute_expires_at: absolute,
  });
  return { session, token };
}

/** A session that authenticated a request, with its user. */
export interface AuthenticatedSession {
  session: Session;
  user: User;
  /** Whether this request moved the sliding end (the cookie's Max-Age should follow). */
  refreshed: boolean;
}

/**
 * The live session of `token`, sliding its end forward when the last refresh is more than a minute old.
 * @returns null for a malformed, unknown, revoked or expired token
 */
export async function authenticateSession(
  repos: Repositories,
  token: string,
  now: Date,
): Promise<AuthenticatedSession | null> {
  if (!isWellFormedToken(token)) return null;
  const found = await repos.accounts.findSessionWithUserByTokenHash(hashToken(token));
  if (!found || found.revoked_at !== null || found.expires_at <= now) return null;
  const { user, ...session } = found;
  if (now.getTime() - session.last_seen_at.getTime() < SESSION_TOUCH_INTERVAL_MS) {
    return { session, user, refreshed: false };
  }
  const touched = await repos.accounts.touchSession(session.id, {
    lastSeenAt: now,
    expiresAt: slidingEnd(now, session.absolute_expires_at),
  });
  return { session: touched, user, refreshed: true };
}

/** The user's sessions that are neither revoked nor expired, newest first. */
export function listActiveSessions(repos: Repositories, userId: string, now: Date): Promise<Session[]> {
  return repos.accounts.listLiveSessionsOfUser(userId, now);
}

/**
 * Revokes one of the user's live sessions.
 * @throws ApiError `resource_not_found` when it is unknown, another user's, or already ended (indistinguishable)
 */
export async function revokeSession(
  repos: Repositories,
  input: { userId: string; sessionId: string; now: Date },
): Promise<void> {
  if ((await repos.accounts.revokeLiveSessionOfUser(input)) === 0) throw notFound("session");
}

/** Revokes every live session of the user (password reset, 2FA disable and recovery). */
export async function revokeAllSessions(repos: Repositories, userId: string, now: Date): Promise<void> {
  await repos.accounts.revokeSessionsOfUser(userId, now);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The uuid named by a session reference: the public id `ses_` + 32 hex digits, or the uuid itself (SPEC "Session").
 * @returns null when `reference` is neither, so the caller answers 404 without a look-up
 */
export function parseSessionReference(reference: string): string | null {
  const lower = reference.toLowerCase();
  const hex = /^ses_[0-9a-f]{32}$/.test(lower) ? lower.slice(4) : null;
  const uuid = hex
    ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
    : lower;
  return UUID.test(uuid) ? uuid : null;
}

/** Ends the session of `token` (sign-out); an unknown or already ended token changes nothing. */
export async function endSession(repos: Repositories, token: string, now: Date): Promise<void> {
  if (!isWellFormedToken(token)) return;
  await repos.accounts.revokeSessionByTokenHash(hashToken(token), now);
}

/**
 * Swaps a session for a new one with the same persistence (DESIGN §3: a new session id when 2FA is completed), so
 * that a token captured before the change is worth nothing after it.
 */
export async function replaceSession(
  repos: Repositories,
  input: { session: Session; client: ClientInfo; now: Date },
): Promise<IssuedSession> {
  return repos.transaction(async (tx) => {
    await tx.accounts.revokeSessionById(input.session.id, input.now);
    return createSession(tx, {
      userId: input.session.user_id,
      persistent: input.session.persistent,
      client: input.client,
      now: input.now,
    });
  });
}
