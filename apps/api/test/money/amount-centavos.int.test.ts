import { randomUUID } from "node:crypto";
import type request from "supertest";
import { useApiTestContext } from "../support/harness";
import { chargeBody } from "../support/merchant-client";
import { paidCharge } from "../support/money";
import { moneyOwner, type MoneyOwner } from "../support/money-owner";
import { requestRefund, requestWithdrawal } from "../support/money-requests";

/**
 * Every amount field takes integer centavos through one rule (DESIGN §2 "Money"); a fractional amount, the mark of
 * an amount in reais, is refused with a message that names the unit and shows the conversion.
 */
describe("amounts in centavos", () => {
  const ctx = useApiTestContext();
  let owner: MoneyOwner;
  let charge: { id: string };
  beforeAll(async () => {
    owner = await moneyOwner(ctx, 0);
    charge = await paidCharge(ctx, owner.api, 20_000);
  });

  const expectCentavosRefusal = (res: request.Response) => {
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: "invalid_request_error", code: "validation_failed", param: "amount" });
    expect(res.body.error.message).toBe('"amount" must be an integer number of centavos: 100.50 BRL is 10050');
  };

  test.each([100.5, 0.99, "100.50"])(
    "when a charge's amount is %p, then 400 validation_failed saying amounts are integer centavos, and no charge is made",
    async (amount) => {
      const before = await ctx.db.transaction.count();

      const res = await owner.api.post("/v1/transactions", chargeBody({ amount }));

      expectCentavosRefusal(res);
      expect(await ctx.db.transaction.count()).toBe(before);
    },
  );

  test("when a refund's amount is fractional, then the same refusal, and no refund is made", async () => {
    const res = await requestRefund(owner.api, charge.id, { amount: 100.5 });

    expectCentavosRefusal(res);
    expect(await ctx.db.refund.count({ where: { transaction_id: charge.id } })).toBe(0);
  });

  test("when a withdrawal's amount is fractional, in the panel or with a test key, then the same refusal, and no withdrawal is made", async () => {
    const panel = await requestWithdrawal(owner.panel, { amount: 100.5, payout_key_id: owner.payoutKeyId });
    const api = await owner.api
      .post("/v1/withdrawals", { amount: 100.5, payout_key_id: owner.payoutKeyId })
      .set("Idempotency-Key", randomUUID());

    expectCentavosRefusal(panel);
    expectCentavosRefusal(api);
    expect(await ctx.db.withdrawal.count({ where: { seller_id: owner.seller.id } })).toBe(0);
  });

  test("when a simulated dispute's amount is fractional, then the same refusal, and no dispute is made", async () => {
    const res = await owner.api.post(`/v1/transactions/${charge.id}/simulate-dispute`, { amount: 100.5 });

    expectCentavosRefusal(res);
    expect(await ctx.db.dispute.count({ where: { transaction_id: charge.id } })).toBe(0);
  });

  test.each(["100.00", "1500.0", "1e3", "15E2"])(
    "when an amount is written %s, then the same refusal: JSON would read it as an integer number of centavos",
    async (written) => {
      const before = await ctx.db.transaction.count();

      const res = await owner.api
        .post("/v1/transactions")
        .set("Content-Type", "application/json")
        .send(`{"amount": ${written}, "description": "Pedido 1.2"}`);

      expectCentavosRefusal(res);
      expect(await ctx.db.transaction.count()).toBe(before);
    },
  );

  test("when an integer amount's body has a point elsewhere (a description), then it is that many centavos", async () => {
    const res = await owner.api
      .post("/v1/transactions")
      .set("Content-Type", "application/json")
      .send('{"amount": 1500, "description": "Pedido 1.2", "metadata": {"rate": "1.5e3"}}');

    expect(res.status).toBe(201);
    expect(res.body.amount).toBe(1500);
  });
});
