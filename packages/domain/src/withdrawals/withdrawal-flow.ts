/**
 * One withdrawal, from request to settlement (DESIGN §7 "Withdrawals", "The acquirer does the moving"), in one home:
 *
 * 1. {@link createWithdrawal}: in one database transaction, under the seller row's share lock (so a 2FA recovery or a
 *    KYC decision cannot slip between check and debit), the checks in DESIGN §7's order (`withdrawals_locked`,
 *    `kyc_required` for live, `resource_not_found` for a foreign or deleted payout key, `insufficient_funds`), with
 *    DESIGN §11's `payout_key_cooling_off` right after the key is found: it is about the key, like the 404 before
 *    it, and a request refused for what it asks is told so before whether the mode's acquirer or the balance could
 *    serve it (`acquirer_not_configured`, `insufficient_funds`). Then the debit (`withdrawal` balance transaction;
 *    the amount moves to `reserved`) and `withdrawal.created`. The debit is one conditional update of the balance
 *    row, so 20 concurrent withdrawals of the whole balance give one 201.
 * 2. {@link submitWithdrawal} (worker queue `withdrawal-submission`, job id = withdrawal id): `processing` with
 *    `withdrawal.processing`, then the acquirer's `sendPixPayment`, idempotent on the withdrawal id, so a crash
 *    between sending and recording never pays twice. Failed requests are retried by the reconciler up to
 *    `ACQUIRER_MAX_ATTEMPTS` (acquirer-port.ts); then the withdrawal fails (`acquirer_unavailable`).
 * 3. {@link settleWithdrawal}: the acquirer's notification, stored in the inbox first, completes it
 *    (`withdrawal.completed`, the reserve released) or fails it (`withdrawal.failed` and a `withdrawal_reversal`).
 */
import {
  claimOutgoingRowRequest,
  findWithdrawalById,
  findWithdrawalOrThrow,
  findWithdrawalWithPayoutKey,
  findWithdrawalWithPayoutKeyOrThrow,
  inTransaction,
  insertWithdrawal,
  listActivePayoutKeysOfSeller,
  listStoreIdsOfSeller,
  lockSellerForWithdrawal,
  markWithdrawalCompleted,
  markWithdrawalFailed,
  recordOutgoingRowAccepted,
  recordOutgoingRowSubmitError,
  runIdempotencyReplyWrite,
  type Prisma,
  type SqlWrite,
} from "@lm/db";
import { attemptAcquirerRequest } from "../acquirers";
import { ACQUIRER_REJECTED, acquirerOfRow, requireAcquirer } from "../acquirers";
import type { PayoutOutcome } from "../inbound";
import { reporterAnomaly, type Reporter } from "../acquirers";
import { appendBalanceTransaction, releaseReserved } from "../balance/ledger";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { merchantSellerScope } from "../balance/find-balance";
import { enqueueAfterCommit } from "../jobs/enqueue-after-commit";
import { ApiError } from "../errors";
import type { SubscribableEventType } from "../events/event-types";
import { enqueueDeliveries, recordEvent } from "../events/record-event";
import { newId } from "../ids";
import { assertPayoutKeyCooledOff, findPayoutKey, isOwnDocumentKey } from "../payout-keys/payout-keys";
import { alreadySettled, type Settlement } from "../refunds/settle-refund";
import { sellerDocumentDigits } from "../sellers/seller-document";
import { serializeWithdrawal, type WithdrawalWithKey } from "./withdrawal.serializer";

/** The `withdrawal.*` types of the event catalog. */
type WithdrawalEventType = Extract<SubscribableEventType, `withdrawal.${string}`>;

/** Body of `POST /v1/me/withdrawals`. */
export interface CreateWithdrawalInput {
  /** Centavos, at least 1. */
  amount: number;
  payout_key_id: string;
  mode: "live" | "test";
}

/** Records `type` for `withdrawal` in its mode on every store of its seller, inside `tx`. */
async function recordWithdrawalEvent(
  tx: Prisma.TransactionClient,
  withdrawalId: string,
  type: WithdrawalEventType,
  now: Date,
): Promise<string[]> {
  const withdrawal = await findWithdrawalWithPayoutKeyOrThrow(tx, withdrawalId);
  const stores = await listStoreIdsOfSeller(tx, withdrawal.seller_id);
  const object = serializeWithdrawal(withdrawal) as unknown as Record<string, unknown>;
  const deliveryIds: string[] = [];
  for (const store of stores) {
    const recorded = await recordEvent(tx, { scope: { storeId: store.id, mode: withdrawal.mode }, type, object, now });
    deliveryIds.push(...recorded.deliveryIds);
  }
  return deliveryIds;
}

/** Enqueues `withdrawal-submission` jobs (job id = withdrawal id) with {@link enqueueAfterCommit}: never throws. */
export async function enqueueWithdrawalSubmissions(
  deps: Pick<UseCaseDeps, "producer" | "logger">,
  ids: string[],
): Promise<void> {
  await enqueueAfterCommit(
    deps,
    "withdrawal-submission",
    ids.map((withdrawalId) => ({ data: { withdrawalId }, jobId: withdrawalId })),
  );
}

/**
 * Requests a withdrawal of `input.amount` from `actor`'s seller balance in `input.mode` to one of its payout keys.
 * @param options.alsoWrite - a write run in the withdrawal's transaction, given the withdrawal (the idempotent reply's;
 *   when conditional and unmet, nothing is written and its error is thrown)
 * @returns the withdrawal, `pending`
 * @throws ApiError, in this order: `withdrawals_locked`; `kyc_required` (live without approved KYC);
 *   `resource_not_found` (foreign or deleted payout key); `payout_key_cooling_off` (a key added less than 24 h ago,
 *   other than the seller's own CPF/CNPJ); `acquirer_not_configured` (no acquirer for the mode); `insufficient_funds`
 */
export async function createWithdrawal(
  deps: UseCaseDeps,
  actor: { sellerId: string },
  input: CreateWithdrawalInput,
  options: { alsoWrite?: (withdrawal: WithdrawalWithKey) => SqlWrite | undefined } = {},
): Promise<WithdrawalWithKey> {
  const now = deps.now();
  const { withdrawal, deliveryIds } = await inTransaction(deps.db, async (tx) => {
    const seller = await lockSellerForWithdrawal(tx, actor.sellerId);
    if (!seller) throw new ApiError("resource_not_found", "No such seller.");
    if (seller.withdrawals_locked_until !== null && seller.withdrawals_locked_until > now) {
      throw new ApiError(
        "withdrawals_locked",
        `Withdrawals are locked until ${seller.withdrawals_locked_until.toISOString()} after a two-factor recovery.`,
      );
    }
    if (input.mode === "live" && seller.kyc_status !== "approved") {
      throw new ApiError("kyc_required", "Live withdrawals need an approved verification (KYC).");
    }
    const key = await findPayoutKey(tx, actor.sellerId, input.payout_key_id);
    assertPayoutKeyCooledOff(key, now);
    const acquirer = await requireAcquirer(deps, input.mode, "payouts");
    const id = newId("withdrawal", now.getTime());
    await insertWithdrawal(tx, {
      id,
      seller_id: actor.sellerId,
      mode: input.mode,
      amount: input.amount,
      payout_key_id: key.id,
      acquirer_id: acquirer.acquirerId,
      created_at: now,
      updated_at: now,
    });
    await appendBalanceTransaction(tx, {
      sellerId: actor.sellerId,
      mode: input.mode,
      type: "withdrawal",
      amount: -input.amount,
      sourceId: id,
      reservedDelta: input.amount,
      now,
    });
    const ids = await recordWithdrawalEvent(tx, id, "withdrawal.created", now);
    const created = await findWithdrawalWithPayoutKeyOrThrow(tx, id);
    await runIdempotencyReplyWrite(tx, options.alsoWrite?.(created));
    return { withdrawal: created, deliveryIds: ids };
  });
  await enqueueDeliveries(deps, deliveryIds);
  await enqueueWithdrawalSubmissions(deps, [withdrawal.id]);
  return withdrawal;
}

/** Body of a test-mode withdrawal requested with an API key: `payout_key_id` defaults to the seller's own-document key. */
export interface TestWithdrawalInput {
  /** Centavos, at least 1. */
  amount: number;
  payout_key_id?: string;
}

/**
 * A withdrawal requested with a test API key (DESIGN §12: `lm trigger withdrawal.completed` works through the public
 * API): the panel's withdrawal with the same rules (balance, lock, cooling-off), in test mode. Without
 * `payout_key_id` it goes to the seller's CPF/CNPJ payout key, the seller's own document, which needs no cooling-off.
 * Live withdrawals stay in the panel, behind a step-up: an API key alone must never be able to empty a balance.
 * @throws ApiError `test_mode_only` for a live key; `invalid_state` when no payout key was given and the seller has
 *   none to its own document; and {@link createWithdrawal}'s errors
 */
export async function createTestWithdrawal(
  deps: UseCaseDeps,
  scope: MerchantScope,
  input: TestWithdrawalInput,
  options: { alsoWrite?: (withdrawal: WithdrawalWithKey) => SqlWrite | undefined } = {},
): Promise<WithdrawalWithKey> {
  if (scope.mode !== "test") {
    throw new ApiError(
      "test_mode_only",
      "An API key can request test withdrawals only; live withdrawals are requested in the panel " +
        "(POST /v1/me/withdrawals), behind a step-up.",
    );
  }
  const { sellerId } = await merchantSellerScope(deps.db, scope);
  let payoutKeyId = input.payout_key_id;
  if (payoutKeyId === undefined) {
    const keys = await listActivePayoutKeysOfSeller(deps.db, sellerId);
    payoutKeyId = keys.find(isOwnDocumentKey)?.id;
    if (payoutKeyId === undefined) {
      throw new ApiError(
        "invalid_state",
        "This seller has no payout key to its own CPF/CNPJ: add one in the panel (POST /v1/me/payout-keys, type " +
          "cpf or cnpj), or give payout_key_id.",
        { param: "payout_key_id" },
      );
    }
  }
  return createWithdrawal(
    deps,
    { sellerId },
    { amount: input.amount, payout_key_id: payoutKeyId, mode: "test" },
    options,
  );
}

/**
 * Fails `withdrawalId` with `reason` and puts its amount back (`withdrawal_reversal`), inside `tx`.
 * @returns the deliveries to enqueue, or null when it was already settled
 */
async function failWithdrawal(
  tx: Prisma.TransactionClient,
  withdrawalId: string,
  failure: { reason: string; endToEndId?: string },
  now: Date,
): Promise<string[] | null> {
  const failed = { reason: failure.reason, endToEndId: failure.endToEndId ?? null };
  if (!(await markWithdrawalFailed(tx, withdrawalId, failed, now))) return null;
  const withdrawal = await findWithdrawalOrThrow(tx, withdrawalId);
  await appendBalanceTransaction(tx, {
    sellerId: withdrawal.seller_id,
    mode: withdrawal.mode,
    type: "withdrawal_reversal",
    amount: withdrawal.amount,
    sourceId: withdrawal.id,
    reservedDelta: -withdrawal.amount,
    now,
  });
  return recordWithdrawalEvent(tx, withdrawalId, "withdrawal.failed", now);
}

/**
 * Sends withdrawal `withdrawalId` to its mode's acquirer unless it was accepted or settled already.
 * @returns `sent`, `failed` (attempts exhausted) or `skipped`
 * @throws Error the acquirer's error while attempts remain (the job fails; the reconciler offers it again)
 */
export async function submitWithdrawal(deps: UseCaseDeps, withdrawalId: string): Promise<string> {
  const withdrawal = await findWithdrawalWithPayoutKey(deps.db, withdrawalId);
  if (
    !withdrawal ||
    withdrawal.end_to_end_id !== null ||
    (withdrawal.status !== "pending" && withdrawal.status !== "processing")
  ) {
    return "skipped";
  }
  const now = deps.now();
  const { status } = withdrawal;
  const claimed = await inTransaction(deps.db, async (tx) => {
    if (!(await claimOutgoingRowRequest(tx, "withdrawals", { ...withdrawal, status }, now))) return null;
    return status === "pending" ? recordWithdrawalEvent(tx, withdrawal.id, "withdrawal.processing", now) : [];
  });
  if (claimed === null) return "skipped";
  await enqueueDeliveries(deps, claimed);
  return attemptAcquirerRequest(deps, {
    kind: "withdrawal",
    id: withdrawal.id,
    attempt: withdrawal.submit_attempts + 1,
    async send() {
      const acquirer = await acquirerOfRow(deps, withdrawal.acquirer_id, withdrawal.mode);
      if (!acquirer) throw new Error(`no acquirer moves ${withdrawal.mode} money`);
      const { payout_key: key } = withdrawal;
      const value = key.key ?? (await sellerDocumentDigits(deps.db, deps.config.encryptionKey, withdrawal.seller_id));
      const { endToEndId } = await acquirer.sendPixPayment({
        withdrawalId: withdrawal.id,
        key: { type: key.type, value },
        amount: withdrawal.amount,
        createdAt: withdrawal.created_at,
      });
      return endToEndId;
    },
    accepted: (endToEndId) => recordOutgoingRowAccepted(deps.db, "withdrawals", withdrawal.id, endToEndId),
    refused: (message) => recordOutgoingRowSubmitError(deps.db, "withdrawals", withdrawal.id, message),
    fail: (tx, reason) => failWithdrawal(tx, withdrawal.id, { reason }, deps.now()),
  });
}

/**
 * Applies the acquirer's `outcome` for a withdrawal inside `tx` (the caller writes the inbox item's outcome in it).
 * @param reporter - the notifying acquirer: only the one asked to send the payout reports on it
 */
export async function settleWithdrawal(
  tx: Prisma.TransactionClient,
  outcome: PayoutOutcome,
  reporter: Reporter,
  now: Date,
): Promise<Settlement & { withdrawalId?: string }> {
  const withdrawal = await findWithdrawalById(tx, outcome.withdrawalId);
  if (!withdrawal) return { result: "unknown_withdrawal", error: "unknown_withdrawal", deliveryIds: [] };
  const base = { withdrawalId: withdrawal.id, deliveryIds: [] };
  const refused = reporterAnomaly(reporter, withdrawal, "withdrawal");
  if (refused !== null) return { ...base, ...refused };
  if (outcome.amount !== withdrawal.amount) {
    return {
      ...base,
      result: "amount_mismatch",
      error: `amount_mismatch: expected ${withdrawal.amount}, received ${outcome.amount}`,
    };
  }
  if (outcome.status === "processing") return { ...base, result: "processing", error: null };
  let deliveryIds: string[] | null;
  if (outcome.status === "succeeded") {
    deliveryIds = null;
    if (await markWithdrawalCompleted(tx, withdrawal.id, outcome.endToEndId, now)) {
      await releaseReserved(tx, {
        sellerId: withdrawal.seller_id,
        mode: withdrawal.mode,
        amount: withdrawal.amount,
        now,
      });
      deliveryIds = await recordWithdrawalEvent(tx, withdrawal.id, "withdrawal.completed", now);
    }
  } else {
    deliveryIds = await failWithdrawal(
      tx,
      withdrawal.id,
      { reason: ACQUIRER_REJECTED, endToEndId: outcome.endToEndId },
      now,
    );
  }
  if (deliveryIds === null) {
    return alreadySettled(base, outcome.status, (await findWithdrawalOrThrow(tx, withdrawal.id)).status);
  }
  return { ...base, result: outcome.status === "succeeded" ? "completed" : "failed", error: null, deliveryIds };
}
