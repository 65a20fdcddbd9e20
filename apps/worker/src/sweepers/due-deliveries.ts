/**
 * Offering due webhook deliveries to the queue (DESIGN §1 "Write, then enqueue"), in pages of {@link PAGE_SIZE}: every
 * `pending` delivery whose time has come, as its job (`deliveryJob`: the job id names the row). BullMQ ignores an id it
 * still holds, so a row whose job is waiting, delayed or running is untouched, while a row whose job was lost (a crash
 * between commit and enqueue, a Redis flush) gets one again. Two callers: the reconciler's sweep of every row, and a
 * recovery's job, which pages the rows one recovery wrote (DESIGN §8 "Recover").
 */
import { findWebhookDeliveryEndpointId, listPendingDeliveryIdsPage, type PendingDeliveryScope } from "@lm/db";
import { deliveryJob } from "@lm/domain";
import type { WorkerDeps } from "../deps";
import { offerRows, putFailedJobsBack } from "./offer-rows";

/** Rows read and offered per round trip. */
const PAGE_SIZE = 1000;

/**
 * The ids of the pending deliveries in `scope` whose job was not given up, a page at a time, in id order (see
 * `listPendingDeliveryIdsPage`: each pending row is read once a sweep).
 */
async function* pendingDeliveryPages(
  deps: Pick<WorkerDeps, "db">,
  scope: PendingDeliveryScope,
): AsyncGenerator<string[]> {
  let after = "";
  for (;;) {
    const due = await listPendingDeliveryIdsPage(deps.db, scope, after, PAGE_SIZE);
    if (due.length === 0) return;
    yield due;
    after = due[due.length - 1] ?? after;
  }
}

/**
 * The reconciler's sweep: offers every due pending delivery to the `webhook-delivery` queue. Failed jobs of that queue
 * (a processor that threw, e.g. on a database outage) are put back first: while a failed job keeps a row's id, the
 * offer of that row would be ignored.
 * @returns how many due rows were offered (rows already queued included)
 */
export async function enqueueDueDeliveries(deps: WorkerDeps): Promise<number> {
  await putFailedJobsBack(deps, "webhook-delivery");
  let offered = 0;
  for await (const ids of pendingDeliveryPages(deps, { dueBy: deps.now() })) {
    offered += await offerRows(
      deps,
      "webhook-delivery",
      ids.map((id) => deliveryJob(id)),
    );
  }
  return offered;
}

/**
 * A recovery's job: enqueues the chains a recovery wrote for one endpoint, from its first delivery row on (the rows of
 * one recovery share its time, so their ids follow the first's). Idempotent: rows already queued are no-ops, and a
 * newer pending manual chain of the same endpoint enqueued along the way (another recovery, a resend) is due at once
 * too. If this job is lost, the reconciler's sweep above offers the same rows, which are due at once.
 * @param firstDeliveryId - the smallest delivery id the recovery wrote
 * @returns how many rows were enqueued; 0 when the row is gone or not an endpoint's
 */
export async function enqueueRecoveredDeliveries(
  deps: Pick<WorkerDeps, "db" | "producer">,
  firstDeliveryId: string,
): Promise<number> {
  const endpointId = await findWebhookDeliveryEndpointId(deps.db, firstDeliveryId);
  if (endpointId == null) return 0;
  let enqueued = 0;
  for await (const ids of pendingDeliveryPages(deps, { endpointId, fromDeliveryId: firstDeliveryId })) {
    await deps.producer.enqueueBulk(
      "webhook-delivery",
      ids.map((id) => deliveryJob(id)),
    );
    enqueued += ids.length;
  }
  return enqueued;
}
