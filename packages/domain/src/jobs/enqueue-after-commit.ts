/**
 * The one way work is handed to the queue after a database transaction commits (DESIGN §1 "Write, then enqueue").
 * The rows are the truth and are already committed, so a queue that cannot take the jobs (Redis down, flushed,
 * failing over) must not fail the caller: the failure is logged and the reconciler's sweep offers the rows again.
 */
import type { JobPayloads, QueueName } from "@lm/queue";
import type { UseCaseDeps } from "../deps";

/** One job of queue `N`: its ids-only payload, its id (the row id, so a repeat is a no-op) and an optional delay. */
export interface AfterCommitJob<N extends QueueName> {
  data: JobPayloads[N];
  /** The row's id (or a variant for a deliberate re-run, e.g. a reprocess). */
  jobId: string;
  /** Run no earlier than this many ms from now; 0 or negative runs at once. */
  delayMs?: number;
}

/**
 * Enqueues `jobs` on queue `name` in one round trip, after the rows they name have committed. Never throws: a queue
 * failure is logged at `warn` with the queue, the job count and the first job id, and the reconciler re-offers the
 * rows (deliveries when due, inbox items after a minute, charges once overdue).
 * Used by every writer: the API's use cases, the worker's next delivery attempts, operators' commands and the
 * acquirer jobs.
 * @returns whether the jobs were enqueued
 */
export async function enqueueAfterCommit<N extends QueueName>(
  deps: Pick<UseCaseDeps, "producer" | "logger">,
  name: N,
  jobs: Array<AfterCommitJob<N>>,
): Promise<boolean> {
  if (jobs.length === 0) return true;
  try {
    await deps.producer.enqueueBulk(name, jobs);
    return true;
  } catch (err) {
    deps.logger.warn("enqueue after commit failed; the reconciler will offer the rows again", {
      queue: name,
      count: jobs.length,
      job_id: jobs[0]?.jobId,
      err,
    });
    return false;
  }
}
