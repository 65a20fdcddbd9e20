/**
 * Use case: refund a paid charge, in part or in full (`POST /v1/transactions/{id}/refunds`, DESIGN §7). In one
 * database transaction: a refund without an amount takes the remainder read under the charge row's lock, so it counts
 * every refund committed before it (DESIGN §11); the charge's `amount_refunded` grows by a conditional update that
 * only succeeds while the refund fits in the paid amount (the charge row's lock queues concurrent refunds, so 50 at
 * once never refund more than was paid); the amount leaves `available` for `reserved` with a `refund` balance
 * transaction (refused with `insufficient_funds` when `available` is short); the refund row and `refund.created` are
 * written. After commit the worker is asked to hand the refund to the acquirer (job id = refund id; the reconciler
 * covers a lost job).
 */
import {
  addToChargeAmountRefunded,
  findSellerIdOfStore,
  inTransaction,
  insertRefund,
  lockChargeRefundableRemainder,
  runIdempotencyReplyWrite,
  type Refund,
  type SqlWrite,
} from "@lm/db";
import { acquirerNotConfigured, acquirerOfRow } from "../acquirers";
import { appendBalanceTransaction } from "../balance/ledger";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { ApiError } from "../errors";
import { enqueueDeliveries } from "../events/record-event";
import { newId } from "../ids";
import { findTransaction } from "../transactions/find-transactions";
import { recordRefundEvent } from "./refund-events";
import { enqueueRefundSubmissions } from "./submit-refund";

/** Body of a refund request. */
export interface CreateRefundInput {
  /** Centavos; default the refundable remainder. */
  amount?: number;
  /** Up to 140 characters. */
  reason?: string;
}

const notRefundable = (message: string) => new ApiError("invalid_state", message);

/**
 * Refunds `input.amount` of charge `transactionId` of `scope`.
 * @param options.alsoWrite - a write run in the refund's transaction, given the refund (the idempotent reply's; when
 *   conditional and unmet, nothing is written and its error is thrown)
 * @returns the refund, `pending`
 * @throws ApiError `resource_not_found` (unknown or foreign charge); `acquirer_not_configured` when no acquirer can refund
 *   it (a live charge no bank registered); `invalid_state` unless the charge is paid and the amount fits in its remainder; `insufficient_funds`
 *   when `available` is short
 */
export async function createRefund(
  deps: UseCaseDeps,
  scope: MerchantScope,
  transactionId: string,
  input: CreateRefundInput,
  options: { alsoWrite?: (refund: Refund) => SqlWrite | undefined } = {},
): Promise<Refund> {
  const charge = await findTransaction(deps.db, scope, transactionId);
  if ((await acquirerOfRow(deps, charge.acquirer_id, scope.mode)) === null) throw acquirerNotConfigured(scope.mode);
  if (charge.status !== "paid")
    throw notRefundable(`Only a paid transaction can be refunded; this one is ${charge.status}.`);
  const now = deps.now();
  const { refund, deliveryIds } = await inTransaction(deps.db, async (tx) => {
    // Read before this transaction, the remainder could already be spent by a concurrent refund.
    const amount = input.amount ?? (await lockChargeRefundableRemainder(tx, charge.id)) ?? 0;
    if (amount < 1) throw notRefundable("This transaction has nothing left to refund.");
    if (!(await addToChargeAmountRefunded(tx, charge.id, amount, now)))
      throw notRefundable("The amount exceeds what is left to refund of this transaction.");
    const sellerId = await findSellerIdOfStore(tx, charge.store_id);
    const created = await insertRefund(tx, {
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
    await appendBalanceTransaction(tx, {
      sellerId,
      mode: charge.mode,
      type: "refund",
      amount: -amount,
      sourceId: created.id,
      reservedDelta: amount,
      now,
    });
    const recorded = await recordRefundEvent(tx, created, charge, "refund.created", now);
    await runIdempotencyReplyWrite(tx, options.alsoWrite?.(created));
    return { refund: created, deliveryIds: recorded.deliveryIds };
  });
  await enqueueDeliveries(deps, deliveryIds);
  await enqueueRefundSubmissions(deps, [refund.id]);
  return refund;
}
