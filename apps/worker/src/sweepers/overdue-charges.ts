/**
 * Reconciler sweep of charge expiry (DESIGN §5): every pending charge whose `expires_at` has passed is offered to the
 * `charge-expiry` queue with `jobId` = its id. BullMQ ignores an id it still holds, so a charge whose delayed job
 * exists is untouched, while one whose job was lost (a crash between commit and enqueue, a Redis flush) gets one.
 */
import type { WorkerDeps } from "../deps";
import { offerRows, putFailedJobsBack } from "./offer-rows";

/** Most overdue charges offered per tick, oldest first; the next tick takes the rest. */
const BATCH_SIZE = 1000;

/**
 * Offers overdue pending charges to the `charge-expiry` queue. Failed jobs of that queue are put back first: while a
 * failed job keeps a charge's id, the offer of that charge would be ignored.
 * @returns how many charges were offered
 */
export async function enqueueOverdueCharges(deps: WorkerDeps): Promise<number> {
  await putFailedJobsBack(deps, "charge-expiry");
  const overdue = await deps.db.transaction.findMany({
    where: { status: "pending", expires_at: { lte: deps.now() } },
    select: { id: true },
    orderBy: { expires_at: "asc" },
    take: BATCH_SIZE,
  });
  return offerRows(
    deps,
    "charge-expiry",
    overdue.map(({ id }) => ({ data: { transactionId: id }, jobId: id })),
  );
}
