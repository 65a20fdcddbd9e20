/**
 * The step every enqueueing sweep shares (DESIGN §1 "Write, then enqueue"): offer rows to their queue with
 * `jobId` = the row id. BullMQ ignores an id it still holds, so a row whose job is waiting, delayed or running is
 * untouched, while a row whose job was lost gets one again. A failed job also keeps its id, and would make the offer a
 * no-op, so a sweep first puts its queue's failed jobs back with {@link putFailedJobsBack}.
 */
import type { JobPayloads, QueueName } from "@lm/queue";
import type { WorkerDeps } from "../deps";

/** Moves every failed job of queue `name` back to waiting, to be run again. */
export async function putFailedJobsBack(deps: Pick<WorkerDeps, "producer">, name: QueueName): Promise<void> {
  await deps.producer.queue(name).retryJobs({ state: "failed" });
}

/**
 * Offers the rows `ids` to queue `name`, each as a job whose id is the row id.
 * @param data - the job payload of a row id
 * @returns how many rows were offered
 */
export async function offerRows<N extends QueueName>(
  deps: Pick<WorkerDeps, "producer" | "metrics">,
  name: N,
  ids: string[],
  data: (id: string) => JobPayloads[N],
): Promise<number> {
  deps.metrics.reconcilerRevivals.inc({ queue: name }, await deps.producer.countMissingJobs(name, ids));
  await deps.producer.enqueueBulk(name, ids.map((id) => ({ data: data(id), jobId: id })));
  return ids.length;
}
