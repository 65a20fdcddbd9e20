import { randomUUID } from "node:crypto";
import { readSellerDocument } from "@lm/domain";
import { useApiTestContext } from "../support/harness";
import { settleWithdrawals } from "../support/money";
import { moneyOwner, type MoneyOwner } from "../support/money-owner";
import { ownerMerchantClient } from "../support/webhook-endpoints";

/** `POST /v1/withdrawals` with a test key: how `lm trigger withdrawal.completed` reaches a withdrawal (DESIGN §12). */
describe("POST /v1/withdrawals (API key, test mode)", () => {
  const ctx = useApiTestContext();
  const withdraw = (owner: MoneyOwner, body: object) =>
    owner.api.post("/v1/withdrawals", body).set("Idempotency-Key", randomUUID());
  const addOwnDocumentKey = async (owner: MoneyOwner) => {
    const document = readSellerDocument(ctx.config.encryptionKey, owner.seller);
    return (await owner.panel.post("/v1/me/payout-keys", { type: document.kind, key: document.digits }).expect(201))
      .body;
  };
  const withdrawalsOf = (owner: MoneyOwner) => ctx.db.withdrawal.count({ where: { seller_id: owner.seller.id } });

  test("when no payout key is named, then it goes to the seller's own CPF/CNPJ key and completes", async () => {
    const owner = await moneyOwner(ctx, 5_000);
    const ownKey = await addOwnDocumentKey(owner);

    const res = await withdraw(owner, { amount: 1_500 });
    await settleWithdrawals(ctx);

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: "withdrawal",
      mode: "test",
      amount: 1_500,
      payout_key: { id: ownKey.id },
    });
    expect((await owner.api.get(`/v1/withdrawals/${res.body.id}`)).body.status).toBe("completed");
    expect((await owner.api.get("/v1/balance")).body).toMatchObject({ available: 3_500, reserved: 0 });
  });

  test("when a payout key is named, then the withdrawal goes to it", async () => {
    const owner = await moneyOwner(ctx, 5_000);

    const res = await withdraw(owner, { amount: 700, payout_key_id: owner.payoutKeyId });

    expect(res.status).toBe(201);
    expect(res.body.payout_key.id).toBe(owner.payoutKeyId);
  });

  test("when the seller has no own-document key and none is named, then 409 invalid_state saying how, and nothing moves", async () => {
    const owner = await moneyOwner(ctx, 5_000);

    const res = await withdraw(owner, { amount: 700 });

    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: "invalid_state", param: "payout_key_id" });
    expect(res.body.error.message).toMatch(/POST \/v1\/me\/payout-keys/);
    expect(await withdrawalsOf(owner)).toBe(0);
    expect((await owner.api.get("/v1/balance")).body).toMatchObject({ available: 5_000, reserved: 0 });
  });

  test("when the key is a live key, then 403 test_mode_only and nothing moves", async () => {
    const owner = await moneyOwner(ctx, 5_000);
    await addOwnDocumentKey(owner);
    await ctx.db.seller.update({ where: { id: owner.seller.id }, data: { kyc_status: "approved" } });
    const live = await ownerMerchantClient(ctx, owner, "live");

    const res = await live.post("/v1/withdrawals", { amount: 100 }).set("Idempotency-Key", randomUUID());

    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("test_mode_only");
    expect(res.body.error.message).toMatch(/panel/);
    expect(await withdrawalsOf(owner)).toBe(0);
  });

  test("when Idempotency-Key is missing, then 400 validation_failed naming it, and nothing moves", async () => {
    const owner = await moneyOwner(ctx, 5_000);
    await addOwnDocumentKey(owner);

    const res = await owner.api.post("/v1/withdrawals", { amount: 100 });

    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "validation_failed", param: "Idempotency-Key" });
    expect(await withdrawalsOf(owner)).toBe(0);
  });

  test("when the amount exceeds the balance, then 409 insufficient_funds", async () => {
    const owner = await moneyOwner(ctx, 1_000);
    await addOwnDocumentKey(owner);

    const res = await withdraw(owner, { amount: 1_001 });

    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("insufficient_funds");
    expect(await withdrawalsOf(owner)).toBe(0);
  });
});
