import { bullQueueNames, shardOf, hashSlotOf } from "../src";

describe("the delivery queue's shards (DESIGN §10 Redis)", () => {
  test("when the delivery queue has 8 shards, then each is a BullMQ queue under its own hash tag, one per eighth of the slots", () => {
    const names = bullQueueNames("webhook-delivery", 8);

    expect(names).toEqual(["{wd02}", "{wd1d}", "{wd21}", "{wd3}", "{wd4a}", "{wd53}", "{wd6b}", "{wd70}"]);
    names.forEach((name, shard) => expect(Math.floor(hashSlotOf(name.slice(1, -1)) / 2048)).toBe(shard));
    expect(bullQueueNames("reconciler", 8)).toEqual(["{reconciler}"]);
  });

  test("when 64 shards are asked for, then 64 distinct names, each in its own 64th of the slots", () => {
    const names = bullQueueNames("webhook-delivery", 64);

    expect(new Set(names).size).toBe(64);
    names.forEach((name, shard) => expect(Math.floor(hashSlotOf(name.slice(1, -1)) / 256)).toBe(shard));
  });

  test("when a hash slot is computed, then it is Redis's (CLUSTER KEYSLOT of the same text)", () => {
    expect([hashSlotOf("foo"), hashSlotOf("bar"), hashSlotOf("somekey")]).toEqual([12182, 5061, 11058]);
  });

  test("when a destination's shard is asked again, in any process, then it is the same one (a fixed hash of the key)", () => {
    expect(shardOf("we_01JABCDEFGHJKMNPQRSTVWXYZ0", 8)).toBe(1);
    expect(shardOf("postback:shop.example", 8)).toBe(2);
    expect(shardOf("we_01JABCDEFGHJKMNPQRSTVWXYZ0", 64)).toBe(41);
    expect(shardOf("anything", 1)).toBe(0);
  });

  test("when 1,000 endpoints are spread over 8 shards, then every shard gets between 9 % and 16 % of them", () => {
    const counts = new Array<number>(8).fill(0);
    for (let i = 0; i < 1000; i++) {
      const shard = shardOf(`we_${i}`, 8);
      counts[shard] = (counts[shard] ?? 0) + 1;
    }

    for (const count of counts) expect(count).toBeGreaterThanOrEqual(90);
    for (const count of counts) expect(count).toBeLessThanOrEqual(160);
  });
});
