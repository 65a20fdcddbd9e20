import { expireDueTransactions } from "@lm/domain";
import { createTestMerchant } from "@lm/testing";
import { chargeBody, merchantClient, useTestMerchant } from "../support/merchant-client";
import { useApiTestContext } from "../support/harness";

describe("POST /v1/transactions/{id}/simulate-expiration", () => {
  const ctx = useApiTestContext();
  const merchant = useTestMerchant(ctx);
  const charge = async () => (await merchant.client.post("/v1/transactions", chargeBody()).expect(201)).body;
  const simulate = (id: string) => merchant.client.post(`/v1/transactions/${id}/simulate-expiration`);

  test("when a pending test charge is expired, then it reads expired at once and the sweep writes its one event", async () => {
    const txn = await charge();

    const res = await simulate(txn.id);

    expect(res.status).toBe(202);
    expect(res.body.status).toBe("expired");
    expect(Date.parse(res.body.expires_at)).toBeLessThanOrEqual(Date.now());
    expect((await merchant.client.get(`/v1/transactions/${txn.id}`)).body.status).toBe("expired");
    expect(await expireDueTransactions(ctx.deps)).toBe(1);
    const row = await ctx.db.transaction.findUniqueOrThrow({ where: { id: txn.id } });
    expect(row.status).toBe("expired");
    expect(row.expired_at).toEqual(row.expires_at);
    const events = await ctx.db.event.count({
      where: { type: "transaction.expired", data: { path: ["id"], equals: txn.id } },
    });
    expect(events).toBe(1);
  });

  test("when the charge is no longer pending, then 409 invalid_state and nothing changes", async () => {
    const canceled = await charge();
    await merchant.client.post(`/v1/transactions/${canceled.id}/cancel`).expect(200);
    const expired = await charge();
    await simulate(expired.id).expect(202);

    for (const id of [canceled.id, expired.id]) {
      const before = await ctx.db.transaction.findUniqueOrThrow({ where: { id } });
      const res = await simulate(id);

      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe("invalid_state");
      expect(await ctx.db.transaction.findUniqueOrThrow({ where: { id } })).toEqual(before);
    }
  });

  test("when a live key asks, then 403 test_mode_only", async () => {
    const { liveKey } = await createTestMerchant(ctx.db);

    const res = await merchantClient(ctx.app, liveKey).post(
      "/v1/transactions/txn_01JD3Z0000000000000000000/simulate-expiration",
    );

    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("test_mode_only");
  });

  test("when the charge belongs to another store, then 404 and it stays pending", async () => {
    const other = await createTestMerchant(ctx.db);
    const txn = await charge();

    const res = await merchantClient(ctx.app, other.testKey).post(`/v1/transactions/${txn.id}/simulate-expiration`);

    expect(res.status).toBe(404);
    expect((await ctx.db.transaction.findUniqueOrThrow({ where: { id: txn.id } })).status).toBe("pending");
  });
});
