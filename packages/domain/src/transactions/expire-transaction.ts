/**
 * Expiry of charges (DESIGN §5): a pending charge becomes `expired` at `expires_at`. The worker's repeatable
 * `charge-expiry` job sweeps the due charges every second ({@link expireDueTransactions}); reads already show
 * `expired` in between (see `serializeTransaction`). No job is held per charge: Redis would otherwise keep one delayed
 * job for every pending charge for its whole `expires_in` (24 h by default), memory in proportion to the charges
 * waiting to be paid, and every creation would pay a Redis round trip for it (issue 14).
 */
import { inTransaction, Prisma } from "@lm/db";
import type { UseCaseDeps } from "../deps";
import { enqueueDeliveries } from "../events/record-event";
import { transitionTransaction } from "./transaction-events";

/** Charges expired in one database transaction; the sweep commits and enqueues their deliveries per batch. */
const EXPIRY_BATCH_SIZE = 100;

/** Most charges one sweep expires; the next sweep, a second later, takes the rest (oldest first). */
export const MAX_CHARGES_PER_EXPIRY_SWEEP = 1_000;

/**
 * Expires pending charges whose `expires_at` has passed, oldest first, each with its `transaction.expired` event and
 * fan-out written in the same database transaction, and enqueues their deliveries after each batch commits.
 *
 * Each batch locks its charges with `FOR UPDATE SKIP LOCKED`, so sweeps running at once (several workers, a sweep
 * slower than its period) take disjoint charges, and a charge being paid or canceled at that moment is left to the
 * next sweep; every change is still the conditional update of {@link transitionTransaction}, so a charge that left
 * `pending` meanwhile is skipped.
 * @param maxCharges - stop after about this many (whole batches); defaults to {@link MAX_CHARGES_PER_EXPIRY_SWEEP}
 * @returns how many charges this call expired
 */
export async function expireDueTransactions(
  deps: UseCaseDeps,
  maxCharges = MAX_CHARGES_PER_EXPIRY_SWEEP,
): Promise<number> {
  let expiredCount = 0;
  while (expiredCount < maxCharges) {
    const now = deps.now();
    const limit = Math.min(EXPIRY_BATCH_SIZE, maxCharges - expiredCount);
    const { expired, due } = await inTransaction(deps.db, async (tx) => {
      const rows = await tx.$queryRaw<Array<{ id: string; expires_at: Date }>>(Prisma.sql`
        SELECT id, expires_at FROM transactions
        WHERE status = 'pending' AND expires_at <= ${now}
        ORDER BY expires_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED`);
      const transitioned = [];
      for (const row of rows) {
        const changed = await transitionTransaction(tx, {
          id: row.id,
          data: { status: "expired", expired_at: row.expires_at },
          type: "transaction.expired",
          now,
        });
        if (changed) transitioned.push(changed);
      }
      return { expired: transitioned, due: rows.length };
    });
    await enqueueDeliveries(
      deps,
      expired.flatMap((e) => e.deliveryIds),
    );
    expiredCount += expired.length;
    if (due < limit) break;
  }
  return expiredCount;
}
