/**
 * Use case: cancel a pending charge (`POST /v1/transactions/{id}/cancel`, DESIGN §5, §9), writing
 * `transaction.canceled` and its fan-out in the same database transaction. A charge a bank registered is withdrawn
 * at the bank first, so that it can no longer be paid once we call it canceled.
 */
import type { Repositories, Transaction } from "@lm/db";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { acquirerOfRow } from "../acquirers";
import { ApiError } from "../errors";
import { enqueueDeliveries } from "../events/record-event";
import { findTransaction } from "./find-transactions";
import { recordTransactionEvent, type TransactionWriteOptions } from "./transaction-events";

/**
 * Cancels charge `id` of `scope` (a recurrence's cycle too, `scheduled` or `pending`: DESIGN §14).
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
  const charge = await findTransaction(deps.repos, scope, id);
  const now = deps.now();
  if (charge.acquirer_id !== null && charge.status === "pending" && isCancelable(charge, now)) {
    const acquirer = await acquirerOfRow(deps, charge.acquirer_id, charge.mode);
    if (acquirer === null) throw new Error(`acquirer ${charge.acquirer_id} of ${charge.id} is gone`);
    // A live recurrence's cycle is the bank's `cobr` (DESIGN §14 "Live"); any other charge its `cob` or `cobv`.
    const outcome =
      charge.type === "recurring" && acquirer.recurrences !== undefined
        ? await acquirer.recurrences.cancelCycle(charge.txid)
        : await acquirer.cancelCharge(charge.txid, charge.type === "due_date");
    if (outcome === "paid") {
      throw new ApiError("invalid_state", "The bank reports this transaction paid; its payment settles it shortly.");
    }
  }
  const canceled = await deps.repos.transaction(async (tx) => {
    const transitioned = await cancelIfPending(tx, id, now);
    if (transitioned) await tx.idempotencyKeys.storeIdempotentReply(options.reply?.(transitioned.transaction));
    return transitioned;
  });
  if (!canceled) {
    throw new ApiError(
      "invalid_state",
      "Only a pending transaction (or a recurrence's cycle not yet sent) can be canceled.",
    );
  }
  await enqueueDeliveries(deps, canceled.deliveryIds);
  return canceled.transaction;
}

/**
 * Whether a charge as locked can be canceled at `now`: pending and not expired, or a recurrence's cycle not yet paid
 * (`scheduled` or `pending`: a cycle never expires, DESIGN §14).
 */
export function isCancelable(charge: Pick<Transaction, "status" | "expires_at" | "type">, now: Date): boolean {
  if (charge.type === "recurring") return charge.status === "pending" || charge.status === "scheduled";
  return charge.status === "pending" && charge.expires_at > now;
}

/**
 * Cancels charge `id` at `now` when it is still cancelable ({@link isCancelable}), and records `transaction.canceled`.
 * The row is locked and read by id, then checked here: a `status = 'pending'` condition in the update would let the planner,
 * on statistics that counted few pending charges, read every pending charge through `(status, expires_at)` (see
 * `rowStatusIs` in `@lm/db`). Two writers cannot both win: the second waits for the first's lock and then reads the
 * changed row.
 * @param now - the time of the cancel (a test clock's, for a cycle of a recurrence that runs on one, DESIGN §14)
 * @param eventAt - the event's time, real time (events are kept in weekly partitions of it); default `now`
 * @returns the canceled charge and the deliveries to enqueue after commit, or null when it was not pending (or had
 *   expired): nothing was written
 */
export async function cancelIfPending(
  tx: Repositories,
  id: string,
  now: Date,
  eventAt: Date = now,
): Promise<{ transaction: Transaction; deliveryIds: string[] } | null> {
  const current = await tx.charges.lockChargeStatus(id);
  if (current === undefined || !isCancelable(current, now)) return null;
  const transaction = await tx.charges.markChargeCanceled(id, now);
  const { deliveryIds } = await recordTransactionEvent(tx, transaction, "transaction.canceled", eventAt);
  return { transaction, deliveryIds };
}
