/**
 * Passwords and random tokens of the panel (DESIGN §3).
 *
 * Passwords are hashed with bcrypt over a SHA-256 pre-hash (base64, 44 bytes): bcrypt reads only 72 bytes, and the
 * pre-hash makes every byte of a 128-character password count. Tokens (sessions, mailed links, invites, trusted
 * devices, 2FA challenges) are 32 random bytes, base64url, and are stored only as their SHA-256.
 */
import bcrypt from "bcrypt";
import { createHash, randomBytes } from "node:crypto";

/** Password length bounds, in characters (DESIGN §3). */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

/** A 32-byte token in base64url: exactly 43 characters of `[A-Za-z0-9_-]`. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function preHash(password: string): string {
  return createHash("sha256").update(password, "utf8").digest("base64");
}

/**
 * Hashes a password for storage.
 * @param cost - bcrypt cost (`BCRYPT_COST`, 12 outside tests)
 * @returns a bcrypt hash string (`$2b$12$…`)
 */
export function hashPassword(password: string, cost: number): Promise<string> {
  return bcrypt.hash(preHash(password), cost);
}

const dummyHashes = new Map<number, Promise<string>>();

/**
 * A hash of a random password at `cost`, made once per process: comparing against it when the account does not
 * exist (or has no password yet) costs the same time as a real comparison, so timing does not tell them apart.
 */
export function dummyPasswordHash(cost: number): Promise<string> {
  let hash = dummyHashes.get(cost);
  if (!hash) {
    hash = hashPassword(randomBytes(32).toString("base64"), cost);
    dummyHashes.set(cost, hash);
  }
  return hash;
}

/**
 * Whether `password` matches `hash`. With `hash` null the comparison still runs against a dummy hash and fails.
 * @param cost - bcrypt cost of the dummy hash; the configured cost, so both paths take the same time
 */
export async function verifyPassword(password: string, hash: string | null, cost: number): Promise<boolean> {
  const matches = await bcrypt.compare(preHash(password), hash ?? (await dummyPasswordHash(cost)));
  return hash !== null && matches;
}

/** A new random token and the hash it is stored as. */
export interface GeneratedToken {
  /** Given to the user once (cookie or mailed link); 256 random bits. */
  token: string;
  /** SHA-256 (hex) of the token: the only form stored. */
  hash: string;
}

/** SHA-256 (hex) of a token, the form it is stored and looked up in. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Makes a new token of 32 random bytes. */
export function generateToken(): GeneratedToken {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashToken(token) };
}

/** Whether `value` has the shape of one of our tokens; anything else is refused before a database look-up. */
export function isWellFormedToken(value: string): boolean {
  return TOKEN_PATTERN.test(value);
}
