/**
 * Expiry of charges (DESIGN §5): a pending charge becomes `expired` at `expires_at`. The worker's repeatable
 * `charge-expiry` job sweeps the due charges every second ({@link expireDueTransactions}); reads already show
 * `expired` in between (see `serializeTransaction`). No job is held per charge: Redis would otherwise keep one delayed
 * job for every pending charge for its whole `expires_in` (24 h by default), memory in proportion to the charges
 * waiting to be paid, and every creation would pay a Redis round trip for it.
 */
import type { Transaction } from "@lm/db";
import type { UseCaseDeps } from "../deps";
import { enqueueDeliveries } from "../events/record-event";
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
    const due = await deps.repos.charges.findDueCharges(dueBy, limit);
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
    const { expiredIds, deliveryIds } = await deps.repos.charges.expireCharges({
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
