import { randomUUID } from "node:crypto";
import { Worker } from "bullmq";
import { createLogger } from "@lm/logging";
import { closeRedis, createRedis } from "@lm/queue";
import type { Redis } from "ioredis";
import { useApiTestContext } from "../support/harness";
import { closeWorkerDeps, createWorkerDeps, type WorkerDeps } from "../../../worker/src/deps";
import { MAX_JOB_TRIES, putFailedJobsBack } from "../../../worker/src/sweepers/offer-rows";

/** Bounded revival of failed jobs (issue 10 item 7): no consumers run here, the test moves jobs to `failed` itself. */
describe("reviving failed jobs", () => {
  const ctx = useApiTestContext();
  let deps: WorkerDeps;
  let scratch: Worker;
  let scratchRedis: Redis;
  beforeAll(() => {
    scratchRedis = createRedis(ctx.config.redisUrl, "worker");
    deps = createWorkerDeps(ctx.config, { logger: createLogger({ level: "error", service: "worker", silent: true }) });
    scratch = new Worker("charge-expiry", null, {
      connection: scratchRedis,
      prefix: ctx.config.queuePrefix,
      autorun: false,
    });
  });
  afterAll(async () => {
    await scratch.close();
    await closeRedis(scratchRedis);
    await closeWorkerDeps(deps);
  });

  /** Adds a job and fails it once, as a processor that threw on its last try would; then sets its tries made. */
  async function failedJob(triesMade: number): Promise<string> {
    const queue = deps.producer.queue("charge-expiry");
    const id = `txn_${randomUUID()}`;
    await queue.add("charge-expiry", { transactionId: id }, { jobId: id, attempts: 1 });
    const token = randomUUID();
    const job = await scratch.getNextJob(token);
    if (job?.id !== id) throw new Error("the scratch worker took another job");
    await job.moveToFailed(new Error("boom"), token);
    const client = await queue.client;
    await client.hset(queue.toKey(id), { atm: String(triesMade) });
    return id;
  }

  test("when a failed job has tries left, then the sweep puts it back to run again", async () => {
    const id = await failedJob(MAX_JOB_TRIES - 1);

    const revived = await putFailedJobsBack(deps, "charge-expiry");

    expect(revived).toBe(1);
    expect(await deps.producer.queue("charge-expiry").getJobState(id)).toBe("waiting");
    await deps.producer.queue("charge-expiry").remove(id);
  });

  test("when a failed job used every try, then the sweep leaves it failed for good", async () => {
    const id = await failedJob(MAX_JOB_TRIES);

    const revived = await putFailedJobsBack(deps, "charge-expiry");
    await putFailedJobsBack(deps, "charge-expiry");

    expect(revived).toBe(0);
    expect(await deps.producer.queue("charge-expiry").getJobState(id)).toBe("failed");
  });
});
