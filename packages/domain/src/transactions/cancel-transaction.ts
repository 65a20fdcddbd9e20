/**
 * Use case: cancel a pending charge (`POST /v1/transactions/{id}/cancel`, DESIGN §5, §9), writing
 * `transaction.canceled` and its fan-out in the same database transaction. A charge a bank registered is withdrawn
 * at the bank first, so that it can no longer be paid once we call it canceled.
 */
import { inTransaction, runIdempotencyReplyWrite, type Transaction } from "@lm/db";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { acquirerOfRow } from "../acquirers";
import { ApiError } from "../errors";
import { enqueueDeliveries } from "../events/record-event";
import { findTransaction } from "./find-transactions";
import { transitionTransaction, type TransactionWriteOptions } from "./transaction-events";

/**
 * Cancels charge `id` of `scope`.
 * @throws ApiError `resource_not_found` (unknown or foreign id); `invalid_state` when it is not pending (paid,
 *   canceled, or expired, including past `expires_at` before the expiry job ran) or its bank reports it paid;
 *   `acquirer_unavailable` or `acquirer_rejected` (502) when its bank fails or refuses the cancel
 */
export async function cancelTransaction(
  deps: UseCaseDeps,
  scope: MerchantScope,
  id: string,
  options: TransactionWriteOptions = {},
): Promise<Transaction> {
  const charge = await findTransaction(deps.db, scope, id);
  const now = deps.now();
  if (charge.acquirer_id !== null && charge.status === "pending" && charge.expires_at > now) {
    const acquirer = await acquirerOfRow(deps, charge.acquirer_id, charge.mode);
    if (acquirer === null) throw new Error(`acquirer ${charge.acquirer_id} of ${charge.id} is gone`);
    if ((await acquirer.cancelCharge(charge.txid)) === "paid") {
      throw new ApiError("invalid_state", "The bank reports this transaction paid; its payment settles it shortly.");
    }
  }
  const canceled = await inTransaction(deps.db, async (tx) => {
    const transitioned = await transitionTransaction(tx, {
      id,
      expiresAfter: now,
      data: { status: "canceled", canceled_at: now },
      type: "transaction.canceled",
      now,
    });
    if (transitioned) await runIdempotencyReplyWrite(tx, options.alsoWrite?.(transitioned.transaction));
    return transitioned;
  });
  if (!canceled) throw new ApiError("invalid_state", "Only a pending transaction can be canceled.");
  await enqueueDeliveries(deps, canceled.deliveryIds);
  return canceled.transaction;
}
