import {
  appendBalanceTransaction,
  findBalanceDrift,
  newId,
  postSandboxNotification,
  reprocessInboxItem,
  submitRefund,
} from "@lm/domain";
import { useApiTestContext } from "../support/harness";
import { useLiveBank } from "../support/live-bank";
import { createTestMerchant } from "@lm/testing";
import { withoutChargeFields } from "@lm/wire";
import { merchantClient, useTestMerchant } from "../support/merchant-client";
import { paidCharge, processInbox, settleRefunds } from "../support/money";
import { requestRefund } from "../support/money-requests";

describe("refunds of paid charges and the balance ledger", () => {
  const ctx = useApiTestContext();
  const bank = useLiveBank(ctx);
  const merchant = useTestMerchant(ctx);

  test("when a charge is paid, then its payment entry and the balance appear, and the charge reads amount_refunded 0", async () => {
    const before = (await merchant.client.get("/v1/balance").expect(200)).body;

    const charge = await paidCharge(ctx, merchant.client, 2500);

    const after = (await merchant.client.get("/v1/balance").expect(200)).body;
    expect(after).toEqual({
      object: "balance",
      mode: "test",
      currency: "BRL",
      available: before.available + 2500,
      reserved: before.reserved,
    });
    expect(charge.amount_refunded).toBe(0);
    const list = (await merchant.client.get("/v1/balance/transactions?limit=1").expect(200)).body;
    expect(list).toEqual({
      object: "list",
      has_more: expect.any(Boolean),
      data: [
        {
          id: expect.stringMatching(/^btx_[0-9A-Z]{26}$/),
          object: "balance_transaction",
          mode: "test",
          type: "payment",
          amount: 2500,
          source: { object: "transaction", id: charge.id },
          created_at: expect.any(String),
        },
      ],
    });
  });

  test("when half of a paid charge is refunded, then 201 pending, the amount moves from available to reserved and the charge's remainder shrinks", async () => {
    const charge = await paidCharge(ctx, merchant.client, 1000);
    const before = (await merchant.client.get("/v1/balance")).body;

    const res = await requestRefund(merchant.client, charge.id, {
      amount: 500,
      reason: "Cliente desistiu",
    });

    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^rfd_[0-9A-Z]{26}$/),
      object: "refund",
      mode: "test",
      transaction_id: charge.id,
      amount: 500,
      status: "pending",
      reason: "Cliente desistiu",
      end_to_end_id: null,
      failure_reason: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const after = (await merchant.client.get("/v1/balance")).body;
    expect([after.available, after.reserved]).toEqual([before.available - 500, before.reserved + 500]);
    expect((await merchant.client.get(`/v1/transactions/${charge.id}`)).body).toMatchObject({
      status: "paid",
      amount_refunded: 500,
    });
    expect((await merchant.client.get(`/v1/refunds/${res.body.id}`)).body).toEqual(res.body);
    const listed = (await merchant.client.get(`/v1/transactions/${charge.id}/refunds`)).body;
    expect(listed.data.map((r: { id: string }) => r.id)).toEqual([res.body.id]);
    const created = await ctx.db.event.findFirst({
      where: { type: "refund.created", data: { path: ["id"], equals: res.body.id } },
    });
    expect(created?.data).toEqual(res.body);
  });

  test("when the sandbox returns a refund, then the inbox item settles it succeeded with the return's end-to-end id and the reserve is released", async () => {
    const charge = await paidCharge(ctx, merchant.client, 1000);
    const refund = (await requestRefund(merchant.client, charge.id, { amount: 400 }).expect(201)).body;
    const before = (await merchant.client.get("/v1/balance")).body;

    await settleRefunds(ctx);

    const settled = (await merchant.client.get(`/v1/refunds/${refund.id}`)).body;
    expect(settled).toMatchObject({
      status: "succeeded",
      end_to_end_id: expect.stringMatching(/^D00000000\d{12}[0-9a-f]{11}$/),
    });
    const after = (await merchant.client.get("/v1/balance")).body;
    // Every refund of the file so far is settled now, so nothing stays reserved.
    expect([after.available, after.reserved]).toEqual([before.available, 0]);
    expect(before.reserved).toBeGreaterThanOrEqual(400);
    const item = await ctx.db.inboxItem.findFirstOrThrow({
      where: { event_type: "devolucao", end_to_end_id: settled.end_to_end_id },
    });
    expect(item).toMatchObject({ transaction_id: charge.id, error: null, processed_at: expect.any(Date) });
    expect(
      await ctx.db.event.count({ where: { type: "refund.succeeded", data: { path: ["id"], equals: refund.id } } }),
    ).toBe(1);
  });

  test("when the refunds of a charge succeed up to its amount, then it turns refunded with transaction.refunded", async () => {
    const charge = await paidCharge(ctx, merchant.client, 800);
    await requestRefund(merchant.client, charge.id, { amount: 300 }).expect(201);
    const rest = await requestRefund(merchant.client, charge.id, {});
    expect(rest.body.amount).toBe(500);

    await settleRefunds(ctx);

    const read = (await merchant.client.get(`/v1/transactions/${charge.id}`)).body;
    expect(read).toMatchObject({ status: "refunded", amount_refunded: 800 });
    const events = await ctx.db.event.findMany({
      where: { type: "transaction.refunded", data: { path: ["id"], equals: charge.id } },
    });
    expect(events.map((e) => e.data)).toEqual([withoutChargeFields(read)]);
    const more = await requestRefund(merchant.client, charge.id, { amount: 1 });
    expect([more.status, more.body.error.code]).toEqual([409, "invalid_state"]);
    expect(
      (await merchant.client.get("/v1/transactions?status=refunded")).body.data.map((t: { id: string }) => t.id),
    ).toContain(charge.id);
  });

  test("when a refund's amount ends in 13, then the sandbox refuses it: failed rejected_by_acquirer, a refund_reversal, the remainder back", async () => {
    const charge = await paidCharge(ctx, merchant.client, 5000);
    const before = (await merchant.client.get("/v1/balance")).body;
    const refund = (await requestRefund(merchant.client, charge.id, { amount: 1013 }).expect(201)).body;

    await settleRefunds(ctx);

    expect((await merchant.client.get(`/v1/refunds/${refund.id}`)).body).toMatchObject({
      status: "failed",
      failure_reason: "rejected_by_acquirer",
    });
    expect((await merchant.client.get("/v1/balance")).body).toMatchObject({
      available: before.available,
      reserved: before.reserved,
    });
    expect((await merchant.client.get(`/v1/transactions/${charge.id}`)).body).toMatchObject({
      status: "paid",
      amount_refunded: 0,
    });
    const entries = await ctx.db.balanceTransaction.findMany({
      where: { source_id: refund.id },
      orderBy: { id: "asc" },
    });
    expect(entries.map((e) => [e.type, e.amount])).toEqual([
      ["refund", -1013],
      ["refund_reversal", 1013],
    ]);
    expect(
      await ctx.db.event.count({ where: { type: "refund.failed", data: { path: ["id"], equals: refund.id } } }),
    ).toBe(1);
  });

  test("when a settled refund's inbox item is reprocessed, then nothing moves twice", async () => {
    const charge = await paidCharge(ctx, merchant.client, 700);
    const refund = (await requestRefund(merchant.client, charge.id, { amount: 213 }).expect(201)).body;
    await settleRefunds(ctx);
    const item = await ctx.db.inboxItem.findFirstOrThrow({
      where: { event_type: "devolucao", transaction_id: charge.id },
    });
    const before = (await merchant.client.get("/v1/balance")).body;

    await reprocessInboxItem(ctx.deps, item.id);
    const results = await processInbox(ctx);

    expect(results).toEqual(["already_settled"]);
    expect((await merchant.client.get("/v1/balance")).body).toEqual(before);
    expect(await ctx.db.balanceTransaction.count({ where: { source_id: refund.id } })).toBe(2);
  });

  test("when the acquirer later reports a failed refund as returned, then nothing moves and the inbox item records conflicting_outcome", async () => {
    const charge = await paidCharge(ctx, merchant.client, 2000);
    const refund = (await requestRefund(merchant.client, charge.id, { amount: 1313 }).expect(201)).body;
    await settleRefunds(ctx);
    const before = (await merchant.client.get("/v1/balance")).body;

    await postSandboxNotification(ctx.deps, {
      pix: [
        {
          endToEndId: "E-late",
          txid: "T",
          valor: "20.00",
          horario: new Date().toISOString(),
          devolucoes: [{ id: refund.id, rtrId: "D-late", valor: "13.13", status: "DEVOLVIDO" }],
        },
      ],
    });
    const results = await processInbox(ctx);

    expect(results).toEqual(["conflicting_outcome"]);
    expect(await ctx.db.inboxItem.findFirstOrThrow({ where: { end_to_end_id: "D-late" } })).toMatchObject({
      error: "conflicting_outcome: failed",
      transaction_id: charge.id,
    });
    expect((await merchant.client.get("/v1/balance")).body).toEqual(before);
    expect((await merchant.client.get(`/v1/refunds/${refund.id}`)).body.status).toBe("failed");
  });

  test("when a refund has no Idempotency-Key, then 400 validation_failed naming the header, and nothing is written", async () => {
    const charge = await paidCharge(ctx, merchant.client, 800);
    const before = (await merchant.client.get("/v1/balance")).body;

    const res = await merchant.client.post(`/v1/transactions/${charge.id}/refunds`, { amount: 100 });

    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "validation_failed", param: "Idempotency-Key" });
    expect(res.body.error.message).toMatch(/Idempotency-Key header is required/);
    expect(res.body.error.message).toMatch(/unique key per refund/);
    expect(res.body.error.message).toMatch(/retry with the same key is safe/i);
    expect(await ctx.db.refund.count({ where: { transaction_id: charge.id } })).toBe(0);
    expect((await merchant.client.get("/v1/balance")).body).toEqual(before);
  });

  test("when a refund repeats its Idempotency-Key, then the first reply comes back and only one refund exists", async () => {
    const charge = await paidCharge(ctx, merchant.client, 900);
    const send = () =>
      merchant.client
        .post(`/v1/transactions/${charge.id}/refunds`, { amount: 100 })
        .set("Idempotency-Key", `rf-${charge.id}`);

    const first = await send();
    const second = await send();

    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers["idempotent-replayed"]).toBe("true");
    expect(second.body).toEqual(first.body);
    expect(await ctx.db.refund.count({ where: { transaction_id: charge.id } })).toBe(1);
  });

  test.each([
    ["more than the remainder", { amount: 1001 }],
    ["zero", { amount: 0 }],
  ])("when the amount is %s, then it is refused and nothing changes", async (_label, body) => {
    const charge = await paidCharge(ctx, merchant.client, 1000);
    const before = (await merchant.client.get("/v1/balance")).body;

    const res = await requestRefund(merchant.client, charge.id, body);

    expect([400, 409]).toContain(res.status);
    expect(res.body.error.code).toBe(res.status === 400 ? "validation_failed" : "invalid_state");
    expect((await merchant.client.get("/v1/balance")).body).toEqual(before);
    expect(await ctx.db.refund.count({ where: { transaction_id: charge.id } })).toBe(0);
  });

  test("when the charge is not paid, then 409 invalid_state", async () => {
    const pending = (await merchant.client.post("/v1/transactions", { amount: 100 }).expect(201)).body;

    const res = await requestRefund(merchant.client, pending.id, {});

    expect([res.status, res.body.error.code]).toEqual([409, "invalid_state"]);
  });

  test("when available is short of the amount, then 409 insufficient_funds and nothing changes", async () => {
    const charge = await paidCharge(ctx, merchant.client, 1000);
    const { available } = (await merchant.client.get("/v1/balance")).body;
    // Another outflow took the money: a withdrawal entry of everything but 100 centavos.
    await ctx.deps.repos.transaction((tx) =>
      appendBalanceTransaction(tx, {
        sellerId: merchant.sellerId,
        mode: "test",
        type: "withdrawal",
        amount: -(available - 100),
        sourceId: `wd_test_${charge.id}`,
        reservedDelta: 0,
        now: new Date(),
      }),
    );

    const res = await requestRefund(merchant.client, charge.id, { amount: 500 });

    expect([res.status, res.body.error.code]).toEqual([409, "insufficient_funds"]);
    expect((await merchant.client.get(`/v1/transactions/${charge.id}`)).body.amount_refunded).toBe(0);
    expect((await merchant.client.get("/v1/balance")).body.available).toBe(100);
    // Put the money back so the ledger stays explained for the drift check.
    await ctx.deps.repos.transaction((tx) =>
      appendBalanceTransaction(tx, {
        sellerId: merchant.sellerId,
        mode: "test",
        type: "withdrawal_reversal",
        amount: available - 100,
        sourceId: `wd_test_${charge.id}`,
        now: new Date(),
      }),
    );
  });

  test("when a live charge no bank registered is refunded, then 503 acquirer_not_configured and nothing is created", async () => {
    // A live charge from before live mode had a bank: nobody can return its money.
    const live = merchantClient(ctx.app, merchant.liveKey);
    const charge = (await live.post("/v1/transactions", { amount: 100 }).expect(201)).body;
    await ctx.db.transaction.update({
      where: { id: charge.id },
      data: { acquirer_id: null, status: "paid", paid_at: new Date(), payment_end_to_end_id: `E-nobank-${charge.id}` },
    });

    const res = await requestRefund(live, charge.id, {});

    expect(res.status).toBe(503);
    expect(res.body.error).toMatchObject({ type: "acquirer_error", code: "acquirer_not_configured" });
    expect(await ctx.db.refund.count({ where: { transaction_id: charge.id } })).toBe(0);
  });

  /** A paid live charge of `amount` with a refund of all of it written directly, as `createRefund` would. */
  async function liveRefundOfWholeCharge(amount: number): Promise<{ chargeId: string; refundId: string }> {
    const live = merchantClient(ctx.app, merchant.liveKey);
    const charge = (await live.post("/v1/transactions", { amount }).expect(201)).body;
    const { endToEndId } = await bank.current.payCharge(charge.txid);
    const now = new Date();
    const refundId = newId("refund");
    await ctx.db.transaction.update({
      where: { id: charge.id },
      data: {
        status: "paid",
        paid_at: now,
        payment_end_to_end_id: endToEndId,
        payment_amount: amount,
        amount_refunded: amount,
      },
    });
    await ctx.deps.repos.transaction(async (tx) => {
      await appendBalanceTransaction(tx, {
        sellerId: merchant.sellerId,
        mode: "live",
        type: "payment",
        amount,
        sourceId: charge.id,
        now,
      });
      await tx.refunds.insertRefund({
        id: refundId,
        transaction_id: charge.id,
        store_id: merchant.storeId,
        seller_id: merchant.sellerId,
        mode: "live",
        amount,
      });
      await appendBalanceTransaction(tx, {
        sellerId: merchant.sellerId,
        mode: "live",
        type: "refund",
        amount: -amount,
        sourceId: refundId,
        reservedDelta: amount,
        now,
      });
    });
    return { chargeId: charge.id, refundId };
  }

  test("when the bank never accepts a refund, then the fifth failed request fails it with acquirer_unavailable and puts the money back", async () => {
    const live = merchantClient(ctx.app, merchant.liveKey);
    const before = (await live.get("/v1/balance")).body.available;
    const { chargeId, refundId } = await liveRefundOfWholeCharge(900);
    bank.current.failNext(5, 503);

    const outcomes: string[] = [];
    for (let attempt = 1; attempt <= 5; attempt++)
      outcomes.push(await submitRefund(ctx.deps, refundId).catch(() => "threw"));

    expect(outcomes).toEqual(["threw", "threw", "threw", "threw", "failed"]);
    expect(await ctx.db.refund.findUniqueOrThrow({ where: { id: refundId } })).toMatchObject({
      status: "failed",
      failure_reason: "acquirer_unavailable",
      submit_attempts: 5,
    });
    expect((await live.get(`/v1/transactions/${chargeId}`)).body).toMatchObject({ status: "paid", amount_refunded: 0 });
    expect((await live.get("/v1/balance")).body).toMatchObject({ available: before + 900, reserved: 0 });
  });

  test("when the bank refuses a refund, then it fails at once with rejected_by_acquirer and puts the money back", async () => {
    const live = merchantClient(ctx.app, merchant.liveKey);
    const before = (await live.get("/v1/balance")).body.available;
    const { chargeId, refundId } = await liveRefundOfWholeCharge(700);
    bank.current.failNext(1, 400);

    const outcome = await submitRefund(ctx.deps, refundId);

    expect(outcome).toBe("failed");
    expect(await ctx.db.refund.findUniqueOrThrow({ where: { id: refundId } })).toMatchObject({
      status: "failed",
      failure_reason: "rejected_by_acquirer",
      submit_attempts: 1,
    });
    expect((await live.get(`/v1/transactions/${chargeId}`)).body).toMatchObject({ amount_refunded: 0 });
    expect((await live.get("/v1/balance")).body).toMatchObject({ available: before + 700, reserved: 0 });
  });

  test("when another store's refund or a malformed id is read, then 404", async () => {
    const other = await createTestMerchant(ctx.db);
    const otherClient = merchantClient(ctx.app, other.testKey);
    const charge = await paidCharge(ctx, merchant.client, 300);
    const refund = (await requestRefund(merchant.client, charge.id, {}).expect(201)).body;

    expect((await otherClient.get(`/v1/refunds/${refund.id}`)).status).toBe(404);
    expect((await otherClient.get(`/v1/transactions/${charge.id}/refunds`)).status).toBe(404);
    expect((await merchant.client.get("/v1/refunds/txn_01JD3Z0000000000000000000")).status).toBe(404);
    await settleRefunds(ctx);
  });

  test("when a balance transaction is changed in the database, then the database refuses it (append-only)", async () => {
    const entry = await ctx.db.balanceTransaction.findFirstOrThrow();

    await expect(ctx.db.balanceTransaction.update({ where: { id: entry.id }, data: { amount: 1 } })).rejects.toThrow(
      /append-only/,
    );
  });

  test("when every test above has run, then each running total still equals the sum of its entries", async () => {
    expect(await findBalanceDrift(ctx.deps.repos)).toEqual([]);
  });
});
