import { expireDueTransactions } from "@lm/domain";
import { waitUntil } from "@lm/testing";
import { withoutChargeFields } from "@lm/wire";
import { chargeBody, useTestMerchant } from "../support/merchant-client";
import { useApiTestContext } from "../support/harness";
import { holdInTransaction, lockWaiters } from "../support/row-locks";

describe("charge expiry", () => {
  const ctx = useApiTestContext();
  const merchant = useTestMerchant(ctx, { postbackSecret: true });
  const charge = async (overrides: Record<string, unknown> = {}) =>
    (await merchant.client.post("/v1/transactions", chargeBody(overrides)).expect(201)).body;
  const makeOverdue = (id: string, secondsAgo = 5) =>
    ctx.db.transaction.update({ where: { id }, data: { expires_at: new Date(Date.now() - secondsAgo * 1_000) } });
  const statusOf = async (id: string) => (await ctx.db.transaction.findUniqueOrThrow({ where: { id } })).status;
  const expiredEvents = (id: string) =>
    ctx.db.event.count({ where: { type: "transaction.expired", data: { path: ["id"], equals: id } } });

  test("when a charge is created, then Redis holds no job for its expiry", async () => {
    const txn = await charge({ expires_in: 600 });

    const counts = await ctx.deps.producer.queue("charge-expiry").getJobCounts();

    expect(txn.status).toBe("pending");
    expect(Object.values(counts).reduce((sum, n) => sum + n, 0)).toBe(0);
  });

  test("when an overdue pending charge is swept, then status expired, transaction.expired equal to GET, postback fan-out", async () => {
    const txn = await charge({ postback_url: "http://127.0.0.1:9/hook" });
    await makeOverdue(txn.id);

    expect(await expireDueTransactions(ctx.deps)).toBe(1);

    const row = await ctx.db.transaction.findUniqueOrThrow({ where: { id: txn.id } });
    expect(row.status).toBe("expired");
    expect(row.expired_at).toEqual(row.expires_at);
    const read = (await merchant.client.get(`/v1/transactions/${txn.id}`)).body;
    const event = await ctx.db.event.findFirstOrThrow({
      where: { type: "transaction.expired", data: { path: ["id"], equals: txn.id } },
    });
    expect(event.data).toEqual(withoutChargeFields(read));
    expect(await ctx.db.webhookDelivery.count({ where: { event_id: event.id, destination_type: "postback" } })).toBe(1);
  });

  test("when the sweep runs again, then expired, not yet due and canceled charges are left as they are", async () => {
    const expired = await charge();
    await makeOverdue(expired.id);
    await expireDueTransactions(ctx.deps);
    const notDue = await charge();
    const canceled = await charge();
    await merchant.client.post(`/v1/transactions/${canceled.id}/cancel`).expect(200);
    await makeOverdue(canceled.id);
    const eventsBefore = await ctx.db.event.count();

    expect(await expireDueTransactions(ctx.deps)).toBe(0);

    expect(await ctx.db.event.count()).toBe(eventsBefore);
    expect(await statusOf(notDue.id)).toBe("pending");
    expect(await statusOf(canceled.id)).toBe("canceled");
  });

  test("when three sweeps run at once, then every overdue charge is expired exactly once, with one postback", async () => {
    const overdue = await Promise.all(
      Array.from({ length: 30 }, () => charge({ postback_url: "http://127.0.0.1:9/hook" })),
    );
    await Promise.all(overdue.map((txn) => makeOverdue(txn.id)));

    const counts = await Promise.all([1, 2, 3].map(() => expireDueTransactions(ctx.deps)));

    expect(counts.reduce((sum, n) => sum + n, 0)).toBe(30);
    for (const txn of overdue) {
      expect(await statusOf(txn.id)).toBe("expired");
      expect(await expiredEvents(txn.id)).toBe(1);
      const postbacks = await ctx.db.webhookDelivery.count({
        where: { transaction_id: txn.id, event_type: "transaction.expired" },
      });
      expect(postbacks).toBe(1);
    }
  });

  test("when a charge is paid after the sweep read it, then the sweep leaves it paid and writes no event", async () => {
    const paidMeanwhile = await charge();
    const overdue = await charge();
    await makeOverdue(paidMeanwhile.id, 10);
    await makeOverdue(overdue.id, 5);
    // A payment holds the charge's row, not yet committed: the sweep reads it as pending and its update waits.
    const payment = await holdInTransaction(ctx.db, (tx) =>
      tx.transaction.update({ where: { id: paidMeanwhile.id }, data: { status: "paid" } }),
    );

    const sweep = expireDueTransactions(ctx.deps);
    await waitUntil("the sweep's update waits for the payment", async () => (await lockWaiters(ctx.db)) > 0);
    await payment.release();

    expect(await sweep).toBe(1);

    expect(await statusOf(paidMeanwhile.id)).toBe("paid");
    expect(await expiredEvents(paidMeanwhile.id)).toBe(0);
    expect(await statusOf(overdue.id)).toBe("expired");
  });

  test("when more charges are due than a sweep takes, then it expires the oldest and the next sweep the rest", async () => {
    const overdue = [];
    for (let i = 0; i < 5; i++) overdue.push(await charge());
    await Promise.all(overdue.map((txn, i) => makeOverdue(txn.id, 50 - i)));

    expect(await expireDueTransactions(ctx.deps, 3)).toBe(3);
    expect(await Promise.all(overdue.map((txn) => statusOf(txn.id)))).toEqual([
      "expired",
      "expired",
      "expired",
      "pending",
      "pending",
    ]);
    expect(await expireDueTransactions(ctx.deps, 3)).toBe(2);
    expect(await statusOf(overdue[4].id)).toBe("expired");
  });
});
