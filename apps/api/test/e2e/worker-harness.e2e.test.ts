import { useE2eTestContext } from "./support/e2e-harness";

describe("end-to-end harness", () => {
  const ctx = useE2eTestContext();

  test("when a file asks for the worker, then its consumers and schedules run on the file's own queue prefix", async () => {
    const reconciler = await ctx.deps.producer.queue("reconciler").getJobSchedulers();
    const keyRevocation = await ctx.deps.producer.queue("key-revocation").getJobSchedulers();

    expect(reconciler.map((s) => s.key)).toEqual(["reconciler"]);
    expect(keyRevocation.map((s) => s.key)).toEqual(["key-revocation"]);
    expect(ctx.worker.config.queuePrefix).toBe(ctx.config.queuePrefix);
  });
});
