/**
 * Starts one BullMQ `Worker` per queue that has a processor, and schedules the reconciler.
 */
import { Worker } from "bullmq";
import { RECONCILER_INTERVAL_MS, type QueueName } from "@lm/queue";
import type { WorkerDeps } from "./deps";
import { PROCESSORS, type Processor } from "./processors";

/** Running workers; `close()` lets running jobs finish, then stops. */
export interface RunningWorkers {
  queues: QueueName[];
  close(): Promise<void>;
}

/**
 * Starts consuming every queue of {@link PROCESSORS} with `WORKER_CONCURRENCY` jobs at once per queue, and upserts the
 * reconciler's job scheduler (idempotent: any number of workers may run this).
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
  const scheduleReconciler = () =>
    deps.producer
      .queue("reconciler")
      .upsertJobScheduler("reconciler", { every: RECONCILER_INTERVAL_MS }, { name: "reconciler", data: {} });
  await scheduleReconciler();
  // The scheduler lives in Redis: re-upserting it (idempotent) brings the reconciler back after Redis lost its keys.
  const keepScheduled = setInterval(() => {
    scheduleReconciler().catch((err: unknown) => deps.logger.warn("reconciler scheduling failed", { err }));
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
