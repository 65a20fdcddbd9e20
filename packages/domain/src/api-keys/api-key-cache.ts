/**
 * The API keys a process has looked up, remembered by their SHA-256 so that a merchant request makes no database
 * round trip to authenticate (it was one of the two queries of a charge read and of the three of a creation).
 *
 * DESIGN §3 wants a deleted key refused at once, so the cache never decides alone: it is emptied by every committed
 * change to a key or to a store's name (a trigger notifies `lm_api_keys`, heard through `listenForChanges` of
 * `@lm/db`), it keeps nothing while that feed is offline, and an entry lives at most {@link API_KEY_CACHE_TTL_MS}
 * anyway. What is remembered is the key's row; the rules (revoked, past `revoke_at`, mode) are applied to it on every
 * request, so a scheduled revocation takes effect at its instant without any notification.
 */
import type { ApiKeyAuthRow } from "@lm/db";

/** The PostgreSQL channel on which key changes are announced (migration `20261125100000_api_key_change_notify`). */
export const API_KEY_CHANGES_CHANNEL = "lm_api_keys";

/** Longest an entry is trusted, ms: a bound on staleness should a change ever go unheard. */
export const API_KEY_CACHE_TTL_MS = 60_000;

/** Entries kept at most; past it the cache starts again empty (keys are few: 10 per mode per store). */
export const API_KEY_CACHE_MAX_ENTRIES = 10_000;

/** A key's row as authentication reads it (`api_keys` joined to its store's name). */
export type ApiKeyRow = ApiKeyAuthRow;

/** Where a lookup started, for {@link ApiKeyCache.remember}: a change heard since then voids what it read. */
export type ApiKeyCacheGeneration = number;

/** Rows of API keys by SHA-256 (hex); see the module comment for when they are trusted. */
export class ApiKeyCache {
  private readonly entries = new Map<string, { row: ApiKeyRow; storedAt: number }>();
  private generation = 0;
  private online = false;

  /** @param clock - monotonic milliseconds, for the entries' age */
  constructor(private readonly clock: () => number = () => performance.now()) {}

  /** The row remembered for `keyHash`, or `undefined` (never remembered, forgotten, or older than the TTL). */
  get(keyHash: string): ApiKeyRow | undefined {
    const entry = this.entries.get(keyHash);
    if (entry === undefined) return undefined;
    if (this.clock() - entry.storedAt > API_KEY_CACHE_TTL_MS) {
      this.entries.delete(keyHash);
      return undefined;
    }
    return entry.row;
  }

  /** To be taken before reading a row from the database and handed to {@link remember} with it. */
  generationNow(): ApiKeyCacheGeneration {
    return this.generation;
  }

  /**
   * Remembers `row` under `keyHash`, unless the feed is offline or a change was heard since `readAt` (the row may
   * predate it).
   */
  remember(keyHash: string, row: ApiKeyRow, readAt: ApiKeyCacheGeneration): void {
    if (!this.online || readAt !== this.generation) return;
    if (this.entries.size >= API_KEY_CACHE_MAX_ENTRIES) this.entries.clear();
    this.entries.set(keyHash, { row, storedAt: this.clock() });
  }

  /** A change was committed: forget every row, and void the lookups under way. */
  forgetAll(): void {
    this.entries.clear();
    this.generation++;
  }

  /** The change feed is listening (`true`) or may miss changes (`false`); either way nothing older is kept. */
  setOnline(online: boolean): void {
    this.online = online;
    this.forgetAll();
  }
}
