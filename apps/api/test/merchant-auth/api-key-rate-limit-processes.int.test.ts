/**
 * The per-key limit across processes (DESIGN §10 "Rate limits across processes"): 50 API processes, each its own
 * LeasedRateLimit over the real Redis, hold the limit in sum and refuse nothing of a key under it; one process alone
 * keeps leases of 10. Load is sent window by window: each window's requests go out at its start, in waves, and the next
 * window's wait for its end, so a slow machine changes when requests arrive, never which window counts them. The first
 * window is a warm-up (no process has a demand to size its leases by yet); assertions are about counts.
 */
import type { RateLimiterRedis } from "rate-limiter-flexible";
import { closeRedis, createRedis, whenSettled, type RedisClient } from "@lm/queue";
import { deleteQueueKeys, uniqueQueuePrefix } from "@lm/testing";
import { API_KEY_MAX_LEASE, LeasedRateLimit } from "../../src/http/api-rate-limit";
import { createRateLimiter } from "../../src/http/rate-limit";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const LIMIT = 100;
const KEY = "key";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the per-key rate limit across processes", () => {
  const prefix = uniqueQueuePrefix();
  let redis: RedisClient;
  let limiterNumber = 0;

  beforeAll(async () => {
    redis = createRedis(REDIS_URL, "producer");
    await whenSettled(redis);
  });
  afterAll(async () => {
    await closeRedis(redis);
    await deleteQueueKeys(REDIS_URL, prefix);
  });

  /** A shared count of `LIMIT` points per window of `seconds` under a name of its own. */
  function sharedCount(seconds: number): RateLimiterRedis {
    limiterNumber += 1;
    return createRateLimiter(redis, prefix, `processes-test-${limiterNumber}`, LIMIT, seconds);
  }

  /** Waits for the end of the key's window, and a little more: a process learns the end a reply's latency late. */
  async function windowEnd(count: RateLimiterRedis): Promise<void> {
    for (let state = await count.get(KEY); state !== null; state = await count.get(KEY)) {
      await sleep(state.msBeforeNext + 1);
    }
    await sleep(100);
  }

  /**
   * Sends `perWindow` requests of the key in each of `windows` windows, request n of the run to process n mod their
   * number (so each gets its even share), in `waves` waves of concurrent requests `pauseMs` apart.
   * @returns the requests admitted in each window
   */
  async function run(
    processes: LeasedRateLimit[],
    count: RateLimiterRedis,
    load: { windows: number; perWindow: number; waves: number; pauseMs: number },
    onWindowEnd: (window: number) => void = () => undefined,
  ): Promise<number[]> {
    const admitted: number[] = [];
    let n = 0;
    for (let window = 0; window < load.windows; window++) {
      await windowEnd(count);
      let admittedInWindow = 0;
      for (let wave = 0; wave < load.waves; wave++) {
        const size =
          Math.floor((load.perWindow * (wave + 1)) / load.waves) - Math.floor((load.perWindow * wave) / load.waves);
        const replies = await Promise.all(
          Array.from({ length: size }, () => processes[n++ % processes.length]!.admit(KEY)),
        );
        admittedInWindow += replies.filter((refusal) => refusal === null).length;
        if (load.pauseMs > 0) await sleep(load.pauseMs);
      }
      admitted.push(admittedInWindow);
      onWindowEnd(window);
    }
    return admitted;
  }

  /** `number` processes sharing `count`, as API processes do. */
  const processesOf = (count: RateLimiterRedis, number: number) =>
    Array.from({ length: number }, () => new LeasedRateLimit(count, API_KEY_MAX_LEASE));

  test("when 50 processes share a key at 60 % of its limit, then none of its requests is refused", async () => {
    const count = sharedCount(2);

    const admitted = await run(processesOf(count, 50), count, { windows: 4, perWindow: 60, waves: 6, pauseMs: 30 });

    expect(admitted.slice(1)).toEqual([60, 60, 60]);
  }, 60_000);

  test("when 50 processes share a key at 150 % of its limit, then they admit 90 to 100 of its requests per window", async () => {
    const count = sharedCount(2);

    const admitted = await run(processesOf(count, 50), count, { windows: 4, perWindow: 150, waves: 6, pauseMs: 30 });

    for (const inWindow of admitted) expect(inWindow).toBeLessThanOrEqual(LIMIT);
    for (const inWindow of admitted.slice(1)) expect(inWindow).toBeGreaterThanOrEqual(LIMIT - API_KEY_MAX_LEASE);
  }, 60_000);

  test("when one process sends a key one request at a time past its limit, then it asks Redis about once per 10 admitted", async () => {
    const count = sharedCount(1);
    const consume = jest.spyOn(count, "consume");

    const admitted = await run(
      processesOf(count, 1),
      count,
      { windows: 3, perWindow: 150, waves: 150, pauseMs: 0 },
      (window) => {
        if (window === 0) consume.mockClear();
      },
    );

    expect(admitted).toEqual([LIMIT, LIMIT, LIMIT]);
    expect(consume.mock.calls.length).toBeLessThanOrEqual((2 * LIMIT) / API_KEY_MAX_LEASE + 2);
  }, 30_000);

  test("when one process alone sends a key at 30 % of its limit, then it still takes leases of 10", async () => {
    const count = sharedCount(1);
    const consume = jest.spyOn(count, "consume");

    const admitted = await run(
      processesOf(count, 1),
      count,
      { windows: 3, perWindow: 30, waves: 30, pauseMs: 0 },
      (window) => {
        if (window === 0) consume.mockClear();
      },
    );

    expect(admitted).toEqual([30, 30, 30]);
    expect(consume.mock.calls.length).toBe(2 * Math.ceil(30 / API_KEY_MAX_LEASE));
  }, 30_000);
});
