/**
 * The schedule of a repeatable sweep (DESIGN §10 "Sweeps": never two ticks of the same sweep at once). Every worker
 * process consumes the sweep queues with `WORKER_CONCURRENCY`, and the reconciler's queue also takes `reconcile-now-*`
 * runs, so without a bound two ticks would overlap: on one worker, or on several. BullMQ's global concurrency of 1,
 * kept in Redis beside the queue, lets one job of the queue be active at a time across every worker; the others wait.
 */
import type { Queue } from "bullmq";

/**
 * Bounds queue `queue` to one active job across every worker, then upserts its job scheduler `name` (a job every
 * `everyMs`). Idempotent: every worker runs it at start and every few seconds, which also restores both after a Redis
 * flush.
 */
export async function upsertSweepSchedule(queue: Queue, name: string, everyMs: number): Promise<void> {
  await queue.setGlobalConcurrency(1);
  await queue.upsertJobScheduler(name, { every: everyMs }, { name, data: {} });
}
