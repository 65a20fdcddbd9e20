import request from "supertest";
import {
  findBalanceDrift,
  processInboxItem,
  reprocessInboxItem,
  sandboxAcquirerSecret,
  settlePayments,
  signatureHeader,
} from "@lm/domain";
import { createEndpointRow, createTestMerchant } from "@lm/testing";
import { withoutChargeFields } from "@lm/wire";
import { useApiTestContext } from "../support/harness";
import { chargeBody, merchantClient, type MerchantClient } from "../support/merchant-client";
import { processInbox, settleRefunds } from "../support/money";
import { requestRefund } from "../support/money-requests";
import { paymentOf, type PixPaymentItem } from "../support/pix-payments";

/**
 * Payments to reusable QR codes in test mode (DESIGN §13): each becomes a charge of its own, born `paid` (`type`
 * `qr_code`), credited and announced like any other, counted on the code; a repeat makes nothing twice; a payment to a
 * deactivated code or of another amount than a fixed code's is kept on its inbox item and moves nothing.
 */
describe("payments to reusable QR codes", () => {
  const ctx = useApiTestContext();

  /** A fresh seller and store (its own balance), its client and one endpoint subscribed to everything. */
  async function freshStore() {
    const merchant = await createTestMerchant(ctx.db);
    const { endpoint } = await createEndpointRow(ctx.db, ctx.config.encryptionKey, {
      storeId: merchant.storeId,
      url: "http://127.0.0.1:9/hooks",
    });
    return { ...merchant, endpointId: endpoint.id, client: merchantClient(ctx.app, merchant.testKey) };
  }

  const createCode = async (client: MerchantClient, body: object = {}) =>
    (await client.post("/v1/qr-codes", body).expect(201)).body as { id: string; txid: string; amount: number | null };
  const available = async (client: MerchantClient) =>
    (await client.get("/v1/balance").expect(200)).body.available as number;
  const chargesOf = (qrCodeId: string) =>
    ctx.db.transaction.findMany({ where: { qr_code_id: qrCodeId }, orderBy: { id: "asc" } });

  /** Stores a sandbox notification of `items` through the inbound route; the ids of the items it stored, in order. */
  async function notify(items: PixPaymentItem[]): Promise<string[]> {
    const body = JSON.stringify({ pix: items });
    const header = signatureHeader(
      [sandboxAcquirerSecret(ctx.config.encryptionKey)],
      Math.floor(Date.now() / 1000),
      body,
    );
    await request(ctx.app)
      .post("/v1/acquirers/sandbox/notifications")
      .set("Content-Type", "application/json")
      .set("X-Acquirer-Signature", header)
      .send(body)
      .expect(200);
    const stored = await ctx.db.inboxItem.findMany({
      where: { end_to_end_id: { in: items.map((item) => item.endToEndId) } },
      orderBy: { id: "asc" },
    });
    return items.map((item) => stored.find((row) => row.end_to_end_id === item.endToEndId)?.id as string);
  }

  afterEach(async () => {
    expect(await findBalanceDrift(ctx.deps.repos)).toEqual([]);
  });

  test("when a fixed-amount code is paid through simulate-payment, then a paid charge of type qr_code is credited, announced and counted", async () => {
    const store = await freshStore();
    const code = await createCode(store.client, { amount: 2500, description: "Cafe expresso" });

    const accepted = await store.client.post(`/v1/qr-codes/${code.id}/simulate-payment`, {}).expect(202);
    expect(await processInbox(ctx)).toEqual(["paid"]);

    expect(accepted.body).toMatchObject({ id: code.id, payments_count: 0 });
    const [row] = await chargesOf(code.id);
    const charge = (await store.client.get(`/v1/transactions/${row!.id}`).expect(200)).body;
    expect(charge).toMatchObject({
      object: "transaction",
      type: "qr_code",
      qr_code_id: code.id,
      status: "paid",
      mode: "test",
      amount: 2500,
      description: "Cafe expresso",
      external_id: null,
      customer: null,
      expires_in: 0,
      expires_at: charge.paid_at,
      pix: { copy_paste: accepted.body.pix.copy_paste },
      payment: { amount: 2500, payer: { name: "Pagador Sandbox" } },
    });
    expect(charge.txid).toMatch(/^[A-Za-z0-9]{26}$/);
    expect((await store.client.get(`/v1/qr-codes/${code.id}`)).body).toMatchObject({
      payments_count: 1,
      amount_received: 2500,
    });
    expect(await available(store.client)).toBe(2500);
    // No transaction.created: the charge was never pending.
    const events = await ctx.db.event.findMany({
      where: { store_id: store.storeId, type: { startsWith: "transaction." } },
    });
    expect(events.map((event) => event.type)).toEqual(["transaction.paid"]);
    expect(events[0]!.data).toEqual(withoutChargeFields(charge));
    const deliveries = await ctx.db.webhookDelivery.findMany({ where: { event_id: events[0]!.id } });
    expect(deliveries.map((d) => [d.destination_type, d.endpoint_id, d.status])).toEqual([
      ["endpoint", store.endpointId, "pending"],
    ]);
    const [item] = await ctx.db.inboxItem.findMany({ where: { transaction_id: charge.id } });
    expect(item).toMatchObject({ error: null, processed_at: expect.any(Date) });
    const listed = (await store.client.get("/v1/transactions?status=paid").expect(200)).body.data;
    expect(listed.map((txn: { id: string }) => txn.id)).toEqual([charge.id]);
  });

  test("when a code without an amount is paid twice, then each payment is a charge of what was paid and the code counts both", async () => {
    const store = await freshStore();
    const code = await createCode(store.client);

    await store.client.post(`/v1/qr-codes/${code.id}/simulate-payment`, { amount: 1000 }).expect(202);
    await store.client.post(`/v1/qr-codes/${code.id}/simulate-payment`, { amount: 350 }).expect(202);
    expect(await processInbox(ctx)).toEqual(["paid", "paid"]);

    const charges = await chargesOf(code.id);
    expect(charges.map((c) => [c.type, c.status, c.amount, c.payment_amount])).toEqual([
      ["qr_code", "paid", 1000, 1000],
      ["qr_code", "paid", 350, 350],
    ]);
    expect(new Set(charges.map((c) => c.txid)).size).toBe(2);
    expect((await store.client.get(`/v1/qr-codes/${code.id}`)).body).toMatchObject({
      payments_count: 2,
      amount_received: 1350,
    });
    expect(await available(store.client)).toBe(1350);
    expect(await ctx.db.event.count({ where: { store_id: store.storeId, type: "transaction.paid" } })).toBe(2);
  });

  test("when the same payment is notified again and its item reprocessed, then it makes one charge, counted and credited once", async () => {
    const store = await freshStore();
    const code = await createCode(store.client, { amount: 800 });
    const payment = paymentOf({ txid: code.txid, amount: 800 });

    const [itemId] = await notify([payment]);
    expect(await processInbox(ctx)).toEqual(["paid"]);
    await notify([payment]);
    await reprocessInboxItem(ctx.deps, itemId!);
    const reprocessed = await processInboxItem(ctx.deps, itemId!);

    expect(reprocessed).toBe("already_paid");
    const charges = await chargesOf(code.id);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ payment_end_to_end_id: payment.endToEndId, amount: 800 });
    expect(await ctx.db.inboxItem.findUnique({ where: { id: itemId! } })).toMatchObject({
      error: null,
      transaction_id: charges[0]!.id,
    });
    const items = await ctx.db.inboxItem.findMany({ where: { end_to_end_id: payment.endToEndId } });
    expect(items.map((item) => item.error).sort()).toEqual(["duplicate", null]);
    expect((await store.client.get(`/v1/qr-codes/${code.id}`)).body).toMatchObject({
      payments_count: 1,
      amount_received: 800,
    });
    expect(await available(store.client)).toBe(800);
  });

  test("when one batch holds two payments to a code and one to a charge, then it settles all three", async () => {
    const store = await freshStore();
    const code = await createCode(store.client);
    const charge = (await store.client.post("/v1/transactions", chargeBody({ amount: 400 })).expect(201)).body;
    const itemIds = await notify([
      paymentOf({ txid: code.txid, amount: 100 }),
      paymentOf(charge),
      paymentOf({ txid: code.txid, amount: 200 }),
    ]);

    expect(await settlePayments(ctx.deps, itemIds)).toEqual(["paid", "paid", "paid"]);

    expect((await chargesOf(code.id)).map((c) => c.amount).sort()).toEqual([100, 200]);
    expect((await store.client.get(`/v1/transactions/${charge.id}`)).body.status).toBe("paid");
    expect((await store.client.get(`/v1/qr-codes/${code.id}`)).body).toMatchObject({
      payments_count: 2,
      amount_received: 300,
    });
    expect(await available(store.client)).toBe(700);
  });

  test("when a code is deactivated before its payment is processed, then the item keeps qr_code_inactive and no money moves", async () => {
    const store = await freshStore();
    const code = await createCode(store.client, { amount: 1200 });
    await store.client.post(`/v1/qr-codes/${code.id}/simulate-payment`, {}).expect(202);

    await store.client.post(`/v1/qr-codes/${code.id}/deactivate`).expect(200);
    expect(await processInbox(ctx)).toEqual(["qr_code_inactive"]);

    const items = await ctx.db.inboxItem.findMany({ where: { error: { startsWith: `qr_code_inactive: ${code.id}` } } });
    expect(items).toEqual([expect.objectContaining({ transaction_id: null, processed_at: expect.any(Date) })]);
    expect(items[0]!.error).toMatch(new RegExp(`^qr_code_inactive: ${code.id} was deactivated at 20`));
    expect(await chargesOf(code.id)).toEqual([]);
    expect((await store.client.get(`/v1/qr-codes/${code.id}`)).body).toMatchObject({
      active: false,
      payments_count: 0,
      amount_received: 0,
    });
    expect(await available(store.client)).toBe(0);
    expect(await ctx.db.event.count({ where: { store_id: store.storeId, type: { startsWith: "transaction." } } })).toBe(
      0,
    );
  });

  test("when a fixed-amount code is paid another amount, then the item keeps amount_mismatch and no money moves", async () => {
    const store = await freshStore();
    const code = await createCode(store.client, { amount: 2500 });

    const [itemId] = await notify([paymentOf({ txid: code.txid, amount: 2400 })]);
    expect(await processInbox(ctx)).toEqual(["amount_mismatch"]);

    expect((await ctx.db.inboxItem.findUnique({ where: { id: itemId! } }))?.error).toBe(
      `amount_mismatch: ${code.id} expects 2500, received 2400`,
    );
    expect(await chargesOf(code.id)).toEqual([]);
    expect((await store.client.get(`/v1/qr-codes/${code.id}`)).body.payments_count).toBe(0);
    expect(await available(store.client)).toBe(0);
  });

  test("when simulate-payment gives no amount for a code without one, or another amount than a code's, then 400 naming amount", async () => {
    const store = await freshStore();
    const open = await createCode(store.client);
    const fixed = await createCode(store.client, { amount: 900 });
    const items = await ctx.db.inboxItem.count();

    const missing = await store.client.post(`/v1/qr-codes/${open.id}/simulate-payment`, {}).expect(400);
    const other = await store.client.post(`/v1/qr-codes/${fixed.id}/simulate-payment`, { amount: 901 }).expect(400);

    expect([missing.body.error, other.body.error]).toEqual([
      expect.objectContaining({ code: "validation_failed", param: "amount" }),
      expect.objectContaining({ code: "validation_failed", param: "amount" }),
    ]);
    expect(await ctx.db.inboxItem.count()).toBe(items);
  });

  test("when a QR code's charge is refunded, then it is refunded like any other paid charge", async () => {
    const store = await freshStore();
    const code = await createCode(store.client, { amount: 3000 });
    await store.client.post(`/v1/qr-codes/${code.id}/simulate-payment`, {}).expect(202);
    await processInbox(ctx);
    const [charge] = await chargesOf(code.id);

    await requestRefund(store.client, charge!.id, { amount: 1000 }).expect(201);
    await settleRefunds(ctx);

    expect((await store.client.get(`/v1/transactions/${charge!.id}`)).body).toMatchObject({
      status: "paid",
      amount_refunded: 1000,
    });
    expect(await available(store.client)).toBe(2000);
  });
});
