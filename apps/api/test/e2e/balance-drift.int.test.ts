import { findBalanceDrift, findRecentBalanceDrift, idFloor, LEDGER_SETTLE_MS, newId } from "@lm/domain";
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
    const metrics = createWorkerMetrics({ queues: [], jobCounts: async () => [] });
    const deps = { repos: ctx.deps.repos, logger, now: () => new Date(), metrics };
    expect(await checkBalanceDrift(deps)).toBe(0);
    expect(await drift(metrics, "test")).toBe(0);

    // A bug elsewhere (simulated by hand): the running total moves without an entry.
    await ctx.db.$executeRaw`UPDATE balances SET available = available + 7 WHERE seller_id = ${merchant.sellerId}`;

    expect(await findBalanceDrift(ctx.deps.repos)).toEqual([
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
    expect(
      await findRecentBalanceDrift(ctx.deps.repos, { since: new Date(Date.now() + 60_000), now: new Date() }),
    ).toEqual([]);
    await ctx.db.$executeRaw`UPDATE balances SET available = available - 7 WHERE seller_id = ${merchant.sellerId}`;
  });

  test("when the entries below a balance's checkpoint were summed by earlier ticks, then a later tick sums only newer entries and still finds a total that moved without an entry", async () => {
    await paidCharge(ctx, merchant.client, 2000);
    const logger = createLogger({ level: "info", service: "worker", silent: true });
    const metrics = createWorkerMetrics({ queues: [], jobCounts: async () => [] });
    // A tick late enough that the entries above have settled into the checkpoint.
    const later = () => new Date(Date.now() + LEDGER_SETTLE_MS + 60_000);
    const deps = { repos: ctx.deps.repos, logger, now: later, metrics };
    expect(await checkBalanceDrift(deps)).toBe(0);
    const [checkpoint] = await ctx.db.$queryRaw<Array<{ entries_sum: bigint }>>`
      SELECT entries_sum FROM ledger_checkpoints WHERE seller_id = ${merchant.sellerId} AND mode = 'test'`;
    const [balance] = await ctx.db.$queryRaw<Array<{ available: bigint }>>`
      SELECT available FROM balances WHERE seller_id = ${merchant.sellerId} AND mode = 'test'`;
    expect(checkpoint?.entries_sum).toBe(balance?.available);

    // The checkpoint is what the check sums from now on: were it not used, this entry below it would be counted.
    await ctx.db.$executeRaw`UPDATE ledger_checkpoints SET entries_sum = entries_sum - 1
      WHERE seller_id = ${merchant.sellerId} AND mode = 'test'`;
    expect(await findRecentBalanceDrift(ctx.deps.repos, { since: new Date(0), now: later() })).toEqual([
      expect.objectContaining({
        sellerId: merchant.sellerId,
        available: Number(balance?.available),
        entriesSum: Number(balance?.available) - 1,
      }),
    ]);
    await ctx.db.$executeRaw`UPDATE ledger_checkpoints SET entries_sum = entries_sum + 1
      WHERE seller_id = ${merchant.sellerId} AND mode = 'test'`;

    // An entry made after the checkpoint (on the tick's late clock), its balance change lost (a bug, by hand).
    await ctx.db.$executeRaw`INSERT INTO balance_transactions (id, seller_id, mode, type, amount, source_id, created_at)
      VALUES (${newId("balanceTransaction", later().getTime())}, ${merchant.sellerId}, 'test', 'payment', 300, 'txn_by_hand', now())`;
    await ctx.db.$executeRaw`UPDATE balances SET updated_at = now() WHERE seller_id = ${merchant.sellerId}`;
    expect(await checkBalanceDrift(deps)).toBe(1);
    expect(await drift(metrics, "test")).toBe(300);
  });

  test("when a balance's history is longer than one check folds, then each check moves its checkpoint by that much and leaves it out, and the check that catches up compares it, a drift included", async () => {
    const at = Date.now() - 3_600_000;
    const entries = Array.from({ length: 10 }, (_, i) => ({
      id: newId("balanceTransaction", at + i),
      amount: 100 * (i + 1),
    }));
    for (const entry of entries) {
      await ctx.db
        .$executeRaw`INSERT INTO balance_transactions (id, seller_id, mode, type, amount, source_id, created_at)
        VALUES (${entry.id}, ${merchant.sellerId}, 'live', 'payment', ${entry.amount}, ${entry.id}, now())`;
    }
    // The running total is 1 centavo off its 5,500 of entries (a bug, by hand).
    await ctx.db.$executeRaw`INSERT INTO balances (seller_id, mode, available, reserved, updated_at)
      VALUES (${merchant.sellerId}, 'live', 5501, 0, now())`;
    const now = new Date();
    const check = () =>
      ctx.deps.repos.ledger.listRecentBalanceReconciliation({
        since: new Date(now.getTime() - 60_000),
        settledBelow: idFloor("balanceTransaction", now.getTime() - LEDGER_SETTLE_MS),
        maxSettledEntries: 4,
        now,
      });
    const checkpoint = async () =>
      (
        await ctx.db.$queryRaw<Array<{ entry_id: string; entries_sum: bigint }>>`
          SELECT entry_id, entries_sum FROM ledger_checkpoints WHERE seller_id = ${merchant.sellerId} AND mode = 'live'`
      )[0];

    expect((await check()).filter((row) => row.mode === "live")).toEqual([]);
    expect(await checkpoint()).toEqual({ entry_id: entries[4]!.id, entries_sum: 1000n });
    expect((await check()).filter((row) => row.mode === "live")).toEqual([]);
    expect(await checkpoint()).toEqual({ entry_id: entries[8]!.id, entries_sum: 3600n });

    expect((await check()).filter((row) => row.mode === "live")).toEqual([
      expect.objectContaining({ seller_id: merchant.sellerId, available: 5501n, entries_sum: 5500n }),
    ]);
    expect((await checkpoint())?.entries_sum).toBe(5500n);
  });
});
