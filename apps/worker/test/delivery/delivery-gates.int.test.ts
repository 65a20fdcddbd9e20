import { closeRedis, createRedis, whenSettled, type RedisClient } from "@lm/queue";
import { deleteQueueKeys, testConfig, uniqueQueuePrefix } from "@lm/testing";
import { createDeliveryGates, RESERVE_HORIZON_MS } from "../../src/delivery/delivery-gates";

/**
 * The Redis side of the delivery controls (DESIGN §16) against a real Redis, shared by three connections as three
 * worker processes would share it: an endpoint's turn, and the start slots of its rate limit.
 */
describe("delivery gates", () => {
  const config = testConfig("postgresql://unused", { QUEUE_PREFIX: uniqueQueuePrefix() });
  const connections: RedisClient[] = Array.from({ length: 3 }, () => createRedis(config.redisUrl, "producer"));
  const gates = connections.map((redis) => createDeliveryGates(redis, config.queuePrefix));
  beforeAll(async () => {
    await Promise.all(connections.map(whenSettled));
  });
  afterAll(async () => {
    await deleteQueueKeys(config.redisUrl, config.queuePrefix);
    await Promise.all(connections.map(closeRedis));
  });

  test("when three processes reserve 40 starts at once under a limit of 10 a second, then each reserved slot is its own, on the grid of the wall-clock second, and the rest are sent back one slot apart", async () => {
    const before = Date.now();

    const slots = await Promise.all(Array.from({ length: 40 }, (_, i) => gates[i % 3]!.reserveStart("we_rate", 10)));

    const reserved = slots.flatMap((slot) => (slot.reserved ? [slot.at] : []));
    // At most a horizon's worth (10 a second × 1 s), never two alike, each 50 ms past a multiple of 100 ms.
    expect(reserved.length).toBeGreaterThanOrEqual(9);
    expect(reserved.length).toBeLessThanOrEqual(11);
    expect(new Set(reserved).size).toBe(reserved.length);
    for (const at of reserved) {
      expect(at % 100).toBeCloseTo(50, 3);
      expect(at).toBeGreaterThanOrEqual(before - 100);
      expect(at).toBeLessThanOrEqual(Date.now() + RESERVE_HORIZON_MS);
    }
    const perSecond = new Map<number, number>();
    for (const at of reserved) perSecond.set(Math.floor(at / 1000), (perSecond.get(Math.floor(at / 1000)) ?? 0) + 1);
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(10);
    // The others come back spread out, about one slot (100 ms) apart, not all at once.
    const later = slots.flatMap((slot) => (slot.reserved ? [] : [slot.retryInMs])).sort((a, b) => a - b);
    expect(later.length).toBe(40 - reserved.length);
    const gaps = later.slice(1).map((ms, i) => ms - later[i]!);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(90);
    expect(later[later.length - 1]! - later[0]!).toBeGreaterThan(2_500);
  });

  test("when the limit changes, then the new limit has a schedule of its own", async () => {
    const first = await gates[0]!.reserveStart("we_change", 1);
    const other = await gates[1]!.reserveStart("we_change", 2);

    expect(first).toMatchObject({ reserved: true });
    expect(other).toMatchObject({ reserved: true });
    if (first.reserved && other.reserved) expect(other.at % 500).toBeCloseTo(250, 3);
  });

  test("when an endpoint's turn is taken, then no other holder takes it until it is given back by its holder", async () => {
    expect(await gates[0]!.takeTurn("we_turn", "a", 5_000)).toBe(true);
    expect(await gates[1]!.takeTurn("we_turn", "b", 5_000)).toBe(false);

    await gates[2]!.giveTurnBack("we_turn", "b");
    expect(await gates[1]!.takeTurn("we_turn", "b", 5_000)).toBe(false);
    await gates[2]!.giveTurnBack("we_turn", "a");
    expect(await gates[1]!.takeTurn("we_turn", "b", 5_000)).toBe(true);
  });

  test("when a holder dies without giving its turn back, then the turn frees itself after its time", async () => {
    expect(await gates[0]!.takeTurn("we_dead", "gone", 100)).toBe(true);

    await new Promise((resolve) => setTimeout(resolve, 150));

    expect(await gates[1]!.takeTurn("we_dead", "next", 5_000)).toBe(true);
  });
});
