/**
 * `Idempotency-Key` records in PostgreSQL (DESIGN §5), kept 24 h per store, mode and key. The unique constraint on
 * (store, mode, key) decides which of several concurrent requests runs; the others see it running or replay its
 * reply. Only successful replies are kept: a refused request (validation, conflict, server error) releases its key so
 * that the integrator can fix the request and retry with the same key, as Stripe does.
 */
import { randomUUID } from "node:crypto";
import { isUniqueViolation, type DbClient, type Prisma } from "@lm/db";
import type { MerchantScope } from "../deps";
import { ApiError } from "../errors";

/** How long a key and its reply are kept, ms. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** The outcome of claiming a key: run the request under `claimId`, or send the stored reply again. */
export type IdempotencyClaim =
  | { kind: "claimed"; claimId: string }
  | { kind: "replay"; status: number; body: unknown };

/**
 * Claims `key` for a request whose method, path and body hash to `requestHash`.
 * @throws ApiError `idempotency_key_reused` when the key was used with another request;
 *   `idempotency_key_in_progress` while the first request with this key is still running
 */
export async function claimIdempotencyKey(
  db: DbClient,
  scope: MerchantScope,
  input: { key: string; requestHash: string; now: Date },
): Promise<IdempotencyClaim> {
  const claimId = randomUUID();
  for (;;) {
    try {
      await db.idempotencyKey.create({
        data: {
          id: claimId,
          store_id: scope.storeId,
          mode: scope.mode,
          key: input.key,
          request_hash: input.requestHash,
          created_at: input.now,
          expires_at: new Date(input.now.getTime() + IDEMPOTENCY_TTL_MS),
        },
      });
      return { kind: "claimed", claimId };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
    const existing = await db.idempotencyKey.findUnique({
      where: { store_id_mode_key: { store_id: scope.storeId, mode: scope.mode, key: input.key } },
    });
    if (existing && existing.expires_at <= input.now) {
      // A key past its 24 h is free again: drop the old record and claim it anew.
      await db.idempotencyKey.deleteMany({ where: { id: existing.id, expires_at: { lte: input.now } } });
      continue;
    }
    if (existing && existing.request_hash !== input.requestHash) {
      throw new ApiError("idempotency_key_reused", "This Idempotency-Key was already used with a different request.");
    }
    if (!existing || existing.response_status === null) {
      // Missing means the first request was just refused and released its key: it was running a moment ago.
      throw new ApiError("idempotency_key_in_progress", "A request with this Idempotency-Key is still in progress.");
    }
    return { kind: "replay", status: existing.response_status, body: existing.response_body };
  }
}

/** Stores the successful reply of the request that holds `claimId`, to be replayed for 24 h. */
export async function completeIdempotencyKey(db: DbClient, claimId: string, status: number, body: unknown): Promise<void> {
  await db.idempotencyKey.update({
    where: { id: claimId },
    data: { response_status: status, response_body: body as Prisma.InputJsonValue },
  });
}

/** Releases `claimId` after a refused request, so the key can be used again. */
export async function releaseIdempotencyKey(db: DbClient, claimId: string): Promise<void> {
  await db.idempotencyKey.deleteMany({ where: { id: claimId } });
}
