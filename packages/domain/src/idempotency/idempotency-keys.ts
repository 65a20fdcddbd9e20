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
 * The reply is kept as the text that was sent (a `text` column, not `jsonb`, which would reorder keys and respace),
 * less what a charge keeps for good (its terms, BR Code and QR image, customer), which is stored once, on the charge
 * (DESIGN §10 "No copies"), and put back on replay in its place, so a replay is byte for byte the first reply.
 */
import { randomUUID } from "node:crypto";
import type { IdempotentReply, Repositories } from "@lm/db";
import { storedChargeId, withChargeFields, withoutChargeFields } from "@lm/wire";
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

/**
 * Claims `key` for a request whose method, path and body hash to `requestHash`.
 * @throws ApiError `idempotency_key_reused` when the key was used with another request;
 *   `idempotency_key_in_progress` while the first request with this key is still running
 */
export async function claimIdempotencyKey(
  repos: Repositories,
  scope: MerchantScope,
  input: { key: string; requestHash: string; now: Date },
): Promise<IdempotencyClaim> {
  const claimId = randomUUID();
  const keyScope = { storeId: scope.storeId, mode: scope.mode, key: input.key };
  const claim = {
    id: claimId,
    requestHash: input.requestHash,
    createdAt: input.now,
    expiresAt: new Date(input.now.getTime() + IDEMPOTENCY_TTL_MS),
  };
  for (;;) {
    if (await repos.idempotencyKeys.insertIdempotencyClaim(keyScope, claim))
      return { kind: "claimed", claimId, claimedAt: input.now };
    const existing = await repos.idempotencyKeys.findIdempotencyKey(keyScope);
    if (existing && existing.expires_at <= input.now) {
      // A key past its 24 h is free again: drop the old record and claim it anew.
      await repos.idempotencyKeys.deleteExpiredIdempotencyKey(existing.id, input.now);
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
      const abandoned = { id: existing.id, claimedAt: existing.created_at };
      if (await repos.idempotencyKeys.takeOverIdempotencyClaim(abandoned, input.now)) {
        return { kind: "claimed", claimId: existing.id, claimedAt: input.now };
      }
      continue;
    }
    if (!existing || existing.response_status === null || existing.response_body === null) {
      // Missing means the first request was just refused and released its key: it was running a moment ago.
      throw new ApiError("idempotency_key_in_progress", "A request with this Idempotency-Key is still in progress.");
    }
    return {
      kind: "replay",
      status: existing.response_status,
      body: await replayedText(repos, existing.response_body),
    };
  }
}

/**
 * The text to keep of a reply: as sent, less the fields a charge keeps for good. Our replies are `JSON.stringify` of
 * plain objects (integers, strings, in a fixed key order), which `JSON.parse` and `JSON.stringify` give back byte for
 * byte.
 */
function storedText(sent: string): string {
  const reply = JSON.parse(sent) as unknown;
  return storedChargeId(reply) === null ? sent : JSON.stringify(withoutChargeFields(reply as object));
}

/** The reply as first sent, from the text {@link storedText} kept: the charge's fixed fields put back. */
async function replayedText(repos: Repositories, stored: string): Promise<string> {
  const reply = JSON.parse(stored) as unknown;
  const chargeId = storedChargeId(reply);
  if (chargeId === null) return stored;
  return JSON.stringify(withChargeFields(reply as object, await repos.charges.findChargeById(chargeId)));
}

/**
 * The successful reply of the request that holds `claim`, to be replayed for 24 h: the use case stores it in its own
 * unit of work, so that it commits with the request's writes or not at all. When the claim was taken over (this
 * request ran past the claim timeout), nothing is written and ApiError `idempotency_key_in_progress` is thrown.
 * @param body - the reply's JSON text exactly as it will be sent (kept less a charge's fixed fields, see the file's
 *   comment)
 */
export function idempotentReply(claim: HeldClaim, status: number, body: string): IdempotentReply {
  return {
    claim: { id: claim.claimId, claimedAt: claim.claimedAt },
    status,
    body: storedText(body),
    takenOver: () =>
      new ApiError("idempotency_key_in_progress", "A request with this Idempotency-Key is still in progress."),
  };
}

/** Releases `claim` after a refused request, so the key can be used again (unless another request took it over). */
export async function releaseIdempotencyKey(repos: Repositories, claim: HeldClaim): Promise<void> {
  await repos.idempotencyKeys.releaseIdempotencyClaim({ id: claim.claimId, claimedAt: claim.claimedAt });
}
