import { useApiTestContext } from "../support/harness";

describe("end-to-end harness", () => {
  const ctx = useApiTestContext({}, { worker: true });

  test("when a file asks for the worker, then its consumers run on the file's own queue prefix", async () => {
    const schedulers = await ctx.deps.producer.queue("reconciler").getJobSchedulers();

    expect(schedulers.map((s) => s.key)).toEqual(["reconciler"]);
    expect(ctx.worker.config.queuePrefix).toBe(ctx.config.queuePrefix);
  });
});
