/**
 * Merchant API keys, stored only as their SHA-256 (hex) and a display prefix. A key is active while it is neither
 * revoked nor past a scheduled `revoke_at` (a rotated key in its 24 h grace window is still active). Authentication
 * reads and touches keys in plain SQL on the `pg` pool: every merchant request that misses the API's key cache runs
 * it, where Prisma's per-query cost dominated.
 */
import { onSql, onPrisma, type Connection } from "../connection";
import type { DbClient } from "../client";
import type { ApiKey, Mode, Prisma } from "../generated/client";
import { sql, sqlQuery, type SqlClient } from "../sql";

/** The `where` of active keys at `now`: neither revoked nor past a scheduled `revoke_at`. */
function activeApiKeyWhere(now: Date): Prisma.ApiKeyWhereInput {
  return { revoked_at: null, OR: [{ revoke_at: null }, { revoke_at: { gt: now } }] };
}

/** A key's row as authentication reads it: `api_keys` joined to its store's name. */
export interface ApiKeyAuthRow {
  id: string;
  store_id: string;
  mode: "live" | "test";
  last_used_at: Date | null;
  revoke_at: Date | null;
  revoked_at: Date | null;
  store_name: string;
}

/**
 * The authentication row of the key whose SHA-256 is `keyHash` (whatever its state), or undefined when unknown.
 * Plain SQL: every merchant request that misses the API's key cache runs it.
 */
export async function findApiKeyByHash(client: SqlClient, keyHash: string): Promise<ApiKeyAuthRow | undefined> {
  const [row] = await sqlQuery<ApiKeyAuthRow>(
    client,
    sql`SELECT k.id, k.store_id, k.mode, k.last_used_at, k.revoke_at, k.revoked_at, s.name AS store_name
     FROM api_keys k JOIN stores s ON s.id = k.store_id WHERE k.key_hash = ${keyHash}`,
  );
  return row;
}

/**
 * Sets key `keyId`'s `last_used_at` to `now` unless it is already `staleBefore` or later: conditional, so that
 * concurrent requests of a busy key write once.
 */
export async function touchApiKeyLastUsed(
  client: SqlClient,
  keyId: string,
  now: Date,
  staleBefore: Date,
): Promise<void> {
  await sqlQuery(
    client,
    sql`UPDATE api_keys SET last_used_at = ${now} WHERE id = ${keyId} AND (last_used_at IS NULL OR last_used_at < ${staleBefore})`,
  );
}

/** How many active keys of `mode` store `storeId` has at `now` (the per-mode limit counts them). */
export function countActiveApiKeysOfStore(db: DbClient, storeId: string, mode: Mode, now: Date): Promise<number> {
  return db.apiKey.count({ where: { store_id: storeId, mode, ...activeApiKeyWhere(now) } });
}

/**
 * Inserts a key and returns the stored row.
 * @throws Prisma P2002 when the key hash exists (never for a generated key)
 */
export function insertApiKey(db: DbClient, data: Prisma.ApiKeyUncheckedCreateInput): Promise<ApiKey> {
  return db.apiKey.create({ data });
}

/** The store's active keys at `now`, newest first (ids are time-sortable). */
export function listActiveApiKeysOfStore(db: DbClient, storeId: string, now: Date): Promise<ApiKey[]> {
  return db.apiKey.findMany({ where: { store_id: storeId, ...activeApiKeyWhere(now) }, orderBy: { id: "desc" } });
}

/** Key `keyId` when it is store `storeId`'s and active at `now`, else null. */
export function findActiveApiKeyOfStore(
  db: DbClient,
  storeId: string,
  keyId: string,
  now: Date,
): Promise<ApiKey | null> {
  return db.apiKey.findFirst({ where: { id: keyId, store_id: storeId, ...activeApiKeyWhere(now) } });
}

/**
 * Schedules key `keyId`'s revocation at `revokeAt`, unless one is already scheduled: conditional, so that of two
 * concurrent rotations of one key only one succeeds.
 * @returns 1 when scheduled, 0 when the key was already rotated
 */
export async function scheduleApiKeyRevocation(db: DbClient, keyId: string, revokeAt: Date): Promise<number> {
  const scheduled = await db.apiKey.updateMany({
    where: { id: keyId, revoke_at: null },
    data: { revoke_at: revokeAt },
  });
  return scheduled.count;
}

/**
 * Revokes key `keyId` at `now` while it is active.
 * @returns 1 when revoked, 0 when it no longer was active
 */
export async function revokeActiveApiKey(db: DbClient, keyId: string, now: Date): Promise<number> {
  const revoked = await db.apiKey.updateMany({
    where: { id: keyId, ...activeApiKeyWhere(now) },
    data: { revoked_at: now },
  });
  return revoked.count;
}

/**
 * Marks every key whose `revoke_at` has passed by `now` as revoked, with `revoked_at` = its `revoke_at` (the instant
 * authentication stopped accepting it). Idempotent.
 * @returns how many keys were marked
 */
export function markDueApiKeysRevoked(db: DbClient, now: Date): Promise<number> {
  return db.$executeRaw`UPDATE api_keys SET revoked_at = revoke_at WHERE revoked_at IS NULL AND revoke_at <= ${now}`;
}

/** This repository bound to connection `c` (`createRepositories`): each function without its client. */
export function apiKeysRepository(c: Connection) {
  return {
    ...onSql(c, { findApiKeyByHash, touchApiKeyLastUsed }),
    ...onPrisma(c, {
      countActiveApiKeysOfStore,
      insertApiKey,
      listActiveApiKeysOfStore,
      findActiveApiKeyOfStore,
      scheduleApiKeyRevocation,
      revokeActiveApiKey,
      markDueApiKeysRevoked,
    }),
  };
}
