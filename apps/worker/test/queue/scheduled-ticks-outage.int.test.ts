import { createLogger } from "@lm/logging";
import { deleteQueueKeys, freePort, testConfig, uniqueQueuePrefix, waitUntil } from "@lm/testing";
import { closeWorkerDeps, createWorkerDeps, type WorkerDeps } from "../../src/deps";
import { startWorkers, type RunningWorkers } from "../../src/workers";

/**
 * A repeatable job's tick that meets a database outage ends instead of going back to the queue: BullMQ adds the next
 * tick whenever one starts, so ticks put back would pile up by one a second for the charge expiry. The outage is a
 * database address where nothing listens (real Redis, no mock).
 */
describe("scheduled ticks during a database outage", () => {
  let deps: WorkerDeps;
  let workers: RunningWorkers;
  beforeAll(async () => {
    const unreachable = `postgresql://postgres@127.0.0.1:${await freePort()}/none`;
    const config = testConfig(unreachable, { QUEUE_PREFIX: uniqueQueuePrefix() });
    deps = createWorkerDeps(config, { logger: createLogger({ level: "error", service: "worker", silent: true }) });
    workers = await startWorkers(deps);
  });
  afterAll(async () => {
    await workers?.close();
    await closeWorkerDeps(deps);
    await deleteQueueKeys(deps.config.redisUrl, deps.config.queuePrefix);
  });

  test("when the charge-expiry sweep cannot reach PostgreSQL for seconds, then its ticks do not pile up", async () => {
    const queue = deps.producer.queue("charge-expiry");
    const ticksDone = async () => {
      const scheduler = await queue.getJobScheduler("charge-expiry");
      return scheduler?.iterationCount ?? 0;
    };
    await waitUntil("five ticks have started", async () => (await ticksDone()) >= 5, { timeoutMs: 15_000 });

    const counts = await queue.getJobCounts("waiting", "delayed", "active", "prioritized");

    // The next tick, and at most the one running now.
    expect(Object.values(counts).reduce((sum, n) => sum + n, 0)).toBeLessThanOrEqual(2);
  });
});
