/**
 * Reconciler sweep of the inbound inbox (DESIGN §1, §5): every item processing can still settle (a valid signature and
 * no outcome yet, or a failure of processing being retried) is offered to the `inbox-processing` queue with `jobId` =
 * its id, covering a crash between storing and enqueueing and a Redis flush. Items are offered however young: an item
 * whose own job still exists makes the offer a no-op (the job id is the item id), an item listed in another's job (the
 * receipt's shared jobs) gets a second one, and processing is idempotent, so an offer too many changes nothing, while
 * a payment whose job a Redis flush lost is processed at the next sweep (run at once after a flush).
 */
import { inboxJob } from "@lm/domain";
import type { WorkerDeps } from "../deps";
import { offerRows, putFailedJobsBack } from "./offer-rows";

/** Most items offered per tick, oldest first. */
const BATCH_SIZE = 1000;

/**
 * Offers stranded inbox items to the `inbox-processing` queue, after putting its failed jobs back (a failed job keeps
 * an item's id, which would make the offer a no-op).
 * @returns how many items were offered
 */
export async function enqueueStrandedInboxItems(deps: WorkerDeps): Promise<number> {
  await putFailedJobsBack(deps, "inbox-processing");
  const stranded = await deps.repos.inbox.findProcessableInboxItemIds(BATCH_SIZE);
  return offerRows(
    deps,
    "inbox-processing",
    stranded.map((id) => inboxJob([id])),
  );
}
