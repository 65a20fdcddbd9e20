/**
 * The step every enqueueing sweep shares (DESIGN §1 "Write, then enqueue"): offer rows to their queue with
 * `jobId` = the row id. BullMQ ignores an id it still holds, so a row whose job is waiting, delayed or running is
 * untouched, while a row whose job was lost gets one again. A failed job also keeps its id, and would make the offer a
 * no-op, so a sweep first puts its queue's failed jobs back with {@link putFailedJobsBack}.
 */
import { JOB_ATTEMPTS, type QueuedJob, type QueueName } from "@lm/queue";
import type { WorkerDeps } from "../deps";

/**
 * Tries a job may have in all, across revivals: {@link JOB_ATTEMPTS} per run, so 4 runs. A job failed after them is
 * left failed for good (a job that can never succeed must not be retried forever); its id stays
 * taken, so the sweeps' offers of its row are no-ops. Jobs that only met a database or Redis outage are not counted
 * (the worker delays them without a failed try), so an outage never uses this up.
 */
export const MAX_JOB_TRIES = JOB_ATTEMPTS * 4;

/** Failed jobs read per round trip. */
const PAGE = 500;

/**
 * Moves the failed jobs of queue `name` (of each of its shards) that have tries left back to waiting, to be run again
 * (the worker logs a job that failed its last try as given up).
 * @returns how many jobs were put back
 */
export async function putFailedJobsBack(deps: Pick<WorkerDeps, "producer">, name: QueueName): Promise<number> {
  let revived = 0;
  for (const queue of deps.producer.shards(name)) {
    let start = 0;
    for (;;) {
      const failed = await queue.getFailed(start, start + PAGE - 1);
      let kept = 0;
      for (const job of failed) {
        if (job.attemptsMade < MAX_JOB_TRIES) {
          await job.retry("failed");
          revived += 1;
        } else {
          kept += 1;
        }
      }
      // Retried jobs left the failed set, so the kept ones of this page now sit just after those of earlier pages:
      // the next page starts after all of them. (Starting at this page's count alone reread one page of kept jobs
      // forever once a queue held a page of them.)
      start += kept;
      if (failed.length < PAGE) break;
    }
  }
  return revived;
}

/**
 * Offers rows to queue `name` as their jobs, whose ids name the rows (the row id; for deliveries, see `deliveryJob`).
 * @param jobs - the rows' jobs: payload, id and, for the delivery queue, destination
 * @returns how many jobs were offered
 */
export async function offerRows<N extends QueueName>(
  deps: Pick<WorkerDeps, "producer" | "metrics">,
  name: N,
  jobs: Array<QueuedJob<N> & { jobId: string }>,
): Promise<number> {
  const missing = await deps.producer.countMissingJobs(name, jobs);
  deps.metrics.reconcilerRevivals.inc({ queue: name }, missing);
  await deps.producer.enqueueBulk(name, jobs);
  return jobs.length;
}
