import { findBalanceDrift } from "@lm/domain";
import { createLogger } from "@lm/logging";
import { createWorkerMetrics } from "@lm/metrics";
import { checkBalanceDrift } from "../../../worker/src/sweepers/balance-drift";
import { useApiTestContext } from "../support/harness";
import { captureLogs } from "../support/log-capture";
import { useTestMerchant } from "../support/merchant-client";
import { paidCharge } from "../support/money";

describe("the reconciler's ledger drift check", () => {
  const ctx = useApiTestContext();
  const merchant = useTestMerchant(ctx);

  const drift = async (metrics: ReturnType<typeof createWorkerMetrics>, mode: "live" | "test") =>
    (await metrics.ledgerDrift.get()).values.find((value) => value.labels.mode === mode)?.value;

  test("when a running total disagrees with its entries, then the check returns it, logs balance drift at error level and sets the drift metric", async () => {
    await paidCharge(ctx, merchant.client, 1500);
    const logger = createLogger({ level: "info", service: "worker", silent: true });
    const logs = captureLogs(logger);
    const metrics = createWorkerMetrics({ queues: [], jobCounts: async () => ({}) });
    const deps = { db: ctx.db, logger, now: () => new Date(), metrics };
    expect(await checkBalanceDrift(deps)).toBe(0);
    expect(await drift(metrics, "test")).toBe(0);

    // A bug elsewhere (simulated by hand): the running total moves without an entry.
    await ctx.db.$executeRaw`UPDATE balances SET available = available + 7 WHERE seller_id = ${merchant.sellerId}`;

    expect(await findBalanceDrift(ctx.db)).toEqual([
      { sellerId: merchant.sellerId, mode: "test", available: 1507, entriesSum: 1500, reserved: 0, openSum: 0 },
    ]);
    expect(await checkBalanceDrift(deps)).toBe(1);
    expect(await drift(metrics, "test")).toBe(7);
    expect(await drift(metrics, "live")).toBe(0);
    expect(logs.lines.filter((l) => l.message === "balance drift")).toEqual([
      expect.objectContaining({
        level: "error",
        seller_id: merchant.sellerId,
        mode: "test",
        available: 1507,
        entries_sum: 1500,
      }),
    ]);
    expect(await findBalanceDrift(ctx.db, { since: new Date(Date.now() + 60_000) })).toEqual([]);
    await ctx.db.$executeRaw`UPDATE balances SET available = available - 7 WHERE seller_id = ${merchant.sellerId}`;
  });
});
