import { createWorkerMetrics } from "@lm/metrics";
import { enqueueStrandedPayouts } from "../../../worker/src/sweepers/acquirer-submissions";
import { useApiTestContext } from "../support/harness";
import { paidCharge, settleRefunds, settleWithdrawals } from "../support/money";
import { requestRefund, requestWithdrawal } from "../support/money-requests";
import { moneyOwner } from "../support/money-owner";

describe("the reconciler's sweeps of requests to the acquirer", () => {
  const ctx = useApiTestContext();
  const sweepDeps = () => ({
    repos: ctx.deps.repos,
    producer: ctx.deps.producer,
    now: () => new Date(),
    metrics: createWorkerMetrics({ queues: [], jobCounts: async () => [] }),
  });

  test("when a refund's and a withdrawal's jobs are lost, then the sweep offers them again with their row ids as job ids", async () => {
    const owner = await moneyOwner(ctx, 0);
    const charge = await paidCharge(ctx, owner.api, 2_000);
    const refund = (await requestRefund(owner.api, charge.id, { amount: 500 }).expect(201)).body;
    const withdrawal = (
      await requestWithdrawal(owner.panel, { amount: 500, payout_key_id: owner.payoutKeyId }).expect(201)
    ).body;
    const refunds = ctx.deps.producer.queue("refund-submission");
    const withdrawals = ctx.deps.producer.queue("withdrawal-submission");
    expect(await refunds.getJob(refund.id)).toBeDefined();
    // Redis lost the jobs (a flush, or a crash between commit and enqueue), and a minute passed.
    await refunds.remove(refund.id);
    await withdrawals.remove(withdrawal.id);
    const past = new Date(Date.now() - 120_000);
    await ctx.db.refund.update({ where: { id: refund.id }, data: { updated_at: past } });
    await ctx.db.withdrawal.update({ where: { id: withdrawal.id }, data: { updated_at: past } });

    expect(await enqueueStrandedPayouts(sweepDeps(), "refund")).toBe(1);
    expect(await enqueueStrandedPayouts(sweepDeps(), "withdrawal")).toBe(1);

    expect((await refunds.getJob(refund.id))?.data).toEqual({ refundId: refund.id });
    expect((await withdrawals.getJob(withdrawal.id))?.data).toEqual({ withdrawalId: withdrawal.id });
    await settleRefunds(ctx);
    await settleWithdrawals(ctx);
    expect(await enqueueStrandedPayouts(sweepDeps(), "refund")).toBe(0);
    expect(await enqueueStrandedPayouts(sweepDeps(), "withdrawal")).toBe(0);
  });
});
