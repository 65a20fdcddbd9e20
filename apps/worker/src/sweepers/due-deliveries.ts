/**
 * Offering due webhook deliveries to the queue (DESIGN §1 "Write, then enqueue", §10 "Sweeps"), {@link PAGE_SIZE} at a
 * time: every `pending` delivery whose time has come, as its job (`deliveryJob`: the job id names the row, or the event
 * of a fan-out's first attempts, which share one). BullMQ ignores an id it still holds, so a row whose job is waiting,
 * delayed or running is untouched, while a row whose job was lost (a crash between commit and enqueue, a Redis flush)
 * gets one again. A row that waits for its time (a retry hours away) is not read: its delayed job holds it, and if that
 * job is lost the row is offered once due.
 */
import { deliveryJobs } from "@lm/domain";
import type { WorkerDeps } from "../deps";
import { offerRows, putFailedJobsBack } from "./offer-rows";

/** Rows read and offered per round trip. */
const PAGE_SIZE = 1000;

/**
 * The reconciler's sweep: offers every due pending delivery to the `webhook-delivery` queue, each read once. Failed
 * jobs of that queue (a processor that threw, e.g. on a database outage) are put back first: while a failed job keeps a
 * row's id, the offer of that row would be ignored.
 * @returns how many due rows were offered (rows already queued included)
 */
export async function enqueueDueDeliveries(deps: WorkerDeps): Promise<number> {
  await putFailedJobsBack(deps, "webhook-delivery");
  let offered = 0;
  await deps.repos.deliveries.forEachDueDeliveryPage(deps.now(), PAGE_SIZE, async (due) => {
    await offerRows(deps, "webhook-delivery", deliveryJobs(due));
    offered += due.length;
  });
  return offered;
}
