/**
 * Use case: cancel a pending charge (`POST /v1/transactions/{id}/cancel`, DESIGN §5), writing `transaction.canceled`
 * and its fan-out in the same database transaction.
 */
import { inTransaction, runIdempotencyReplyWrite, type Transaction } from "@lm/db";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { ApiError } from "../errors";
import { enqueueDeliveries } from "../events/record-event";
import { findTransaction } from "./find-transactions";
import { transitionTransaction, type TransactionWriteOptions } from "./transaction-events";

/**
 * Cancels charge `id` of `scope`.
 * @throws ApiError `resource_not_found` (unknown or foreign id); `invalid_state` when it is not pending (paid,
 *   canceled, or expired, including past `expires_at` before the expiry job ran)
 */
export async function cancelTransaction(
  deps: UseCaseDeps,
  scope: MerchantScope,
  id: string,
  options: TransactionWriteOptions = {},
): Promise<Transaction> {
  await findTransaction(deps.db, scope, id);
  const now = deps.now();
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
