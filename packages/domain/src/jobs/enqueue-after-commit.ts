/**
 * The one way work is handed to the queue after a database transaction commits (DESIGN §1 "Write, then enqueue").
 * The rows are the truth and are already committed, so a queue that cannot take the jobs (Redis down, flushed,
 * failing over) must not fail the caller: the failure is logged and the reconciler's sweep offers the rows again.
 */
import type { QueuedJob, QueueName } from "@lm/queue";
import type { UseCaseDeps } from "../deps";

/**
 * One job of queue `N` (`QueuedJob`: its ids-only payload, an optional delay, and for a sharded queue its
 * destination) with its id: the row's id (or a variant for a deliberate re-run, e.g. a reprocess), so a repeat is a
 * no-op.
 */
export type AfterCommitJob<N extends QueueName> = QueuedJob<N> & { jobId: string };

/**
 * Enqueues `jobs` on queue `name` (one round trip per shard they fall in), after the rows they name have committed.
 * Never throws: a queue failure is logged at `warn` with the queue, the job count and the first job id, and the
 * reconciler re-offers the rows (deliveries when due, inbox items after a minute, charges once overdue).
 * Used by every writer: the API's use cases, the worker's next delivery attempts, operators' commands and the
 * acquirer jobs.
 * @param jobs - the jobs, or what reads them (a fan-out's deliveries, whose destinations pick their shards): a read
 *   that fails is logged and covered like a failed enqueue
 * @returns whether the jobs were enqueued
 */
export async function enqueueAfterCommit<N extends QueueName>(
  deps: Pick<UseCaseDeps, "producer" | "logger">,
  name: N,
  jobs: Array<AfterCommitJob<N>> | (() => Promise<Array<AfterCommitJob<N>>>),
): Promise<boolean> {
  let toEnqueue: Array<AfterCommitJob<N>> = [];
  try {
    toEnqueue = typeof jobs === "function" ? await jobs() : jobs;
    if (toEnqueue.length > 0) await deps.producer.enqueueBulk(name, toEnqueue);
    return true;
  } catch (err) {
    deps.logger.warn("enqueue after commit failed; the reconciler will offer the rows again", {
      queue: name,
      count: toEnqueue.length,
      job_id: toEnqueue[0]?.jobId,
      err,
    });
    return false;
  }
}
