/**
 * Reconciler sweep of webhook deliveries (DESIGN §1 "Write, then enqueue"): every `pending` delivery whose time has
 * come is offered to the queue as its job (`deliveryJob`: the job id names the row). BullMQ ignores an id it still holds, so a row whose job is
 * waiting, delayed or running is untouched, while a row whose job was lost (a crash between commit and enqueue, a
 * Redis flush) gets one again.
 */
import { deliveryJob } from "@lm/domain";
import type { WorkerDeps } from "../deps";
import { offerRows, putFailedJobsBack } from "./offer-rows";

/** Rows read and offered per round trip. */
const BATCH_SIZE = 1000;

/**
 * Offers every due pending delivery to the `webhook-delivery` queue. Failed jobs of that queue (a processor that
 * threw, e.g. on a database outage) are put back first: while a failed job keeps a row's id, the offer of that row
 * would be ignored.
 * @returns how many due rows were offered (rows already queued included)
 */
export async function enqueueDueDeliveries(deps: WorkerDeps): Promise<number> {
  await putFailedJobsBack(deps, "webhook-delivery");
  const now = deps.now();
  let offered = 0;
  let after: string | undefined;
  for (;;) {
    const due = await deps.db.webhookDelivery.findMany({
      where: { status: "pending", scheduled_at: { lte: now }, ...(after === undefined ? {} : { id: { gt: after } }) },
      select: { id: true },
      orderBy: { id: "asc" },
      take: BATCH_SIZE,
    });
    if (due.length === 0) return offered;
    offered += await offerRows(
      deps,
      "webhook-delivery",
      due.map(({ id }) => deliveryJob(id)),
    );
    after = due[due.length - 1]?.id;
  }
}
