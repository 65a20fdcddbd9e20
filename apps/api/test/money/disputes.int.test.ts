import { findBalanceDrift, reprocessInboxItem } from "@lm/domain";
import { createTestMerchant } from "@lm/testing";
import { useApiTestContext } from "../support/harness";
import { chargeBody, merchantClient } from "../support/merchant-client";
import { paidCharge, processInbox } from "../support/money";
import { requestRefund } from "../support/money-requests";
import { moneyOwner, type MoneyOwner } from "../support/money-owner";
import { waitForMail } from "../support/panel";

/**
 * Disputes (DESIGN §11): the payer's bank takes money of a paid charge back under the MED, here through the
 * sandbox's `simulate-dispute` (an unrequested devolução on the same inbound path as a bank's), against real
 * PostgreSQL, races included.
 */
describe("disputes (MED)", () => {
  const ctx = useApiTestContext();

  const balanceOf = async (owner: MoneyOwner) => (await owner.api.get("/v1/balance").expect(200)).body;
  const dispute = (owner: MoneyOwner, chargeId: string, body: object = {}) =>
    owner.api.post(`/v1/transactions/${chargeId}/simulate-dispute`, body);
  const withdraw = (owner: MoneyOwner, amount: number, key: string) =>
    owner.panel
      .post("/v1/me/withdrawals", { amount, payout_key_id: owner.payoutKeyId, mode: "test" })
      .set("Idempotency-Key", key);
  const expectNoDrift = async () => expect(await findBalanceDrift(ctx.deps.repos)).toEqual([]);

  test("when the payer's bank takes a paid charge back, then the dispute, its ledger entry, the charge, the events, the feed and the mail", async () => {
    const owner = await moneyOwner(ctx, 0);
    const charge = await paidCharge(ctx, owner.api, 10_000);

    const res = await dispute(owner, charge.id, { amount: 4_000 });

    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^dsp_/),
      object: "dispute",
      mode: "test",
      transaction_id: charge.id,
      amount: 4_000,
      reason: expect.stringMatching(/^MED_FRAUDE: /),
      status: "lost",
      end_to_end_id: expect.stringMatching(/^D00000000/),
      created_at: expect.any(String),
    });
    expect(await balanceOf(owner)).toMatchObject({ available: 6_000, reserved: 0 });
    const entries = (await owner.api.get("/v1/balance/transactions").expect(200)).body.data;
    expect(entries[0]).toMatchObject({
      type: "dispute",
      amount: -4_000,
      source: { object: "dispute", id: res.body.id },
    });
    expect((await owner.api.get(`/v1/transactions/${charge.id}`)).body).toMatchObject({
      status: "paid",
      amount_disputed: 4_000,
    });
    const events = await ctx.db.event.findMany({ where: { store_id: owner.storeId }, orderBy: { id: "asc" } });
    // Written in one transaction, in the same millisecond: their ids do not order them.
    expect(
      events
        .map((event) => event.type)
        .slice(-2)
        .sort(),
    ).toEqual(["dispute.created", "transaction.disputed"]);
    expect((await owner.api.get(`/v1/disputes/${res.body.id}`).expect(200)).body).toEqual(res.body);
    expect((await owner.api.get("/v1/disputes").expect(200)).body.data).toEqual([res.body]);
    expect((await owner.panel.get("/v1/me/disputes?mode=test").expect(200)).body.data).toEqual([res.body]);
    expect((await owner.panel.get("/v1/me/disputes?mode=live").expect(200)).body.data).toEqual([]);
    const feed = await ctx.db.notification.findMany({ where: { seller_id: owner.seller.id, type: "dispute.created" } });
    expect(feed).toEqual([expect.objectContaining({ data: expect.objectContaining({ dispute_id: res.body.id }) })]);
    await waitForMail(ctx, owner.email, /^Dispute: R\$ 40,00/);
    await expectNoDrift();
  });

  test("when the same devolução is processed again, then nothing moves twice", async () => {
    const owner = await moneyOwner(ctx, 0);
    const charge = await paidCharge(ctx, owner.api, 3_000);
    const recorded = (await dispute(owner, charge.id).expect(201)).body;
    const item = await ctx.db.inboxItem.findFirstOrThrow({ where: { end_to_end_id: recorded.end_to_end_id } });

    await reprocessInboxItem(ctx.deps, item.id);
    await processInbox(ctx);

    expect(await ctx.db.dispute.count({ where: { transaction_id: charge.id } })).toBe(1);
    expect(await balanceOf(owner)).toMatchObject({ available: 0 });
    expect(recorded.amount).toBe(3_000);
    await expectNoDrift();
  });

  test("when a dispute exceeds the balance, then it overdraws; withdrawals are refused and the next payment repays the debt first", async () => {
    const owner = await moneyOwner(ctx, 0);
    const charge = await paidCharge(ctx, owner.api, 10_000);
    await withdraw(owner, 9_000, "overdraw-1").expect(201);

    await dispute(owner, charge.id).expect(201);

    expect(await balanceOf(owner)).toMatchObject({ available: -9_000, reserved: 9_000 });
    const refused = await withdraw(owner, 1, "overdraw-2");
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("insufficient_funds");
    await paidCharge(ctx, owner.api, 5_000);
    expect(await balanceOf(owner)).toMatchObject({ available: -4_000 });
    await expectNoDrift();
  });

  test("when a dispute is asked of an unpaid charge, or for more than is left, then it is refused and nothing moves", async () => {
    const owner = await moneyOwner(ctx, 0);
    const charge = await paidCharge(ctx, owner.api, 2_000);
    const pending = (await owner.api.post("/v1/transactions", chargeBody()).expect(201)).body;

    const tooMuch = await dispute(owner, charge.id, { amount: 2_001 });
    const unpaid = await dispute(owner, pending.id);
    const invalid = await dispute(owner, charge.id, { amount: 0 });

    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.error).toMatchObject({ code: "invalid_state", param: "amount" });
    expect(unpaid.status).toBe(409);
    expect(invalid.status).toBe(400);
    expect(await ctx.db.dispute.count({ where: { store_id: owner.storeId } })).toBe(0);
    expect(await balanceOf(owner)).toMatchObject({ available: 2_000 });
  });

  test("when a dispute races a withdrawal of the whole balance, then either may win but the dispute is always recorded and the ledger adds up", async () => {
    for (let round = 0; round < 4; round++) {
      const owner = await moneyOwner(ctx, 0);
      const charge = await paidCharge(ctx, owner.api, 8_000);

      const [disputed, withdrawal] = await Promise.all([
        dispute(owner, charge.id),
        withdraw(owner, 8_000, `race-${round}`),
      ]);

      expect(disputed.status).toBe(201);
      expect([201, 409]).toContain(withdrawal.status);
      const balance = await balanceOf(owner);
      if (withdrawal.status === 201) {
        expect(balance).toMatchObject({ available: -8_000, reserved: 8_000 });
      } else {
        expect(withdrawal.body.error.code).toBe("insufficient_funds");
        expect(balance).toMatchObject({ available: 0, reserved: 0 });
      }
    }
    await expectNoDrift();
  });

  test("when a dispute races a refund of the same charge, then both are recorded and the ledger adds up", async () => {
    for (let round = 0; round < 4; round++) {
      const owner = await moneyOwner(ctx, 0);
      const charge = await paidCharge(ctx, owner.api, 6_000);
      await paidCharge(ctx, owner.api, 6_000);

      const [disputed, refund] = await Promise.all([
        dispute(owner, charge.id, { amount: 2_000 }),
        requestRefund(owner.api, charge.id, { amount: 3_000 }),
      ]);

      expect(disputed.status).toBe(201);
      expect(refund.status).toBe(201);
      expect(await balanceOf(owner)).toMatchObject({ available: 12_000 - 2_000 - 3_000, reserved: 3_000 });
      expect((await owner.api.get(`/v1/transactions/${charge.id}`)).body).toMatchObject({
        amount_refunded: 3_000,
        amount_disputed: 2_000,
      });
    }
    await expectNoDrift();
  });

  test("when four disputes of a whole charge race, then one is booked and the others are refused: never more than was paid", async () => {
    const owner = await moneyOwner(ctx, 0);
    const charge = await paidCharge(ctx, owner.api, 1_000);
    await paidCharge(ctx, owner.api, 5_000);

    const replies = await Promise.all([1, 2, 3, 4].map(() => dispute(owner, charge.id, { amount: 1_000 })));

    expect(replies.map((reply) => reply.status).sort()).toEqual([201, 409, 409, 409]);
    for (const refused of replies.filter((reply) => reply.status === 409)) {
      expect(refused.body.error).toMatchObject({ code: "invalid_state", param: "amount" });
    }
    expect(await ctx.db.dispute.count({ where: { transaction_id: charge.id } })).toBe(1);
    expect((await owner.api.get(`/v1/transactions/${charge.id}`)).body.amount_disputed).toBe(1_000);
    expect(await balanceOf(owner)).toMatchObject({ available: 5_000 });
    await expectNoDrift();
  });

  test("when part of a charge was disputed, then refunds reach only what the payer's bank did not take back", async () => {
    const owner = await moneyOwner(ctx, 0);
    const charge = await paidCharge(ctx, owner.api, 5_000);
    await paidCharge(ctx, owner.api, 5_000);
    await dispute(owner, charge.id, { amount: 2_000 }).expect(201);

    const tooMuch = await requestRefund(owner.api, charge.id, { amount: 3_001 });
    const rest = await requestRefund(owner.api, charge.id, {});

    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.error.code).toBe("invalid_state");
    expect(rest.status).toBe(201);
    expect(rest.body.amount).toBe(3_000);
    await expectNoDrift();
  });

  test("when a live key asks, then 403 test_mode_only", async () => {
    const { liveKey } = await createTestMerchant(ctx.db);

    const res = await merchantClient(ctx.app, liveKey).post(
      "/v1/transactions/txn_01JD3Z0000000000000000000/simulate-dispute",
    );

    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("test_mode_only");
  });
});
