/**
 * Starts one BullMQ `Worker` per queue that has a processor, and schedules the repeatable jobs (the reconciler and
 * the key revocation).
 */
import { Worker } from "bullmq";
import { KEY_REVOCATION_INTERVAL_MS, RECONCILER_INTERVAL_MS, type QueueName } from "@lm/queue";
import type { WorkerDeps } from "./deps";
import { PROCESSORS, type Processor } from "./processors";

/** The repeatable jobs and how often each runs, ms. */
const SCHEDULES = [
  { queue: "reconciler", every: RECONCILER_INTERVAL_MS },
  { queue: "key-revocation", every: KEY_REVOCATION_INTERVAL_MS },
] as const satisfies ReadonlyArray<{ queue: QueueName; every: number }>;

/** Running workers; `close()` lets running jobs finish, then stops. */
export interface RunningWorkers {
  queues: QueueName[];
  close(): Promise<void>;
}

/**
 * Starts consuming every queue of {@link PROCESSORS} with `WORKER_CONCURRENCY` jobs at once per queue, and upserts the
 * job schedulers of {@link SCHEDULES} (idempotent: any number of workers may run this).
 */
export async function startWorkers(deps: WorkerDeps): Promise<RunningWorkers> {
  const entries = Object.entries(PROCESSORS) as Array<[QueueName, Processor<QueueName>]>;
  const workers = entries.map(([name, processor]) => {
    const worker = new Worker(name, async (job) => processor(deps, job.data), {
      connection: deps.redis,
      prefix: deps.config.queuePrefix,
      concurrency: deps.config.workerConcurrency,
    });
    worker.on("failed", (job, err) => {
      deps.logger.error("job failed", { queue: name, job_id: job?.id, err });
    });
    worker.on("error", (err) => deps.logger.error("worker error", { queue: name, err }));
    return worker;
  });
  const schedule = () =>
    Promise.all(
      SCHEDULES.map(({ queue, every }) =>
        deps.producer.queue(queue).upsertJobScheduler(queue, { every }, { name: queue, data: {} }),
      ),
    );
  await schedule();
  // Schedulers live in Redis: re-upserting them (idempotent) brings the jobs back after Redis lost its keys.
  const keepScheduled = setInterval(() => {
    schedule().catch((err: unknown) => deps.logger.warn("job scheduling failed", { err }));
  }, RECONCILER_INTERVAL_MS);
  keepScheduled.unref();
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  const queues = entries.map(([name]) => name);
  deps.logger.info("worker consuming", { queues, concurrency: deps.config.workerConcurrency });
  return {
    queues,
    async close() {
      clearInterval(keepScheduled);
      await Promise.all(workers.map((w) => w.close()));
    },
  };
}
