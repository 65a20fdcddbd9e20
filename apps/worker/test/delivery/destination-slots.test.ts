import { createDestinationSlots, SLOW_AFTER_MS } from "../../src/delivery/destination-slots";

describe("destination slots (isolation)", () => {
  function slots() {
    let now = 1_000_000;
    const limits = createDestinationSlots({ fastLimit: 4, slowLimit: 1, now: () => now });
    return { limits, advance: (ms: number) => (now += ms) };
  }

  test("when a quick destination is at its fast limit, then the next attempt is refused and another destination still gets a slot", () => {
    const { limits } = slots();
    const held = Array.from({ length: 4 }, () => limits.tryAcquire("we_a"));

    expect(held.every((slot) => slot !== null)).toBe(true);
    expect(limits.tryAcquire("we_a")).toBeNull();
    expect(limits.tryAcquire("we_b")).not.toBeNull();
  });

  test("when one running attempt of a destination is older than a second, then it gets only the slow limit", () => {
    const { limits, advance } = slots();
    limits.tryAcquire("we_hanging");
    advance(SLOW_AFTER_MS + 1);

    expect(limits.tryAcquire("we_hanging")).toBeNull();
    expect(limits.running("we_hanging")).toBe(1);
  });

  test("when a slow destination's attempt ends, then its slot is free again and refused jobs are spread in waves", () => {
    const { limits, advance } = slots();
    const slot = limits.tryAcquire("we_slow");
    advance(10_000);
    slot?.release();
    limits.tryAcquire("we_slow");

    const first = limits.deferralMs("we_slow");
    const second = limits.deferralMs("we_slow");
    const third = limits.deferralMs("we_slow");

    expect(first).toBeGreaterThanOrEqual(8_000);
    expect(second).toBeGreaterThan(first * 1.2);
    expect(third).toBeGreaterThan(second);
  });

  test("when a quick destination is at its limit, then a refused job looks again within half a second, however many were refused", () => {
    const { limits } = slots();
    for (let i = 0; i < 4; i++) limits.tryAcquire("we_busy");

    const delays = Array.from({ length: 1000 }, () => limits.deferralMs("we_busy"));

    expect(Math.max(...delays)).toBeLessThanOrEqual(600);
  });

  test("when a slot is released twice, then it frees one slot only", () => {
    const { limits } = slots();
    const slot = limits.tryAcquire("we_a");
    limits.tryAcquire("we_a");

    slot?.release();
    slot?.release();

    expect(limits.running("we_a")).toBe(1);
  });
});
