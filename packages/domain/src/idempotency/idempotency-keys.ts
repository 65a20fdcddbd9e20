/**
 * `Idempotency-Key` records in PostgreSQL (DESIGN §5), kept 24 h per store, mode and key. The unique constraint on
 * (store, mode, key) decides which of several concurrent requests runs; the others see it running or replay its
 * reply. Only successful replies are kept: a refused request (validation, conflict, server error) releases its key so
 * that the integrator can fix the request and retry with the same key, as Stripe does.
 *
 * The reply is stored in the same database transaction as the request's own writes ({@link idempotentReplyWrite}),
 * and only while the request still holds its claim. So a claim that stays "in progress" means its request wrote
 * nothing (its process died before commit): after {@link IDEMPOTENCY_CLAIM_TIMEOUT_MS} a retry takes it over, and if
 * the first request was merely slow, its commit fails instead of making a second charge.
 *
 * The reply is kept as the exact text that was sent (a `text` column, not `jsonb`, which would reorder keys and
 * respace), so a replay is byte for byte the first reply. Plain SQL: charge creation runs these on every request
 * (issue 14).
 */
import { randomUUID } from "node:crypto";
import { sql, sqlQuery, type Db, type SqlWrite } from "@lm/db";
import type { MerchantScope } from "../deps";
import { ApiError } from "../errors";

/** How long a key and its reply are kept, ms. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * How long a claim without a reply counts as running; past it, a retry with the key takes the claim over, ms. A
 * takeover is safe at any age (the first request's reply write, and with it all its writes, then fails), so this
 * only bounds how long a claim its request could not release stays in the way: a request cut by a database outage
 * answers 503 and cannot delete its claim, and its client's retries got 409 for a whole minute when this was 60 s.
 * 10 s is far longer than a request runs when the database answers; one slower than that loses its claim and
 * answers 409 while the retry runs, and nothing is written twice.
 */
export const IDEMPOTENCY_CLAIM_TIMEOUT_MS = 10_000;

/** A request's hold on a key: the record's id and the time it was claimed (which a takeover changes). */
export interface HeldClaim {
  claimId: string;
  claimedAt: Date;
}

/**
 * The outcome of claiming a key: run the request under the claim, or send the stored reply again (`body` is the
 * JSON text exactly as first sent).
 */
export type IdempotencyClaim = ({ kind: "claimed" } & HeldClaim) | { kind: "replay"; status: number; body: string };

interface KeyRow {
  id: string;
  request_hash: string;
  response_status: number | null;
  response_body: string | null;
  created_at: Date;
  expires_at: Date;
}

/**
 * Claims `key` for a request whose method, path and body hash to `requestHash`.
 * @throws ApiError `idempotency_key_reused` when the key was used with another request;
 *   `idempotency_key_in_progress` while the first request with this key is still running
 */
export async function claimIdempotencyKey(
  db: Db,
  scope: MerchantScope,
  input: { key: string; requestHash: string; now: Date },
): Promise<IdempotencyClaim> {
  const claimId = randomUUID();
  for (;;) {
    const inserted = await sqlQuery(
      db.pool,
      `INSERT INTO idempotency_keys (id, store_id, mode, key, request_hash, created_at, expires_at)
       VALUES ($1, $2, $3::mode, $4, $5, $6, $7) ON CONFLICT (store_id, mode, key) DO NOTHING RETURNING id`,
      [
        claimId,
        scope.storeId,
        scope.mode,
        input.key,
        input.requestHash,
        input.now,
        new Date(input.now.getTime() + IDEMPOTENCY_TTL_MS),
      ],
    );
    if (inserted.length === 1) return { kind: "claimed", claimId, claimedAt: input.now };
    const [existing] = await sqlQuery<KeyRow>(
      db.pool,
      `SELECT id, request_hash, response_status, response_body, created_at, expires_at FROM idempotency_keys
       WHERE store_id = $1 AND mode = $2::mode AND key = $3`,
      [scope.storeId, scope.mode, input.key],
    );
    if (existing && existing.expires_at <= input.now) {
      // A key past its 24 h is free again: drop the old record and claim it anew.
      await sqlQuery(db.pool, "DELETE FROM idempotency_keys WHERE id = $1 AND expires_at <= $2", [
        existing.id,
        input.now,
      ]);
      continue;
    }
    if (existing && existing.request_hash !== input.requestHash) {
      throw new ApiError("idempotency_key_reused", "This Idempotency-Key was already used with a different request.");
    }
    if (
      existing &&
      existing.response_status === null &&
      existing.created_at.getTime() <= input.now.getTime() - IDEMPOTENCY_CLAIM_TIMEOUT_MS
    ) {
      // Abandoned: its request committed nothing. Take it over unless another retry just did.
      const taken = await sqlQuery(
        db.pool,
        `UPDATE idempotency_keys SET created_at = $1
         WHERE id = $2 AND response_status IS NULL AND created_at = $3 RETURNING id`,
        [input.now, existing.id, existing.created_at],
      );
      if (taken.length === 1) return { kind: "claimed", claimId: existing.id, claimedAt: input.now };
      continue;
    }
    if (!existing || existing.response_status === null || existing.response_body === null) {
      // Missing means the first request was just refused and released its key: it was running a moment ago.
      throw new ApiError("idempotency_key_in_progress", "A request with this Idempotency-Key is still in progress.");
    }
    return { kind: "replay", status: existing.response_status, body: existing.response_body };
  }
}

/**
 * The write that stores the successful reply of the request that holds `claim`, to be replayed for 24 h. Run it
 * with the request's own writes (`runWrites`, in the same statement or database transaction), so that both commit or
 * neither does. It is conditional: when the claim was taken over (this request ran past the claim timeout), nothing
 * of the statement is written and ApiError `idempotency_key_in_progress` is thrown.
 * @param body - the reply's JSON text exactly as it will be sent
 */
export function idempotentReplyWrite(claim: HeldClaim, status: number, body: string): SqlWrite {
  return {
    sql: sql`UPDATE idempotency_keys SET response_status = ${status}, response_body = ${body}
             WHERE id = ${claim.claimId} AND response_status IS NULL AND created_at = ${claim.claimedAt}`,
    orElse: () =>
      new ApiError("idempotency_key_in_progress", "A request with this Idempotency-Key is still in progress."),
  };
}

/**
 * Deletes up to `limit` records past their 24 h, oldest first (a reconciler sweep keeps the table small).
 * @returns how many were deleted
 */
export function purgeExpiredIdempotencyKeys(db: Db, now: Date, limit = 1000): Promise<number> {
  return db.$executeRaw`
    DELETE FROM idempotency_keys
    WHERE id IN (SELECT id FROM idempotency_keys WHERE expires_at <= ${now} ORDER BY expires_at LIMIT ${limit})`;
}

/** Releases `claim` after a refused request, so the key can be used again (unless another request took it over). */
export async function releaseIdempotencyKey(db: Db, claim: HeldClaim): Promise<void> {
  await sqlQuery(
    db.pool,
    "DELETE FROM idempotency_keys WHERE id = $1 AND response_status IS NULL AND created_at = $2",
    [claim.claimId, claim.claimedAt],
  );
}
