/**
 * Merchant API keys (DESIGN §3): `sk_live_` / `sk_test_` + 32 base62 characters, stored only as SHA-256, shown
 * by the first 12 characters.
 */
import { createHash } from "node:crypto";
import { randomBase62 } from "../random";

/** `live` or `test`. */
export type Mode = "live" | "test";

const KEY_BODY_LENGTH = 32;
/** Shape of a well-formed key; anything else is refused before a database look-up. */
export const API_KEY_PATTERN = /^sk_(live|test)_[0-9A-Za-z]{32}$/;
/** Length of `key_prefix`. */
export const API_KEY_PREFIX_LENGTH = 12;
/** Most active keys a store may have per mode (DESIGN §3). */
export const MAX_ACTIVE_API_KEYS_PER_MODE = 10;

/** A freshly generated key: `key` is shown once; only `hash` and `prefix` are stored. */
export interface GeneratedApiKey {
  key: string;
  hash: string;
  prefix: string;
}

/** SHA-256 (hex) of a key, the form it is stored and looked up in. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** Generates a key of `mode` with 32 uniformly random base62 characters (about 190 bits). */
export function generateApiKey(mode: Mode): GeneratedApiKey {
  const key = `sk_${mode}_${randomBase62(KEY_BODY_LENGTH)}`;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, API_KEY_PREFIX_LENGTH) };
}

/** The mode of a well-formed key, or `null` when `key` is not one. */
export function apiKeyMode(key: string): Mode | null {
  const match = API_KEY_PATTERN.exec(key);
  return match ? (match[1] as Mode) : null;
}
