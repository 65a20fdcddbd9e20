/**
 * Refunds (Pix *devolução*, DESIGN §7 "Refunds"): the money-out lifecycle for a paid charge's money going back to its
 * payer. What a refund adds to the lifecycle is its charge: the charge's `amount_refunded` grows on creation and
 * shrinks again on failure, under the charge row's lock (so 50 concurrent refunds never refund more than was paid),
 * the charge's acquirer is the one asked (`refundPix`), its events go to the charge's `postback_url` too, and the
 * charge turns `refunded` with `transaction.refunded` once its succeeded refunds reach its amount.
 */
import type { Refund, RefundWithCharge, IdempotentReply, Repositories } from "@lm/db";
import { serializeRefund } from "@lm/wire";
import { acquirerNotConfigured, acquirerOfRow, type Reporter } from "../acquirers";
import type { RefundOutcome } from "../inbound";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { isMedDevolucao, recordDispute, type DisputeSettlement } from "../disputes/disputes";
import { ApiError } from "../errors";
import { recordEvent } from "../events/record-event";
import { newId } from "../ids";
import { findTransaction } from "../transactions/find-transactions";
import { recordTransactionEvent } from "../transactions/transaction-events";
import { createPayout } from "./create-payout";
import type { PayoutKind } from "./payout-kind";
import { settlePayoutOutcome } from "./settle-payout";
import { submitPayout } from "./submit-payout";

/** The event of each step a refund records (it has no `processing`). */
const REFUND_EVENTS = { created: "refund.created", succeeded: "refund.succeeded", failed: "refund.failed" } as const;

/** Records `refund.<step>` for `refund`, fanned out to its store's endpoints and to its charge's `postback_url`. */
async function recordRefundEvent(
  tx: Repositories,
  refund: RefundWithCharge,
  step: "created" | "succeeded" | "failed",
  now: Date,
): Promise<string[]> {
  const charge = refund.transaction;
  const recorded = await recordEvent(tx, {
    scope: { storeId: refund.store_id, mode: refund.mode },
    type: REFUND_EVENTS[step],
    object: serializeRefund(refund) as unknown as Record<string, unknown>,
    postback: { transactionId: charge.id, url: charge.postback_url },
    now,
  });
  return recorded.deliveryIds;
}

/** The refund's part of the lifecycle. */
const REFUNDS: PayoutKind<RefundWithCharge> = {
  noun: "refund",
  succeeded: "succeeded",
  recordsProcessing: false,
  find: (repos, id) => repos.refunds.findRefundWithCharge(id),
  acquirerIdOf: (refund) => refund.transaction.acquirer_id,
  async record(tx, refund, step, now) {
    if (step === "processing") return [];
    const deliveryIds = await recordRefundEvent(tx, refund, step, now);
    const charge = refund.transaction;
    if (step !== "succeeded" || charge.status !== "paid") return deliveryIds;
    // The charge row is locked, so this sum sees every refund of the charge that succeeded before this one.
    if ((await tx.refunds.sumSucceededRefundsOfCharge(charge.id)) !== charge.amount) return deliveryIds;
    const refunded = await tx.charges.markChargeRefunded(charge.id, now);
    deliveryIds.push(...(await recordTransactionEvent(tx, refunded, "transaction.refunded", now)).deliveryIds);
    return deliveryIds;
  },
  async send(deps, refund) {
    const charge = refund.transaction;
    const acquirer = await acquirerOfRow(deps, charge.acquirer_id, refund.mode);
    if (!acquirer || charge.payment_end_to_end_id === null)
      throw new Error(`no acquirer can refund this ${refund.mode} charge`);
    const { returnId } = await acquirer.refundPix({
      refundId: refund.id,
      paymentEndToEndId: charge.payment_end_to_end_id,
      txid: charge.txid,
      paymentAmount: charge.payment_amount ?? charge.amount,
      amount: refund.amount,
      reason: refund.reason,
      createdAt: refund.created_at,
    });
    return returnId;
  },
  // Settlements of the charge's refunds queue on its row, and take the balance row after it (the ledger's lock order).
  lockBeforeSettling: (tx, refund) => tx.refunds.lockChargeOfRefund(refund.transaction_id),
  async restoreOnFailure(tx, refund, now) {
    await tx.charges.subtractFromChargeAmountRefunded(refund.transaction_id, refund.amount, now);
  },
};

/** Body of a refund request. */
export interface CreateRefundInput {
  /** Centavos; default the refundable remainder. */
  amount?: number;
  /** Up to 140 characters. */
  reason?: string;
}

const notRefundable = (message: string) => new ApiError("invalid_state", message);

/**
 * Refunds `input.amount` of charge `transactionId` of `scope` (`POST /v1/transactions/{id}/refunds`). A refund without
 * an amount takes the remainder read under the charge row's lock, so it counts every refund committed before it
 * (DESIGN §11); the charge's `amount_refunded` grows by a conditional update that only succeeds while the refund fits
 * in the paid amount; then the lifecycle's reserve (`refund` balance transaction) and `refund.created`.
 * @param options.reply - the idempotent reply to store in the refund's transaction, given the refund (when its claim
 *   was taken over, nothing is written and its error is thrown)
 * @returns the refund, `pending`
 * @throws ApiError `resource_not_found` (unknown or foreign charge); `acquirer_not_configured` when no acquirer can
 *   refund it (a live charge no bank registered); `invalid_state` unless the charge is paid and the amount fits in its
 *   remainder; `insufficient_funds` when `available` is short
 */
export async function createRefund(
  deps: UseCaseDeps,
  scope: MerchantScope,
  transactionId: string,
  input: CreateRefundInput,
  options: { reply?: (refund: Refund) => IdempotentReply | undefined } = {},
): Promise<Refund> {
  const charge = await findTransaction(deps.repos, scope, transactionId);
  if ((await acquirerOfRow(deps, charge.acquirer_id, scope.mode)) === null) throw acquirerNotConfigured(scope.mode);
  if (charge.status !== "paid")
    throw notRefundable(`Only a paid transaction can be refunded; this one is ${charge.status}.`);
  const now = deps.now();
  const created = await createPayout(
    deps,
    REFUNDS,
    now,
    async (tx) => {
      // Read before this transaction, the remainder could already be spent by a concurrent refund.
      const amount = input.amount ?? (await tx.refunds.lockChargeRefundableRemainder(charge.id)) ?? 0;
      if (amount < 1) throw notRefundable("This transaction has nothing left to refund.");
      if (!(await tx.refunds.addToChargeAmountRefunded(charge.id, amount, now)))
        throw notRefundable("The amount exceeds what is left to refund of this transaction.");
      const sellerId = await tx.sellers.findSellerIdOfStore(charge.store_id);
      const refund = await tx.refunds.insertRefund({
        id: newId("refund", now.getTime()),
        transaction_id: charge.id,
        store_id: charge.store_id,
        seller_id: sellerId,
        mode: charge.mode,
        amount,
        reason: input.reason ?? null,
        created_at: now,
        updated_at: now,
      });
      return { ...refund, transaction: charge };
    },
    (refund) => options.reply?.(withoutCharge(refund)),
  );
  return withoutCharge(created);
}

/** `refund` as its own row, its charge left out. */
function withoutCharge({ transaction: _charge, ...refund }: RefundWithCharge): Refund {
  return refund;
}

/**
 * Sends refund `refundId` to its charge's acquirer unless it was accepted or settled already (worker queue
 * `refund-submission`).
 * @returns `sent`, `failed` (attempts exhausted, or the bank refused it) or `skipped`
 * @throws Error the acquirer's error while attempts remain (the job fails; the reconciler offers it again)
 */
export function submitRefund(deps: UseCaseDeps, refundId: string): Promise<string> {
  return submitPayout(deps, REFUNDS, refundId);
}

/**
 * Applies the acquirer's `outcome` for a devolução, inside `tx` (the inbox item's outcome is written in the same
 * transaction by the caller): one of our refunds settles ({@link settlePayoutOutcome}: `succeeded`, `failed`,
 * `processing`, `already_settled` or an anomaly); one we did not ask for is recorded as a dispute (DESIGN §11).
 * @param reporter - the notifying acquirer: only the one that holds the charge's money reports on its refunds
 */
export async function settleRefund(
  tx: Repositories,
  outcome: RefundOutcome,
  reporter: Reporter,
  now: Date,
): Promise<DisputeSettlement> {
  // A devolução we did not ask for is the payer's bank taking money back (MED): a dispute (DESIGN §11).
  const refund = isMedDevolucao(outcome) ? null : await tx.refunds.findRefundWithCharge(outcome.refundId);
  if (!refund) return recordDispute(tx, outcome, reporter, now);
  const report = { amount: outcome.amount, status: outcome.status, endToEndId: outcome.returnId };
  return settlePayoutOutcome(tx, REFUNDS, refund, { transactionId: refund.transaction_id }, report, reporter, now);
}
