import { createConcurrencyGate } from "../src/concurrency-gate";

describe("createConcurrencyGate", () => {
  test("when more tasks arrive than the limit, then no more than the limit run at once and the rest run in arrival order", async () => {
    const gate = createConcurrencyGate(2);
    const started: number[] = [];
    const finish: Array<() => void> = [];
    let peak = 0;
    const tasks = [0, 1, 2, 3].map((n) =>
      gate.run(async () => {
        started.push(n);
        peak = Math.max(peak, gate.running());
        await new Promise<void>((resolve) => finish.push(resolve));
        return n;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1]);

    finish.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    while (finish.length > 0 || started.length < 4) {
      finish.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }

    expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3]);
    expect(peak).toBe(2);
    expect(gate.running()).toBe(0);
  });

  test("when a task throws, then its slot is freed and the error reaches the caller", async () => {
    const gate = createConcurrencyGate(1);

    await expect(gate.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");

    expect(await gate.run(async () => "next")).toBe("next");
    expect(gate.running()).toBe(0);
  });
});
