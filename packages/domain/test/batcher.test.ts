import { createBatcher } from "../src/jobs/batcher";

/** A runner that records its batches and answers each item doubled, after `release()` when held. */
function recordingRunner(options: { hold?: boolean } = {}) {
  const batches: number[][] = [];
  let releases: Array<() => void> = [];
  const run = async (items: number[]) => {
    batches.push(items);
    if (options.hold) await new Promise<void>((resolve) => releases.push(resolve));
    return items.map((n) => n * 2);
  };
  const release = () => {
    const pending = releases;
    releases = [];
    for (const resolve of pending) resolve();
  };
  return { batches, run, release };
}

describe("createBatcher", () => {
  test("when items arrive in the same turn, then they run as one batch and each gets its own result", async () => {
    const runner = recordingRunner();
    const batched = createBatcher(runner.run);

    const results = await Promise.all([1, 2, 3].map(batched));

    expect(results).toEqual([2, 4, 6]);
    expect(runner.batches).toEqual([[1, 2, 3]]);
  });

  test("when items arrive while a batch is in flight, then they form the next batch", async () => {
    const runner = recordingRunner({ hold: true });
    const batched = createBatcher(runner.run);
    const first = batched(1);
    await new Promise((resolve) => setImmediate(resolve));

    const later = [batched(2), batched(3)];
    runner.release();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    runner.release();

    expect(await Promise.all(later)).toEqual([4, 6]);
    expect(runner.batches).toEqual([[1], [2, 3]]);
  });

  test("when more items than the largest batch arrive, then they are split", async () => {
    const runner = recordingRunner();
    const batched = createBatcher(runner.run, { maxSize: 2 });

    const results = await Promise.all([1, 2, 3, 4, 5].map(batched));

    expect(results).toEqual([2, 4, 6, 8, 10]);
    expect(runner.batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  test("when a batch fails, then its items reject and the next batch still runs", async () => {
    let calls = 0;
    const batched = createBatcher(async (items: number[]) => {
      calls += 1;
      if (calls === 1) throw new Error("database down");
      return items;
    });

    const failed = await Promise.allSettled([batched(1), batched(2)]);
    const recovered = await batched(3);

    expect(failed.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(recovered).toBe(3);
  });
});

describe("createBatcher with a linger", () => {
  test("when items arrive apart within the linger, then they run as one batch", async () => {
    const runner = recordingRunner();
    const batched = createBatcher(runner.run, { lingerMs: 40 });

    const first = batched(1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const second = batched(2);

    expect(await Promise.all([first, second])).toEqual([2, 4]);
    expect(runner.batches).toEqual([[1, 2]]);
  });

  test("when an item comes after the linger, then it starts a batch of its own", async () => {
    const runner = recordingRunner();
    const batched = createBatcher(runner.run, { lingerMs: 5 });

    await batched(1);
    await batched(2);

    expect(runner.batches).toEqual([[1], [2]]);
  });
});
