import { deliveryJob, newId } from "@lm/domain";
import { closeRedis, createProducer, createRedis, parkJobs } from "@lm/queue";
import { deleteQueueKeys, testConfig, uniqueQueuePrefix } from "@lm/testing";

/**
 * What a waiting `webhook-delivery` job keeps in Redis (DESIGN §10: at most 300 bytes per pending delivery). The bound
 * is Redis 7's accounting of one key with this file's 11-character prefix: 232 bytes with an id-only job, 296 when
 * the job carried `{deliveryId}` and its name; its `opts` is its id alone (no `attempts`, see `defaultJobOptions`).
 */
/** What makes a row's job its own: a retry (attempt 2), as what waits behind a slow endpoint is. */
const RETRY = { event_id: "", attempt: 2, manual: false, fan_out_event_id: null };

describe("a waiting delivery job in Redis", () => {
  const config = testConfig("postgresql://unused", { QUEUE_PREFIX: uniqueQueuePrefix() });
  const redis = createRedis(config.redisUrl, "producer");
  const producer = createProducer(redis, config, () => undefined);
  afterAll(async () => {
    await producer.close();
    await deleteQueueKeys(config.redisUrl, config.queuePrefix);
    await closeRedis(redis);
  });

  test("when a delivery is enqueued, then its job stores no data and no name, as a compact hash", async () => {
    const deliveryId = newId("delivery");
    const job = deliveryJob({ id: deliveryId, endpoint_id: "we_memory", url: "https://a.example/hook", ...RETRY });
    const queue = producer.queueFor("webhook-delivery", job.destination);
    await queue.pause();

    await producer.enqueueBulk("webhook-delivery", [job]);

    const key = queue.toKey(deliveryId.slice(4));
    const hash = await redis.hgetall(key);
    expect(hash).toMatchObject({ name: "", data: "{}" });
    expect(JSON.parse(hash.opts ?? "")).toEqual({ jobId: deliveryId.slice(4) });
    expect(await redis.object("ENCODING", key)).toBe("listpack");
    expect(await redis.memory("USAGE", key)).toBeLessThanOrEqual(232);
  });

  test("when a retry waits an hour, then it is parked as one member of its shard's set, with no job until near its time", async () => {
    const jobs = Array.from({ length: 200 }, () =>
      deliveryJob(
        { id: newId("delivery"), endpoint_id: "we_parked", url: "https://a.example/hook", ...RETRY },
        3_600_000,
      ),
    );
    const queue = producer.queueFor("webhook-delivery", "we_parked");
    const parkedKey = queue.toKey("parked");

    await producer.enqueueBulk("webhook-delivery", jobs);

    expect(await queue.getJob(jobs[0]?.jobId ?? "")).toBeUndefined();
    expect(await redis.zcard(parkedKey)).toBe(200);
    expect(await producer.countParked()).toBe(200);
    expect((await redis.memory("USAGE", parkedKey)) ?? Infinity).toBeLessThanOrEqual(200 * 150);
  });

  test("when a parked job's time is near, then promotion makes it a delayed job of its shard that runs at its time", async () => {
    const jobId = newId("delivery").slice(4);
    const queue = producer.queueFor("webhook-delivery", "we_soon");
    await parkJobs(redis, queue, [{ jobId, dueAt: Date.now() + 1_500 }]);

    await producer.promoteParked();

    expect(await queue.getJobState(jobId)).toBe("delayed");
    const job = await queue.getJob(jobId);
    expect(job?.delay).toBeGreaterThan(1_000);
    expect(job?.delay).toBeLessThanOrEqual(1_500);
    expect(await redis.zscore(queue.toKey("parked"), jobId)).toBeNull();
  });
});
