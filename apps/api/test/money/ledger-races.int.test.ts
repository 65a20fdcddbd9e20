import { appendBalanceTransaction, findBalanceDrift, submitRefund } from "@lm/domain";
import { createTestMerchant } from "@lm/testing";
import { useApiTestContext } from "../support/harness";
import { merchantClient, type MerchantClient } from "../support/merchant-client";
import { paidCharge, processInbox } from "../support/money";
import { requestRefund } from "../support/money-requests";

/** A fresh merchant (its own balance) and its test client. */
async function freshMerchant(
  ctx: ReturnType<typeof useApiTestContext>,
): Promise<{ sellerId: string; client: MerchantClient }> {
  const merchant = await createTestMerchant(ctx.db);
  return { sellerId: merchant.sellerId, client: merchantClient(ctx.app, merchant.testKey) };
}

describe("the ledger under concurrent writers (real PostgreSQL)", () => {
  const ctx = useApiTestContext();

  test("when 50 refunds of 200 race on one paid charge of 5000, then exactly 25 are created, 25 get invalid_state, and nothing goes negative", async () => {
    const { client } = await freshMerchant(ctx);
    const charge = await paidCharge(ctx, client, 5000);

    const replies = await Promise.all(
      Array.from({ length: 50 }, () => requestRefund(client, charge.id, { amount: 200 })),
    );

    const statuses = replies.map((r) => (r.status === 201 ? 201 : `${r.status} ${r.body.error.code}`));
    expect(statuses.filter((s) => s === 201)).toHaveLength(25);
    expect(statuses.filter((s) => s === "409 invalid_state")).toHaveLength(25);
    expect((await client.get(`/v1/transactions/${charge.id}`)).body.amount_refunded).toBe(5000);
    expect((await client.get("/v1/balance")).body).toMatchObject({ available: 0, reserved: 5000 });
  });

  test("when 50 full refunds race on one paid charge, then exactly one is created", async () => {
    const { client } = await freshMerchant(ctx);
    const charge = await paidCharge(ctx, client, 1234);

    const replies = await Promise.all(Array.from({ length: 50 }, () => requestRefund(client, charge.id, {})));

    expect(replies.filter((r) => r.status === 201).map((r) => r.body.amount)).toEqual([1234]);
    expect(await ctx.db.refund.count({ where: { transaction_id: charge.id } })).toBe(1);
  });

  test("when a partial refund and a refund without amount race on a paid charge, then the one without amount takes what the other left: the two refund the charge exactly", async () => {
    const { client } = await freshMerchant(ctx);
    const outcomes: string[] = [];

    for (let round = 0; round < 10; round++) {
      const charge = await paidCharge(ctx, client, 1000);
      const [partial, rest] = await Promise.all([
        requestRefund(client, charge.id, { amount: 300 }),
        requestRefund(client, charge.id, {}),
      ]);
      const refunded = (await client.get(`/v1/transactions/${charge.id}`)).body.amount_refunded;
      const reply = (r: typeof partial) =>
        r.status === 201 ? `201 ${r.body.amount}` : `${r.status} ${r.body.error.code}`;
      outcomes.push(`${reply(partial)} / ${reply(rest)} / refunded ${refunded}`);
    }

    // The refund without amount may come first and take all, leaving nothing for the partial one; it never fails.
    const expected = ["201 300 / 201 700 / refunded 1000", "409 invalid_state / 201 1000 / refunded 1000"];
    expect(outcomes.filter((outcome) => !expected.includes(outcome))).toEqual([]);
  });

  test("when refunds race the settlement of another payment with the balance at zero, then only what the settlement credited is refunded", async () => {
    const { sellerId, client } = await freshMerchant(ctx);
    const charge = await paidCharge(ctx, client, 1000);
    // The balance is emptied by another outflow, then a second charge's payment arrives while 20 refunds of the first race it.
    await ctx.deps.repos.transaction((tx) =>
      appendBalanceTransaction(tx, {
        sellerId,
        mode: "test",
        type: "withdrawal",
        amount: -1000,
        sourceId: `wd_race_${charge.id}`,
        now: new Date(),
      }),
    );
    const second = (await client.post("/v1/transactions", { amount: 600 }).expect(201)).body;
    await client.post(`/v1/transactions/${second.id}/simulate-payment`).expect(202);

    const [replies] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, () => requestRefund(client, charge.id, { amount: 100 }))),
      processInbox(ctx),
    ]);

    const created = replies.filter((r) => r.status === 201).length;
    expect(replies.filter((r) => r.status !== 201).map((r) => r.body.error.code)).toEqual(
      Array(20 - created).fill("insufficient_funds"),
    );
    expect(created).toBeLessThanOrEqual(6);
    expect((await client.get(`/v1/transactions/${second.id}`)).body.status).toBe("paid");
    expect((await client.get("/v1/balance")).body).toMatchObject({
      available: 600 - created * 100,
      reserved: created * 100,
    });
    expect((await client.get(`/v1/transactions/${charge.id}`)).body.amount_refunded).toBe(created * 100);
    await ctx.deps.repos.transaction((tx) =>
      appendBalanceTransaction(tx, {
        sellerId,
        mode: "test",
        type: "withdrawal_reversal",
        amount: 1000,
        sourceId: `wd_race_${charge.id}`,
        now: new Date(),
      }),
    );
  });

  test("when refunds race the failure of a full refund of the same charge, then the remainder frees up without ever refunding more than was paid", async () => {
    const { client } = await freshMerchant(ctx);
    const charge = await paidCharge(ctx, client, 1013);
    const full = (await requestRefund(client, charge.id, {}).expect(201)).body;
    await submitRefund(ctx.deps, full.id);

    const [replies] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, () => requestRefund(client, charge.id, { amount: 100 }))),
      processInbox(ctx),
    ]);

    expect((await client.get(`/v1/refunds/${full.id}`)).body.status).toBe("failed");
    const created = replies.filter((r) => r.status === 201).length;
    expect(replies.filter((r) => r.status !== 201).map((r) => r.body.error.code)).toEqual(
      Array(20 - created).fill("invalid_state"),
    );
    expect(created).toBeLessThanOrEqual(10);
    expect((await client.get(`/v1/transactions/${charge.id}`)).body.amount_refunded).toBe(created * 100);
    expect((await client.get("/v1/balance")).body).toMatchObject({
      available: 1013 - created * 100,
      reserved: created * 100,
    });
  });

  test("when the races are over, then every running total equals the sum of its entries and none is negative", async () => {
    expect(await findBalanceDrift(ctx.deps.repos)).toEqual([]);
    expect(await ctx.db.balance.count({ where: { OR: [{ available: { lt: 0 } }, { reserved: { lt: 0 } }] } })).toBe(0);
  });
});
