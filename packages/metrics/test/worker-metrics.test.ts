import { createWorkerMetrics, setLedgerDrift, type QueueDepthSource } from "../src";

const queues = ["webhook-delivery", "inbox-processing"] as const;

describe("createWorkerMetrics", () => {
  test("when the queue depth is collected, then each queue reports waiting, delayed, active and failed summed over its shards, missing states as 0", async () => {
    const source: QueueDepthSource<(typeof queues)[number]> = {
      queues,
      jobCounts: async (queue): Promise<Array<Record<string, number>>> =>
        queue === "webhook-delivery"
          ? [
              { waiting: 1, delayed: 7, active: 2 },
              { waiting: 2, failed: 1 },
            ]
          : [{}],
    };
    const metrics = createWorkerMetrics(source);

    const text = await metrics.registry.metrics();

    expect(text).toContain('lm_queue_jobs{queue="webhook-delivery",state="waiting"} 3\n');
    expect(text).toContain('lm_queue_jobs{queue="webhook-delivery",state="delayed"} 7\n');
    expect(text).toContain('lm_queue_jobs{queue="webhook-delivery",state="active"} 2\n');
    expect(text).toContain('lm_queue_jobs{queue="webhook-delivery",state="failed"} 1\n');
    expect(text).toContain('lm_queue_jobs{queue="inbox-processing",state="failed"} 0\n');
  });

  test("when the queue depth cannot be read, then the scrape still succeeds with no depth rather than stale numbers", async () => {
    let redisUp = true;
    const metrics = createWorkerMetrics({
      queues,
      jobCounts: async () => {
        if (!redisUp) throw new Error("connect ECONNREFUSED 127.0.0.1:6379");
        return [{ waiting: 5 }];
      },
    });
    expect(await metrics.registry.metrics()).toContain('lm_queue_jobs{queue="webhook-delivery",state="waiting"} 5\n');
    redisUp = false;

    const text = await metrics.registry.metrics();

    expect(text).toContain("# TYPE lm_queue_jobs gauge\n");
    expect(text).not.toMatch(/^lm_queue_jobs\{/m);
    expect(text).toContain("# TYPE lm_webhook_delivery_attempts_total counter\n");
  });
});

describe("setLedgerDrift", () => {
  test("when the drift is a non-negative integer of centavos, then the gauge of that mode shows it", async () => {
    const metrics = createWorkerMetrics({ queues: [], jobCounts: async () => [] });

    setLedgerDrift(metrics, "live", 1990);

    expect(await metrics.registry.metrics()).toContain('lm_ledger_drift_centavos{mode="live"} 1990\n');
  });

  test("when the drift is negative or fractional, then RangeError and the gauge is unchanged", async () => {
    const metrics = createWorkerMetrics({ queues: [], jobCounts: async () => [] });
    setLedgerDrift(metrics, "test", 0);

    expect(() => setLedgerDrift(metrics, "test", -1)).toThrow(RangeError);
    expect(() => setLedgerDrift(metrics, "test", 10.5)).toThrow(RangeError);
    expect(await metrics.registry.metrics()).toContain('lm_ledger_drift_centavos{mode="test"} 0\n');
  });
});
