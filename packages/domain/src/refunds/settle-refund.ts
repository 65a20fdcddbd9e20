/**
 * Settling a refund (DESIGN §7): the acquirer's outcome, read from a stored inbound notification (the BCB webhook's
 * `devolucoes`), moves it from `pending`/`processing` to `succeeded` (its amount leaves `reserved`; when the charge's
 * succeeded refunds reach its amount, the charge turns `refunded` with `transaction.refunded`) or to `failed` (a
 * `refund_reversal` puts the amount back in `available` and the charge's remainder grows again). Each move is a
 * conditional update taken under the charge row's lock, so a repeated or late outcome changes nothing.
 */
import {
  findChargeOfRefund,
  findRefundById,
  findRefundOrThrow,
  lockChargeOfRefund,
  markRefundFailed,
  markRefundSucceeded,
  sumSucceededRefundsOfCharge,
  updateCharge,
  type Prisma,
  type Refund,
} from "@lm/db";
import { ACQUIRER_REJECTED } from "../acquirers";
import { reporterAnomaly, type Reporter } from "../acquirers";
import type { RefundOutcome } from "../inbound";
import { appendBalanceTransaction, releaseReserved } from "../balance/ledger";
import { isMedDevolucao, recordDispute, type DisputeSettlement } from "../disputes/disputes";
import { recordTransactionEvent } from "../transactions/transaction-events";
import { recordRefundEvent } from "./refund-events";

/** What settling did: the inbox item's outcome and error, the charge concerned and the deliveries to enqueue. */
export interface Settlement {
  /** `succeeded`, `failed`, `processing`, `already_settled`, or the anomaly code. */
  result: string;
  /** The inbox item's error (an anomaly), or null. */
  error: string | null;
  transactionId?: string;
  deliveryIds: string[];
}

/**
 * The outcome of a repeated or late notification for a refund or withdrawal already settled: nothing changes, but an
 * outcome that contradicts the stored one (money moved after we gave up, or the other way round) is an anomaly for
 * operators (`conflicting_outcome: <stored status>`).
 * @param reported - what the acquirer reports now; `stored` - the row's final status
 */
export function alreadySettled<T extends { deliveryIds: string[] }>(
  base: T,
  reported: "succeeded" | "failed",
  stored: string,
): T & Settlement {
  const agrees = reported === "failed" ? stored === "failed" : stored === "succeeded" || stored === "completed";
  return agrees
    ? { ...base, result: "already_settled", error: null }
    : { ...base, result: "conflicting_outcome", error: `conflicting_outcome: ${stored}` };
}

/**
 * Moves `refund` to `failed` with `failureReason`, puts its amount back (`refund_reversal`) and records
 * `refund.failed`, inside `tx`.
 * @returns the deliveries to enqueue, or null when the refund was already settled (nothing written)
 */
export async function failRefund(
  tx: Prisma.TransactionClient,
  refund: Refund,
  failure: { reason: string; returnId?: string },
  now: Date,
): Promise<string[] | null> {
  await lockChargeOfRefund(tx, refund.transaction_id);
  if (!(await markRefundFailed(tx, refund.id, { reason: failure.reason, returnId: failure.returnId ?? null }, now)))
    return null;
  const charge = await updateCharge(tx, refund.transaction_id, {
    amount_refunded: { decrement: refund.amount },
    updated_at: now,
  });
  await appendBalanceTransaction(tx, {
    sellerId: refund.seller_id,
    mode: refund.mode,
    type: "refund_reversal",
    amount: refund.amount,
    sourceId: refund.id,
    reservedDelta: -refund.amount,
    now,
  });
  const failed = await findRefundOrThrow(tx, refund.id);
  return (await recordRefundEvent(tx, failed, charge, "refund.failed", now)).deliveryIds;
}

/**
 * Moves `refund` to `succeeded`, releases its reserve and records `refund.succeeded` (and `transaction.refunded` when
 * the charge is now refunded in full), inside `tx`.
 * @returns the deliveries to enqueue, or null when the refund was already settled
 */
async function succeedRefund(
  tx: Prisma.TransactionClient,
  refund: Refund,
  returnId: string,
  now: Date,
): Promise<string[] | null> {
  await lockChargeOfRefund(tx, refund.transaction_id);
  if (!(await markRefundSucceeded(tx, refund.id, returnId, now))) return null;
  await releaseReserved(tx, { sellerId: refund.seller_id, mode: refund.mode, amount: refund.amount, now });
  const succeeded = await findRefundOrThrow(tx, refund.id);
  let charge = await findChargeOfRefund(tx, refund.transaction_id);
  const deliveryIds = (await recordRefundEvent(tx, succeeded, charge, "refund.succeeded", now)).deliveryIds;
  // The charge row is locked, so this sum sees every refund of the charge that succeeded before this one.
  const refunded = await sumSucceededRefundsOfCharge(tx, charge.id);
  if (charge.status === "paid" && refunded === charge.amount) {
    charge = await updateCharge(tx, charge.id, { status: "refunded", updated_at: now });
    deliveryIds.push(...(await recordTransactionEvent(tx, charge, "transaction.refunded", now)).deliveryIds);
  }
  return deliveryIds;
}

/**
 * Applies the acquirer's `outcome` for a devolução, inside `tx` (the inbox item's outcome is written in the same
 * transaction by the caller): one of our refunds settles; one we did not ask for is recorded as a dispute.
 * @param reporter - the notifying acquirer: only the one that holds the charge's money reports on its refunds
 */
export async function settleRefund(
  tx: Prisma.TransactionClient,
  outcome: RefundOutcome,
  reporter: Reporter,
  now: Date,
): Promise<DisputeSettlement> {
  // A devolução we did not ask for is the payer's bank taking money back (MED): a dispute (DESIGN §11).
  const refund = isMedDevolucao(outcome) ? null : await findRefundById(tx, outcome.refundId);
  if (!refund) return recordDispute(tx, outcome, reporter, now);
  const base = { transactionId: refund.transaction_id, deliveryIds: [] };
  const { acquirer_id } = await findChargeOfRefund(tx, refund.transaction_id);
  const refused = reporterAnomaly(reporter, { mode: refund.mode, acquirer_id }, "refund");
  if (refused !== null) return { ...base, ...refused };
  if (outcome.amount !== refund.amount) {
    return {
      ...base,
      result: "amount_mismatch",
      error: `amount_mismatch: expected ${refund.amount}, received ${outcome.amount}`,
    };
  }
  if (outcome.status === "processing") return { ...base, result: "processing", error: null };
  const deliveryIds =
    outcome.status === "succeeded"
      ? await succeedRefund(tx, refund, outcome.returnId, now)
      : await failRefund(tx, refund, { reason: ACQUIRER_REJECTED, returnId: outcome.returnId }, now);
  if (deliveryIds === null)
    return alreadySettled(base, outcome.status, (await findRefundOrThrow(tx, refund.id)).status);
  return { ...base, result: outcome.status, error: null, deliveryIds };
}
