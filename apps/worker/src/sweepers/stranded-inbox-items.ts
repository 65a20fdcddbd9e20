/**
 * Reconciler sweep of the inbound inbox (DESIGN §1, §5): every item with a valid signature and no outcome yet,
 * received over a few seconds ago, is offered to the `inbox-processing` queue with `jobId` = its id, covering a crash
 * between storing and enqueueing and a Redis flush. Processing is idempotent, so an offer too many changes nothing.
 */
import { INBOX_STATUS_WHERE } from "@lm/domain";
import type { WorkerDeps } from "../deps";
import { offerRows, putFailedJobsBack } from "./offer-rows";

/** Most items offered per tick, oldest first. */
const BATCH_SIZE = 1000;
/**
 * Items younger than this are left to the job enqueued at receipt, ms. Offering one early is harmless (its job id is
 * the item id, so a job that still exists makes the offer a no-op), so the grace is short: after a Redis flush a
 * payment is processed within seconds.
 */
const GRACE_MS = 5_000;

/**
 * Offers stranded inbox items to the `inbox-processing` queue, after putting its failed jobs back (a failed job keeps
 * an item's id, which would make the offer a no-op).
 * @returns how many items were offered
 */
export async function enqueueStrandedInboxItems(deps: WorkerDeps): Promise<number> {
  await putFailedJobsBack(deps, "inbox-processing");
  const stranded = await deps.db.inboxItem.findMany({
    where: {
      signature_valid: true,
      ...INBOX_STATUS_WHERE.pending,
      received_at: { lte: new Date(deps.now().getTime() - GRACE_MS) },
    },
    select: { id: true },
    orderBy: { received_at: "asc" },
    take: BATCH_SIZE,
  });
  return offerRows(deps, "inbox-processing", stranded.map(({ id }) => id), (inboxItemId) => ({ inboxItemId }));
}
