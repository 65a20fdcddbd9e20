import { randomUUID } from "node:crypto";
import { Worker, type Job, type Queue } from "bullmq";
import { deliveryJob, newId } from "@lm/domain";
import {
  closeRedis,
  createRedis,
  isShardedQueue,
  type JobPayloads,
  type QueueName,
  type RedisClient,
  type ShardedQueueName,
} from "@lm/queue";
import { createDeliveryRow, createEndpointRow, createEventRow, createStoreRow } from "@lm/testing";
import { useApiTestContext } from "../support/harness";
import { useWorkerDeps } from "../support/worker-deps";
import { enqueueDueDeliveries } from "../../../worker/src/sweepers/due-deliveries";
import { MAX_JOB_TRIES, putFailedJobsBack } from "../../../worker/src/sweepers/offer-rows";
import { noteFailedJob } from "../../../worker/src/workers";

/**
 * Bounded revival of failed jobs (a job that can never succeed stops instead of running forever), and the give-up
 * written on the job's row (so an operator finds it there, not only in a log line): no consumers run here, the test
 * moves jobs to `failed` itself.
 */
describe("reviving failed jobs", () => {
  const ctx = useApiTestContext();
  const worker = useWorkerDeps(ctx);
  let scratchRedis: RedisClient;
  const scratches: Worker[] = [];
  beforeAll(() => {
    scratchRedis = createRedis(ctx.config.redisUrl, "worker");
  });
  afterAll(async () => {
    await Promise.all(scratches.map((scratch) => scratch.close()));
    await closeRedis(scratchRedis);
  });

  /**
   * Adds a job to `queue` (for a sharded queue, the shard of `destination` or of its id) and fails it once with `err`,
   * as a processor that threw on its last try would; then sets its tries made.
   */
  async function failedJob<N extends QueueName>(
    name: N,
    data: JobPayloads[N],
    id: string,
    triesMade: number,
    err = new Error("boom"),
    destination = "",
  ): Promise<Job> {
    const queue: Queue = isShardedQueue(name)
      ? worker.current.producer.queueFor(name, name === "webhook-delivery" ? destination : id)
      : worker.current.producer.queue(name as Exclude<QueueName, ShardedQueueName>);
    const scratch = new Worker(queue.name, null, {
      connection: scratchRedis,
      prefix: ctx.config.queuePrefix,
      autorun: false,
    });
    scratches.push(scratch);
    // One try per run, so that the failure below fails the job instead of retrying it.
    await queue.add(name, data, { jobId: id, attempts: 1 });
    const token = randomUUID();
    const job = await scratch.getNextJob(token);
    if (job?.id !== id) throw new Error("the scratch worker took another job");
    await job.moveToFailed(err, token);
    const client = await queue.client;
    await client.hset(queue.toKey(id), { atm: String(triesMade) });
    return (await queue.getJob(id)) as Job;
  }

  /**
   * Fails `count` jobs on `queue` by a processor that throws (one try each), then marks every one of them as having
   * used every try, as the worker leaves jobs it gave up on.
   */
  async function failGivenUpJobs(name: "refund-submission", count: number): Promise<void> {
    const queue = worker.current.producer.queue(name) as Queue;
    const before = await queue.getFailedCount();
    const ids = Array.from({ length: count }, () => `rfd_${randomUUID()}`);
    await queue.addBulk(ids.map((id) => ({ name, data: { refundId: id }, opts: { jobId: id, attempts: 1 } })));
    const failing = new Worker(
      queue.name,
      () => {
        throw new Error("boom");
      },
      { connection: scratchRedis, prefix: ctx.config.queuePrefix, concurrency: 50 },
    );
    scratches.push(failing);
    while ((await queue.getFailedCount()) < before + count) await new Promise((resolve) => setTimeout(resolve, 50));
    await failing.close();
    const client = await queue.client;
    const marking = client.pipeline();
    for (const id of ids) marking.hset(queue.toKey(id), { atm: String(MAX_JOB_TRIES) });
    await marking.exec();
  }

  test("when a failed job has tries left, then the sweep puts it back to run again", async () => {
    const id = `wd_${randomUUID()}`;
    await failedJob("withdrawal-submission", { withdrawalId: id }, id, MAX_JOB_TRIES - 1);

    const revived = await putFailedJobsBack(worker.current, "withdrawal-submission");

    expect(revived).toBe(1);
    expect(await worker.current.producer.queue("withdrawal-submission").getJobState(id)).toBe("waiting");
    await worker.current.producer.queue("withdrawal-submission").remove(id);
  });

  test("when a failed job used every try, then the sweep leaves it failed for good", async () => {
    const id = `wd_${randomUUID()}`;
    await failedJob("withdrawal-submission", { withdrawalId: id }, id, MAX_JOB_TRIES);

    const revived = await putFailedJobsBack(worker.current, "withdrawal-submission");
    await putFailedJobsBack(worker.current, "withdrawal-submission");

    expect(revived).toBe(0);
    expect(await worker.current.producer.queue("withdrawal-submission").getJobState(id)).toBe("failed");
  });

  test("when more failed jobs than a page have used every try, then the sweep reads past them and returns", async () => {
    const queue = worker.current.producer.queue("refund-submission") as Queue;
    const revivable = `rfd_${randomUUID()}`;
    await failedJob("refund-submission", { refundId: revivable }, revivable, MAX_JOB_TRIES - 1);
    await failGivenUpJobs("refund-submission", 1_200);
    const failedBefore = await queue.getFailedCount();

    const revived = await Promise.race([
      putFailedJobsBack(worker.current, "refund-submission"),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error("the sweep did not return")), 20_000).unref(),
      ),
    ]);

    expect(revived).toBe(1);
    expect(await queue.getJobState(revivable)).toBe("waiting");
    expect(await queue.getFailedCount()).toBe(failedBefore - 1);
  }, 60_000);

  test("when a delivery's job fails its last try, then its row says so and the reconciler no longer offers it, even once the failed job is gone", async () => {
    const { store } = await createStoreRow(ctx.db, ctx.config.encryptionKey);
    const { endpoint } = await createEndpointRow(ctx.db, ctx.config.encryptionKey, {
      storeId: store.id,
      url: "http://127.0.0.1:9/given-up",
    });
    const event = await createEventRow(ctx.db, { storeId: store.id });
    const delivery = await createDeliveryRow(ctx.db, { event, destination: { endpoint } });
    const { data, jobId, destination } = deliveryJob(delivery);
    const err = new Error("relation does not exist\nat line 2");
    const job = await failedJob("webhook-delivery", data, jobId, MAX_JOB_TRIES, err, destination);

    await noteFailedJob(worker.current, "webhook-delivery", job, err);

    const row = await ctx.db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(row).toMatchObject({ status: "pending", job_error: "relation does not exist" });
    expect(row.job_given_up_at).toBeInstanceOf(Date);
    await job.remove();
    await enqueueDueDeliveries(worker.current);
    expect(await worker.current.producer.queueFor("webhook-delivery", destination).getJob(jobId)).toBeUndefined();
  });

  test("when a delivery's job fails with tries left, then its row is left as it was", async () => {
    const { store } = await createStoreRow(ctx.db, ctx.config.encryptionKey);
    const { endpoint } = await createEndpointRow(ctx.db, ctx.config.encryptionKey, {
      storeId: store.id,
      url: "http://127.0.0.1:9/not-given-up",
    });
    const delivery = await createDeliveryRow(ctx.db, {
      event: await createEventRow(ctx.db, { storeId: store.id }),
      destination: { endpoint },
    });
    const { data, jobId, destination } = deliveryJob(delivery);
    const job = await failedJob("webhook-delivery", data, jobId, MAX_JOB_TRIES - 1, undefined, destination);

    await noteFailedJob(worker.current, "webhook-delivery", job, new Error("boom"));

    const row = await ctx.db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(row).toMatchObject({ job_given_up_at: null, job_error: null });
  });

  test("when an inbox job fails its last try, then each of its items still unprocessed is failed with job_given_up and the reason", async () => {
    const acquirer = await ctx.db.acquirer.create({
      data: { id: newId("acquirer"), slug: `given-up-${randomUUID().slice(0, 8)}`, secret_ciphertext: "unused" },
    });
    const item = (fields: { error: string | null; processed_at: Date | null }) =>
      ctx.db.inboxItem.create({
        data: {
          id: newId("inboxItem"),
          acquirer_id: acquirer.id,
          provider_event_id: randomUUID(),
          signature_valid: true,
          raw_body: Buffer.from("{}"),
          headers: {},
          ...fields,
        },
      });
    const failing = await item({ error: "processing_failed: boom", processed_at: null });
    const settled = await item({ error: null, processed_at: new Date() });
    const untried = await item({ error: null, processed_at: null });
    const job = await failedJob(
      "inbox-processing",
      { inboxItemId: failing.id, moreInboxItemIds: [settled.id, untried.id] },
      failing.id,
      MAX_JOB_TRIES,
    );

    await noteFailedJob(worker.current, "inbox-processing", job, new Error("boom"));

    const rows = await ctx.db.inboxItem.findMany({ where: { acquirer_id: acquirer.id }, orderBy: { id: "asc" } });
    expect(rows.map(({ error, processed_at }) => ({ error, processed: processed_at !== null }))).toEqual([
      { error: "job_given_up: boom", processed: false },
      { error: null, processed: true },
      { error: "job_given_up: boom", processed: false },
    ]);
  });
});
