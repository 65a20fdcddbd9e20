import { RETENTION_INTERVAL_MS } from "@lm/queue";
import { useE2eTestContext } from "./support/e2e-harness";

describe('the worker\'s retention job (DESIGN §10 "Retention")', () => {
  const ctx = useE2eTestContext();

  test("when the worker starts, then retention is scheduled hourly on the file's queue prefix", async () => {
    const schedulers = await ctx.deps.producer.queue("retention").getJobSchedulers();

    expect(schedulers.map((s) => ({ key: s.key, every: Number(s.every) }))).toEqual([
      { key: "retention", every: RETENTION_INTERVAL_MS },
    ]);
    expect(RETENTION_INTERVAL_MS).toBe(3_600_000);
  });
});
