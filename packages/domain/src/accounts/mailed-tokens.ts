/**
 * Single-use tokens sent by mail (DESIGN §3): email verification (24 h), password reset (1 h; an operator's first
 * password, 24 h) and lost-2FA recovery (1 h). 256 random bits, stored as SHA-256, consumed by one conditional
 * update so that two concurrent uses cannot both succeed.
 */
import { randomUUID } from "node:crypto";
import type { MailedToken, MailedTokenPurpose, Repositories } from "@lm/db";
import { generateToken, hashToken, isWellFormedToken } from "./credentials";

const HOUR_MS = 3_600_000;
/** Life of each kind of mailed token. */
export const MAILED_TOKEN_TTL_MS = {
  email_verification: 24 * HOUR_MS,
  password_reset: HOUR_MS,
  two_factor_recovery: HOUR_MS,
} as const satisfies Record<MailedTokenPurpose, number>;

/**
 * Stores a new token of `purpose` for the user and returns it, once, for the link.
 * @param input.ttlMs - life of the token; defaults to the purpose's ({@link MAILED_TOKEN_TTL_MS})
 */
export async function issueMailedToken(
  repos: Repositories,
  input: { userId: string; purpose: MailedTokenPurpose; now: Date; ttlMs?: number },
): Promise<string> {
  const { token, hash } = generateToken();
  await repos.accounts.insertMailedToken({
    id: randomUUID(),
    purpose: input.purpose,
    token_hash: hash,
    user_id: input.userId,
    created_at: input.now,
    expires_at: new Date(input.now.getTime() + (input.ttlMs ?? MAILED_TOKEN_TTL_MS[input.purpose])),
  });
  return token;
}

/**
 * Uses a token: marks it used if it is of `purpose`, unused and unexpired.
 * @returns the token row, or null when it is unknown, of another purpose, used or expired (all alike to the caller)
 */
export async function consumeMailedToken(
  repos: Repositories,
  input: { token: string; purpose: MailedTokenPurpose; now: Date },
): Promise<MailedToken | null> {
  if (!isWellFormedToken(input.token)) return null;
  const tokenHash = hashToken(input.token);
  if ((await repos.accounts.useMailedToken({ tokenHash, purpose: input.purpose, now: input.now })) !== 1) return null;
  return repos.accounts.findMailedTokenByHash(tokenHash);
}

/** A link on `PUBLIC_BASE_URL` (never the request's host) with the token and, when given, where to go after. */
export function mailedLink(publicBaseUrl: string, path: string, params: Record<string, string | undefined>): string {
  const url = new URL(path, `${publicBaseUrl}/`);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}
