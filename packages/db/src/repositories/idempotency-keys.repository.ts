/**
 * `idempotency_keys` (DESIGN §5): one record per store, mode and key, whose unique constraint decides which of several
 * concurrent requests runs. Plain SQL on the pool: charge creation runs these on every request with a key, where
 * Prisma's per-query cost was most of the request's.
 */
import { onSql, type Connection } from "../connection";
import type { Mode } from "../generated/client";
import { runWrites, sql, sqlQuery, type SqlClient, type SqlWrite } from "../sql";

/** A stored key as the claim reads it. */
export interface IdempotencyKeyRow {
  id: string;
  request_hash: string;
  response_status: number | null;
  /** The reply's JSON text exactly as first sent. */
  response_body: string | null;
  created_at: Date;
  expires_at: Date;
}

/** Which store and mode a key belongs to, and the key. */
export interface IdempotencyKeyScope {
  storeId: string;
  mode: Mode;
  key: string;
}

/**
 * Inserts a claim of `scope`'s key unless one exists.
 * @returns whether this call inserted it
 */
export async function insertIdempotencyClaim(
  client: SqlClient,
  scope: IdempotencyKeyScope,
  claim: { id: string; requestHash: string; createdAt: Date; expiresAt: Date },
): Promise<boolean> {
  const inserted = await sqlQuery(
    client,
    sql`INSERT INTO idempotency_keys (id, store_id, mode, key, request_hash, created_at, expires_at)
        VALUES (${claim.id}, ${scope.storeId}, ${scope.mode}::mode, ${scope.key}, ${claim.requestHash},
                ${claim.createdAt}, ${claim.expiresAt})
        ON CONFLICT (store_id, mode, key) DO NOTHING RETURNING id`,
  );
  return inserted.length === 1;
}

/** The record of `scope`'s key, or undefined. */
export async function findIdempotencyKey(
  client: SqlClient,
  scope: IdempotencyKeyScope,
): Promise<IdempotencyKeyRow | undefined> {
  const [found] = await sqlQuery<IdempotencyKeyRow>(
    client,
    sql`SELECT id, request_hash, response_status, response_body, created_at, expires_at FROM idempotency_keys
        WHERE store_id = ${scope.storeId} AND mode = ${scope.mode}::mode AND key = ${scope.key}`,
  );
  return found;
}

/** Deletes record `id` when it has expired by `now` (a key past its 24 h is free again). */
export async function deleteExpiredIdempotencyKey(client: SqlClient, id: string, now: Date): Promise<void> {
  await sqlQuery(client, sql`DELETE FROM idempotency_keys WHERE id = ${id} AND expires_at <= ${now}`);
}

/**
 * Moves an abandoned claim (no reply, claimed at `claimedAt`) to `now`, unless another retry just did.
 * @returns whether this call took it over
 */
export async function takeOverIdempotencyClaim(
  client: SqlClient,
  claim: { id: string; claimedAt: Date },
  now: Date,
): Promise<boolean> {
  const taken = await sqlQuery(
    client,
    sql`UPDATE idempotency_keys SET created_at = ${now}
        WHERE id = ${claim.id} AND response_status IS NULL AND created_at = ${claim.claimedAt} RETURNING id`,
  );
  return taken.length === 1;
}

/**
 * The reply to keep for the request that holds an idempotency key's claim: a value the use case stores in its own
 * unit of work ({@link storeIdempotentReply}, or with the charge it inserts), so that the reply and the request's
 * writes commit together or not at all.
 */
export interface IdempotentReply {
  /** The claim's row and the time it was claimed at: a claim taken over since has another. */
  claim: { id: string; claimedAt: Date };
  status: number;
  /** The reply's JSON text as kept. */
  body: string;
  /** The error thrown when the claim was taken over (the request ran past the claim timeout): nothing is written. */
  takenOver: () => Error;
}

/**
 * The write storing `reply`, for `runWrites`: it changes no row once the claim was taken over, and `reply.takenOver()`
 * is then thrown and nothing of the statement written.
 */
export function idempotentReplyWrite(reply: IdempotentReply): SqlWrite {
  return {
    sql: sql`UPDATE idempotency_keys SET response_status = ${reply.status}, response_body = ${reply.body}
             WHERE id = ${reply.claim.id} AND response_status IS NULL AND created_at = ${reply.claim.claimedAt}`,
    orElse: reply.takenOver,
  };
}

/**
 * Stores `reply` (nothing when undefined) on `client`: given the request's open transaction, the reply commits with
 * the request's own writes or not at all.
 * @throws `reply.takenOver()` when the claim was taken over (nothing of it written); the driver's error otherwise
 */
export async function storeIdempotentReply(client: SqlClient, reply: IdempotentReply | undefined): Promise<void> {
  if (reply) await runWrites(client, [idempotentReplyWrite(reply)]);
}

/** Deletes claim `id` while it has no reply and is still the one claimed at `claimedAt`. */
export async function releaseIdempotencyClaim(
  client: SqlClient,
  claim: { id: string; claimedAt: Date },
): Promise<void> {
  await sqlQuery(
    client,
    sql`DELETE FROM idempotency_keys WHERE id = ${claim.id} AND response_status IS NULL AND created_at = ${claim.claimedAt}`,
  );
}

/**
 * Deletes up to `limit` records expired by `now`, oldest first.
 * @returns how many were deleted
 */
export async function purgeExpiredIdempotencyKeyRows(client: SqlClient, now: Date, limit: number): Promise<number> {
  const deleted = await sqlQuery(
    client,
    sql`DELETE FROM idempotency_keys
        WHERE id IN (SELECT id FROM idempotency_keys WHERE expires_at <= ${now} ORDER BY expires_at LIMIT ${limit})
        RETURNING 1`,
  );
  return deleted.length;
}

/** This repository bound to connection `c` (`createRepositories`): each function without its client. */
export function idempotencyKeysRepository(c: Connection) {
  return {
    ...onSql(c, {
      insertIdempotencyClaim,
      findIdempotencyKey,
      deleteExpiredIdempotencyKey,
      takeOverIdempotencyClaim,
      storeIdempotentReply,
      releaseIdempotencyClaim,
      purgeExpiredIdempotencyKeyRows,
    }),
  };
}
