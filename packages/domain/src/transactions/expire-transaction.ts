/**
 * Expiry of charges (DESIGN §5): a pending charge becomes `expired` at `expires_at`. The worker's repeatable
 * `charge-expiry` job sweeps the due charges every second ({@link expireDueTransactions}); reads already show
 * `expired` in between (see `serializeTransaction`). No job is held per charge: Redis would otherwise keep one delayed
 * job for every pending charge for its whole `expires_in` (24 h by default), memory in proportion to the charges
 * waiting to be paid, and every creation would pay a Redis round trip for it.
 */
import { expireCharges, findDueCharges, moveChargeDeadlineTo, type Transaction } from "@lm/db";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { ApiError } from "../errors";
import { enqueueDeliveries } from "../events/record-event";
import { findTransaction } from "./find-transactions";
import { isExpiredAt } from "./transaction.serializer";
import { planTransactionEvents } from "./transaction-events";

/** Charges expired by one statement; the sweep enqueues their deliveries after each. */
const EXPIRY_BATCH_SIZE = 200;

/**
 * Expires the pending charges whose `expires_at` had passed when the call started, oldest first, in batches of
 * {@link EXPIRY_BATCH_SIZE} until none is left (DESIGN §10 "Sweeps": no cap per tick, so expiry keeps up with any
 * load; ticks never overlap, so a long one only delays the next). Each batch is one statement that writes the
 * charges' change, their `transaction.expired` events and fan-out together (the charge as `GET` returns it after the
 * change), and its deliveries are enqueued after it commits. Sweeps that run at once (a test, an operator) may read the
 * same charges; the conditional update lets one of them expire each, and the others skip it.
 * @param maxCharges - stop after about this many (whole batches); default no limit
 * @returns how many charges this call expired
 */
export async function expireDueTransactions(deps: UseCaseDeps, maxCharges = Infinity): Promise<number> {
  const dueBy = deps.now();
  let expiredCount = 0;
  for (let read = 0; read < maxCharges;) {
    const now = deps.now();
    const limit = Math.min(EXPIRY_BATCH_SIZE, maxCharges - read);
    const due = await findDueCharges(deps.db.pool, dueBy, limit);
    if (due.length === 0) break;
    const events = planTransactionEvents(
      due.map((charge): Transaction => ({
        ...charge,
        status: "expired",
        expired_at: charge.expires_at,
        updated_at: now,
      })),
      "transaction.expired",
      now,
    );
    const { expiredIds, deliveryIds } = await expireCharges(deps.db.pool, {
      ids: due.map((charge) => charge.id),
      now,
      events,
    });
    await enqueueDeliveries(deps, deliveryIds);
    expiredCount += expiredIds.length;
    read += due.length;
    if (due.length < limit) break;
  }
  return expiredCount;
}

/**
 * Test mode's simulated expiration (DESIGN §12, what `lm trigger transaction.expired` needs): brings the deadline of
 * pending charge `id` to now, so that it reads as `expired` at once and the worker's expiry sweep, within about a
 * second, writes the change and its `transaction.expired` event through the same code as a real deadline.
 * @returns the charge with its new deadline (it serializes as `expired`)
 * @throws ApiError `test_mode_only` for a live key; `resource_not_found` (unknown or foreign id); `invalid_state`
 *   unless the charge is pending and not registered at a bank (a bank keeps its own deadline)
 */
export async function simulateExpiration(deps: UseCaseDeps, scope: MerchantScope, id: string): Promise<Transaction> {
  if (scope.mode !== "test") throw new ApiError("test_mode_only", "Expirations can be simulated with test keys only.");
  const transaction = await findTransaction(deps.db, scope, id);
  const now = deps.now();
  if (transaction.acquirer_id !== null) {
    throw new ApiError("invalid_state", "This transaction is registered at a bank, which keeps its deadline.");
  }
  const moved = isExpiredAt(transaction, now) ? undefined : await moveChargeDeadlineTo(deps.db.pool, id, now);
  if (moved === undefined) throw new ApiError("invalid_state", "Only a pending transaction can expire.");
  return moved;
}
