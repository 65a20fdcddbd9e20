import { expireTransaction } from "@lm/domain";
import { chargeBody, useTestMerchant } from "../support/merchant-client";
import { useApiTestContext } from "../support/harness";

describe("charge expiry", () => {
  const ctx = useApiTestContext();
  const merchant = useTestMerchant(ctx);
  const expiryQueue = () => ctx.deps.producer.queue("charge-expiry");
  const charge = async (overrides: Record<string, unknown> = {}) =>
    (await merchant.client.post("/v1/transactions", chargeBody(overrides)).expect(201)).body;
  const makeOverdue = (id: string) =>
    ctx.db.transaction.update({ where: { id }, data: { expires_at: new Date(Date.now() - 5_000) } });

  test("when a charge is created, then a charge-expiry job with the charge's id is delayed until expires_at", async () => {
    const txn = await charge({ expires_in: 600 });

    const job = await expiryQueue().getJob(txn.id);

    expect(job?.data).toEqual({ transactionId: txn.id });
    expect(await job?.isDelayed()).toBe(true);
    expect(job!.timestamp + job!.delay).toBeGreaterThanOrEqual(Date.parse(txn.expires_at) - 1_000);
    expect(job!.timestamp + job!.delay).toBeLessThanOrEqual(Date.parse(txn.expires_at) + 1_000);
  });

  test("when an overdue pending charge is expired, then status expired, transaction.expired equal to GET, postback fan-out", async () => {
    const txn = await charge({ postback_url: "http://127.0.0.1:9/hook" });
    await makeOverdue(txn.id);

    expect(await expireTransaction(ctx.deps, txn.id)).toBe(true);

    const row = await ctx.db.transaction.findUniqueOrThrow({ where: { id: txn.id } });
    expect(row.status).toBe("expired");
    expect(row.expired_at).toEqual(row.expires_at);
    const read = (await merchant.client.get(`/v1/transactions/${txn.id}`)).body;
    const event = await ctx.db.event.findFirstOrThrow({
      where: { type: "transaction.expired", data: { path: ["id"], equals: txn.id } },
    });
    expect(event.data).toEqual(read);
    expect(await ctx.db.webhookDelivery.count({ where: { event_id: event.id, destination_type: "postback" } })).toBe(1);
  });

  test("when the job runs again for an expired charge, or early, or for a canceled one, then nothing changes", async () => {
    const expired = await charge();
    await makeOverdue(expired.id);
    await expireTransaction(ctx.deps, expired.id);
    const notDue = await charge();
    const canceled = await charge();
    await merchant.client.post(`/v1/transactions/${canceled.id}/cancel`).expect(200);
    await makeOverdue(canceled.id);
    const eventsBefore = await ctx.db.event.count();

    expect(await expireTransaction(ctx.deps, expired.id)).toBe(false);
    expect(await expireTransaction(ctx.deps, notDue.id)).toBe(false);
    expect(await expireTransaction(ctx.deps, canceled.id)).toBe(false);

    expect(await ctx.db.event.count()).toBe(eventsBefore);
    expect((await ctx.db.transaction.findUniqueOrThrow({ where: { id: notDue.id } })).status).toBe("pending");
    expect((await ctx.db.transaction.findUniqueOrThrow({ where: { id: canceled.id } })).status).toBe("canceled");
  });
});
