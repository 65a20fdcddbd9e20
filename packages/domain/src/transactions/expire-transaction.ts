/**
 * Expiry of charges (DESIGN §5): a pending charge becomes `expired` at `expires_at`. The worker's repeatable
 * `charge-expiry` job sweeps the due charges every second ({@link expireDueTransactions}); reads already show
 * `expired` in between (see `serializeTransaction`). No job is held per charge: Redis would otherwise keep one delayed
 * job for every pending charge for its whole `expires_in` (24 h by default), memory in proportion to the charges
 * waiting to be paid, and every creation would pay a Redis round trip for it.
 */
import { expireCharges, findDueCharges, type Transaction } from "@lm/db";
import type { UseCaseDeps } from "../deps";
import { enqueueDeliveries } from "../events/record-event";
import { planTransactionEvents } from "./transaction-events";

/** Charges expired by one statement; the sweep enqueues their deliveries after each. */
const EXPIRY_BATCH_SIZE = 200;

/** Most charges one sweep expires; the next sweep, a second later, takes the rest (oldest first). */
export const MAX_CHARGES_PER_EXPIRY_SWEEP = 2_000;

/**
 * Expires pending charges whose `expires_at` has passed, oldest first, in batches of {@link EXPIRY_BATCH_SIZE}: each
 * batch is one statement that writes the charges' change, their `transaction.expired` events and fan-out together
 * (the charge as `GET` returns it after the change), and its deliveries are enqueued after it commits. Sweeps that
 * run at once (several workers, a sweep slower than its period) may read the same charges; the conditional update
 * lets one of them expire each, and the others skip it.
 * @param maxCharges - stop after about this many (whole batches); defaults to {@link MAX_CHARGES_PER_EXPIRY_SWEEP}
 * @returns how many charges this call expired
 */
export async function expireDueTransactions(
  deps: UseCaseDeps,
  maxCharges = MAX_CHARGES_PER_EXPIRY_SWEEP,
): Promise<number> {
  let expiredCount = 0;
  for (let read = 0; read < maxCharges;) {
    const now = deps.now();
    const limit = Math.min(EXPIRY_BATCH_SIZE, maxCharges - read);
    const due = await findDueCharges(deps.db.pool, now, limit);
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
