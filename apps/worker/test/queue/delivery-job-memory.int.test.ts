import { deliveryJob, newId } from "@lm/domain";
import { closeRedis, createProducer, createRedis } from "@lm/queue";
import { deleteQueueKeys, testConfig, uniqueQueuePrefix } from "@lm/testing";

/**
 * What a waiting `webhook-delivery` job keeps in Redis (DESIGN §10: at most 300 bytes per pending delivery). The bound
 * is Redis 7's accounting of one key with this file's 11-character prefix: 232 bytes with an id-only job, 296 when
 * the job carried `{deliveryId}` and its name; its `opts` is its id alone (no `attempts`, see `defaultJobOptions`).
 */
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
    const job = deliveryJob({ id: deliveryId, endpoint_id: "we_memory", url: "https://a.example/hook" });
    const queue = producer.deliveryQueueFor(job.destination);
    await queue.pause();

    await producer.enqueueBulk("webhook-delivery", [job]);

    const key = queue.toKey(deliveryId.slice(4));
    const hash = await redis.hgetall(key);
    expect(hash).toMatchObject({ name: "", data: "{}" });
    expect(JSON.parse(hash.opts ?? "")).toEqual({ jobId: deliveryId.slice(4) });
    expect(await redis.object("ENCODING", key)).toBe("listpack");
    expect(await redis.memory("USAGE", key)).toBeLessThanOrEqual(232);
  });
});
