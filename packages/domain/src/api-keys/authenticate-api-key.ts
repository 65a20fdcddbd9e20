/**
 * Use case: authenticate a merchant API request by its key (DESIGN §3): looked up by SHA-256 (in the process's
 * {@link ApiKeyCache}, else in the database), refused when unknown, revoked or past its `revoke_at`. The key's store
 * and mode scope everything the request creates or reads.
 */
import type { Repositories } from "@lm/db";
import type { MerchantScope } from "../deps";
import { ApiError } from "../errors";
import { apiKeyMode, hashApiKey } from "./api-key";
import type { ApiKeyCache, ApiKeyRow } from "./api-key-cache";

/** `last_used_at` is written at most once per this interval, ms (DESIGN §3). */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** The caller behind a valid key. */
export interface AuthenticatedApiKey extends MerchantScope {
  apiKeyId: string;
  /** The store's name (written in BR Codes). */
  storeName: string;
}

/**
 * Authenticates `key` at `now` and records its use (a conditional UPDATE, at most once a minute per key, so a busy
 * key costs no write per request and concurrent requests write once).
 * @param cache - the process's cache of key rows (read first; a row read from the database is offered to it)
 * @throws ApiError `authentication_required` for a malformed, unknown, revoked or expired key (one message for all,
 *   so a caller learns nothing about which keys exist)
 */
export async function authenticateApiKey(
  repos: Repositories,
  key: string,
  now: Date,
  cache: ApiKeyCache,
): Promise<AuthenticatedApiKey> {
  const mode = apiKeyMode(key);
  const found = mode === null ? null : await findKeyRow(repos, hashApiKey(key), cache);
  const refused =
    found === null ||
    found.mode !== mode ||
    found.revoked_at !== null ||
    (found.revoke_at !== null && found.revoke_at <= now);
  if (refused) throw new ApiError("authentication_required", "Invalid API key provided.");

  const staleBefore = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
  if (found.last_used_at === null || found.last_used_at < staleBefore) {
    // Set first on the row, which may be the cache's: the requests arriving meanwhile do not write too.
    found.last_used_at = now;
    await repos.apiKeys.touchApiKeyLastUsed(found.id, now, staleBefore);
  }
  return { apiKeyId: found.id, storeId: found.store_id, storeName: found.store_name, mode: found.mode };
}

/**
 * The row of the key whose SHA-256 is `keyHash`, from `cache` when it has it, else from the database (plain SQL:
 * every merchant request that misses the cache runs this).
 */
async function findKeyRow(repos: Repositories, keyHash: string, cache: ApiKeyCache): Promise<ApiKeyRow | null> {
  const cached = cache.get(keyHash);
  if (cached !== undefined) return cached;
  const readAt = cache.generationNow();
  const row = await repos.apiKeys.findApiKeyByHash(keyHash);
  if (row === undefined) return null;
  cache.remember(keyHash, row, readAt);
  return row;
}
