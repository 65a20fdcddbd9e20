import { Worker } from "bullmq";
import { createLogger } from "@lm/logging";
import { deleteQueueKeys, testConfig, uniqueQueuePrefix, waitUntil } from "@lm/testing";
import { closeWorkerDeps, createWorkerDeps, type WorkerDeps } from "../../src/deps";
import { upsertSweepSchedule } from "../../src/sweepers/sweep-schedule";

/**
 * DESIGN §10 "Sweeps": never two ticks of the same sweep at once. Two workers (as two processes would: each its own
 * BullMQ `Worker`, each with a concurrency of 4) consume the reconciler's queue while its scheduler ticks every 50 ms
 * and `reconcile-now-*` runs are added; each tick takes 80 ms. Real Redis; the tick records when it runs.
 */
describe("ticks of one sweep across workers", () => {
  let deps: WorkerDeps;
  const workers: Worker[] = [];
  beforeAll(() => {
    // No database is reached: the ticks here only record their time.
    const config = testConfig("postgresql://postgres@127.0.0.1:1/none", { QUEUE_PREFIX: uniqueQueuePrefix() });
    deps = createWorkerDeps(config, { logger: createLogger({ level: "error", service: "worker", silent: true }) });
  });
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.close()));
    await closeWorkerDeps(deps);
    await deleteQueueKeys(deps.config.redisUrl, deps.config.queuePrefix);
  });

  test("when two workers of concurrency 4 take scheduled ticks and reconcile-now runs, then no two ticks overlap", async () => {
    const queue = deps.producer.queue("reconciler");
    let running = 0;
    let mostAtOnce = 0;
    let ticks = 0;
    const tick = async () => {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      await new Promise((resolve) => setTimeout(resolve, 80));
      running -= 1;
      ticks += 1;
    };
    await upsertSweepSchedule(queue, "reconciler", 50);
    for (let i = 0; i < 2; i++) {
      workers.push(new Worker(queue.name, tick, { connection: deps.redis, prefix: queue.opts.prefix, concurrency: 4 }));
    }
    await queue.addBulk(
      Array.from({ length: 6 }, (_, i) => ({ name: "reconciler", data: {}, opts: { jobId: `reconcile-now-${i}` } })),
    );

    await waitUntil("ten ticks have run", () => ticks >= 10, { timeoutMs: 20_000 });

    expect(mostAtOnce).toBe(1);
  });
});
