/**
 * The merchant API's per-key limit taken from Redis in leases: never more than the limit per window,
 * whatever the number of processes and concurrent requests; exactly the limit with one process; one Redis call per
 * lease, not per request. The class tests use a 60 s window, so that no window ends while a test runs (the behaviour
 * over several windows and many processes is in api-key-rate-limit-processes.int.test.ts).
 */
import type { RateLimiterRedis } from "rate-limiter-flexible";
import { createApiKey } from "@lm/domain";
import { API_KEY_MAX_LEASE, LeasedRateLimit } from "../../src/http/api-rate-limit";
import { createRateLimiter } from "../../src/http/rate-limit";
import { chargeBody, merchantClient, useTestMerchant } from "../support/merchant-client";
import { useApiTestContext } from "../support/harness";

describe("the per-key rate limit, taken in leases", () => {
  const ctx = useApiTestContext();
  const merchant = useTestMerchant(ctx);
  const LIMIT = 100;
  let limiterNumber = 0;

  /** A shared count of `LIMIT` points per 60 s under a name of its own. */
  function sharedCount(): RateLimiterRedis {
    limiterNumber += 1;
    return createRateLimiter(ctx.deps.redis, ctx.config.queuePrefix, `lease-test-${limiterNumber}`, LIMIT, 60);
  }

  /** Points consumed in Redis for `key`. */
  async function consumed(count: RateLimiterRedis, key: string): Promise<number> {
    return (await count.get(key))?.consumedPoints ?? 0;
  }

  /** How many of `attempts` requests of `key`, made `concurrency` at a time through `processes` in turn, are admitted. */
  async function admitted(processes: LeasedRateLimit[], key: string, attempts: number, concurrency: number) {
    let count = 0;
    for (let started = 0; started < attempts; started += concurrency) {
      const batch = Array.from({ length: Math.min(concurrency, attempts - started) }, (_, i) =>
        processes[(started + i) % processes.length]!.admit(key),
      );
      count += (await Promise.all(batch)).filter((refusal) => refusal === null).length;
    }
    return count;
  }

  test("when one process gets more requests than the limit, then it admits exactly the limit and Redis counts them", async () => {
    const count = sharedCount();
    const limit = new LeasedRateLimit(count, API_KEY_MAX_LEASE);

    expect(await admitted([limit], "key", LIMIT + 30, 1)).toBe(LIMIT);
    // The refusals asked Redis nothing: the last lease took the last points.
    expect(await consumed(count, "key")).toBe(LIMIT);
    const refusal = await limit.admit("key");
    expect(refusal).toBeGreaterThan(0);
    expect(refusal).toBeLessThanOrEqual(60_000);
  });

  test("when 25 requests of a new key arrive at once, then they share three leases: three Redis calls, not 25", async () => {
    const count = sharedCount();
    const consume = jest.spyOn(count, "consume");
    const limit = new LeasedRateLimit(count, API_KEY_MAX_LEASE);

    expect(await admitted([limit], "key", 25, 25)).toBe(25);
    // The first two are sized by the requests waiting; by the third this process knows it is alone on the key.
    expect(consume.mock.calls.map(([, points]) => points)).toEqual([10, 10, 10]);
    expect(await consumed(count, "key")).toBe(30);
  });

  test("when three processes share a key, then together they never admit more than the limit, nor fewer than it less their unused leases", async () => {
    const count = sharedCount();
    const processes = [1, 2, 3].map(() => new LeasedRateLimit(count, API_KEY_MAX_LEASE));

    const total = await admitted(processes, "key", 3 * LIMIT, 7);

    expect(total).toBeLessThanOrEqual(LIMIT);
    expect(total).toBeGreaterThanOrEqual(LIMIT - 2 * (API_KEY_MAX_LEASE - 1));
  });

  test("when others have used 95 of the key's 100, then this process takes the 5 left, no more", async () => {
    const count = sharedCount();
    await count.consume("key", 95);
    const limit = new LeasedRateLimit(count, API_KEY_MAX_LEASE);

    expect(await admitted([limit], "key", 20, 4)).toBe(5);
  });

  test("when the window ends, then the key is admitted again", async () => {
    const count = createRateLimiter(ctx.deps.redis, ctx.config.queuePrefix, "lease-test-short", 2, 1);
    const limit = new LeasedRateLimit(count, 2);
    await limit.admit("key");
    await limit.admit("key");
    const refusal = await limit.admit("key");
    expect(refusal).not.toBeNull();

    await new Promise((resolve) => setTimeout(resolve, refusal! + 50));

    expect(await limit.admit("key")).toBeNull();
  });

  test("when Redis cannot answer, then admit throws rather than admit or refuse (the middleware then lets the request through)", async () => {
    const { default: Redis } = await import("ioredis");
    const closed = new Redis(ctx.config.redisUrl, { lazyConnect: true, enableOfflineQueue: false });
    const limit = new LeasedRateLimit(
      createRateLimiter(closed, ctx.config.queuePrefix, "unreachable", LIMIT, 1),
      API_KEY_MAX_LEASE,
    );

    await expect(limit.admit("key")).rejects.toThrow();
    closed.disconnect();
  });

  test("when another process has used 95 of a key's 100 requests this second, then the API creates 5 more charges and refuses the sixth", async () => {
    const count = createRateLimiter(ctx.deps.redis, ctx.config.queuePrefix, "api-key", LIMIT, 1);
    const { apiKey, key } = await createApiKey(ctx.deps.repos, {
      storeId: merchant.storeId,
      name: "busy",
      mode: "test",
      now: new Date(),
    });
    await count.consume(apiKey.id, 95);

    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await merchantClient(ctx.app, key).post("/v1/transactions", chargeBody())).status);
    }

    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });
});
