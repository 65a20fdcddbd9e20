import request from "supertest";
import { inboxJobsIn } from "@lm/testing";
import { createAcquirer, encryptSecret, processInboxItem, sandboxAcquirerSecret, signatureHeader } from "@lm/domain";
import { withoutChargeFields } from "@lm/wire";
import { chargeBody, merchantClient, useTestMerchant } from "../support/merchant-client";
import { useApiTestContext } from "../support/harness";
import { useLiveBank } from "../support/live-bank";
import { newEndToEndId, paymentOf } from "../support/pix-payments";

describe("POST /v1/acquirers/{slug}/notifications and inbox processing", () => {
  const ctx = useApiTestContext();
  useLiveBank(ctx);
  const merchant = useTestMerchant(ctx);
  let sandboxSecret: string;
  beforeAll(async () => {
    sandboxSecret = sandboxAcquirerSecret(ctx.config.encryptionKey);
  });

  const charge = async (overrides: Record<string, unknown> = {}, key = merchant.testKey) =>
    (await merchantClient(ctx.app, key).post("/v1/transactions", chargeBody(overrides)).expect(201)).body;
  const pixBody = (item: Record<string, unknown>) => JSON.stringify({ pix: [item] });
  const post = (body: string, options: { slug?: string; secret?: string; t?: number; header?: string } = {}) => {
    const t = options.t ?? Math.floor(Date.now() / 1000);
    const header = options.header ?? signatureHeader([options.secret ?? sandboxSecret], t, body);
    return request(ctx.app)
      .post(`/v1/acquirers/${options.slug ?? "sandbox"}/notifications`)
      .set("Content-Type", "application/json")
      .set("X-Acquirer-Signature", header)
      .send(body);
  };
  const itemsFor = (endToEndId: string) =>
    ctx.db.inboxItem.findMany({ where: { end_to_end_id: endToEndId }, orderBy: { id: "asc" } });
  const queuedIds = async () =>
    (await inboxJobsIn(ctx.deps.producer, ["waiting", "delayed", "prioritized"])).map((j) => j.id);

  test("when a validly signed payment arrives, then it is stored and enqueued, and processing marks the charge paid", async () => {
    const txn = await charge();
    const payment = paymentOf(txn);
    const body = pixBody(payment);

    const res = await post(body);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true });
    const [item] = await itemsFor(payment.endToEndId);
    expect(item).toMatchObject({
      provider_event_id: payment.endToEndId,
      event_type: "pix",
      signature_valid: true,
      raw_body: new Uint8Array(Buffer.from(body)),
      error: null,
      processed_at: null,
    });
    expect((item!.headers as Record<string, string>)["x-acquirer-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(await queuedIds()).toContain(item!.id);

    expect(await processInboxItem(ctx.deps, item!.id)).toBe("paid");

    const read = (await merchant.client.get(`/v1/transactions/${txn.id}`)).body;
    expect(read).toMatchObject({
      status: "paid",
      paid_at: payment.horario,
      payment: {
        end_to_end_id: payment.endToEndId,
        amount: txn.amount,
        payer: { name: "João Pagador", document_masked: "***.533.447-**" },
      },
    });
    const paidEvent = await ctx.db.event.findFirst({
      where: { type: "transaction.paid", data: { path: ["id"], equals: txn.id } },
    });
    expect(paidEvent?.data).toEqual(withoutChargeFields(read));
    expect(await ctx.db.inboxItem.findUnique({ where: { id: item!.id } })).toMatchObject({
      processed_at: expect.any(Date),
      error: null,
      attempts: 1,
      transaction_id: txn.id,
    });
  });

  test("when an item is processed a second time, then nothing changes", async () => {
    const txn = await charge();
    const payment = paymentOf(txn);
    await post(pixBody(payment)).expect(200);
    const [item] = await itemsFor(payment.endToEndId);
    await processInboxItem(ctx.deps, item!.id);
    const before = await ctx.db.transaction.findUniqueOrThrow({ where: { id: txn.id } });
    const eventsBefore = await ctx.db.event.count();

    expect(await processInboxItem(ctx.deps, item!.id)).toBe("skipped");

    expect(await ctx.db.transaction.findUniqueOrThrow({ where: { id: txn.id } })).toEqual(before);
    expect(await ctx.db.event.count()).toBe(eventsBefore);
    expect((await ctx.db.inboxItem.findUniqueOrThrow({ where: { id: item!.id } })).attempts).toBe(1);
  });

  test.each([
    ["signed with another secret", { secret: "whsec_not-the-sandbox-secret" }, "no_matching_signature"],
    ["signed ten minutes ago", { t: Math.floor(Date.now() / 1000) - 600 }, "timestamp_outside_tolerance"],
    ["without a well-formed header", { header: "v1=abc" }, "malformed_header"],
  ])(
    "when a notification is %s, then it is stored as invalid and never processed",
    async (_situation, options, reason) => {
      const txn = await charge();
      const payment = paymentOf(txn);

      const res = await post(pixBody(payment), options);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({ received: true });
      const [item] = await itemsFor(payment.endToEndId);
      expect(item).toMatchObject({ signature_valid: false, error: `invalid_signature: ${reason}` });
      expect(await queuedIds()).not.toContain(item!.id);
      expect(await processInboxItem(ctx.deps, item!.id)).toBe("skipped");
      expect((await merchant.client.get(`/v1/transactions/${txn.id}`)).body.status).toBe("pending");
    },
  );

  test("when the body was changed after signing, then the signature is invalid", async () => {
    const txn = await charge();
    const payment = paymentOf(txn);
    const t = Math.floor(Date.now() / 1000);
    const header = signatureHeader([sandboxSecret], t, pixBody(payment));

    await post(pixBody({ ...payment, valor: "0.01" }), { header }).expect(200);

    expect((await itemsFor(payment.endToEndId))[0]?.signature_valid).toBe(false);
  });

  test("when the same acquirer sends the same endToEndId again, then duplicate: true, stored, not enqueued", async () => {
    const txn = await charge();
    const body = pixBody(paymentOf(txn));
    await post(body).expect(200);

    const res = await post(body);

    expect(res.body).toEqual({ received: true, duplicate: true });
    const items = await itemsFor(JSON.parse(body).pix[0].endToEndId);
    expect(items).toHaveLength(2);
    expect(items[1]).toMatchObject({ signature_valid: true, error: "duplicate" });
    expect(await queuedIds()).not.toContain(items[1]!.id);
  });

  test("when the txid is unknown, then the anomaly unknown_txid is recorded on the item", async () => {
    const payment = paymentOf({ txid: "A".repeat(26), amount: 100 });
    await post(pixBody(payment)).expect(200);
    const [item] = await itemsFor(payment.endToEndId);

    expect(await processInboxItem(ctx.deps, item!.id)).toBe("unknown_txid");

    expect(await ctx.db.inboxItem.findUnique({ where: { id: item!.id } })).toMatchObject({
      error: "unknown_txid",
      processed_at: expect.any(Date),
      transaction_id: null,
    });
  });

  test("when the amount differs, then amount_mismatch is recorded and the charge stays pending", async () => {
    const txn = await charge({ amount: 1050 });
    const payment = paymentOf(txn, { valor: "10.49" });
    await post(pixBody(payment)).expect(200);
    const [item] = await itemsFor(payment.endToEndId);

    expect(await processInboxItem(ctx.deps, item!.id)).toBe("amount_mismatch");

    expect((await ctx.db.inboxItem.findUniqueOrThrow({ where: { id: item!.id } })).error).toBe(
      "amount_mismatch: expected 1050, received 1049",
    );
    expect((await merchant.client.get(`/v1/transactions/${txn.id}`)).body.status).toBe("pending");
  });

  test("when the charge is no longer pending, then not_pending is recorded and the charge is unchanged", async () => {
    const txn = await charge();
    await merchant.client.post(`/v1/transactions/${txn.id}/cancel`).expect(200);
    const payment = paymentOf(txn);
    await post(pixBody(payment)).expect(200);
    const [item] = await itemsFor(payment.endToEndId);

    expect(await processInboxItem(ctx.deps, item!.id)).toBe("not_pending");

    expect((await ctx.db.inboxItem.findUniqueOrThrow({ where: { id: item!.id } })).error).toBe("not_pending: canceled");
    expect((await merchant.client.get(`/v1/transactions/${txn.id}`)).body).toMatchObject({
      status: "canceled",
      payment: null,
    });
  });

  test("when the payment happened after expires_at, then not_pending: expired", async () => {
    const txn = await charge();
    await ctx.db.transaction.update({ where: { id: txn.id }, data: { expires_at: new Date(Date.now() - 60_000) } });
    const payment = paymentOf(txn);
    await post(pixBody(payment)).expect(200);
    const [item] = await itemsFor(payment.endToEndId);

    expect(await processInboxItem(ctx.deps, item!.id)).toBe("not_pending");
    expect((await ctx.db.inboxItem.findUniqueOrThrow({ where: { id: item!.id } })).error).toBe("not_pending: expired");
  });

  test("when the sandbox notifies a live charge, then mode_mismatch; another signing acquirer, acquirer_mismatch", async () => {
    const live = await charge({}, merchant.liveKey);
    const sandboxPayment = paymentOf(live);
    await post(pixBody(sandboxPayment)).expect(200);
    const [sandboxItem] = await itemsFor(sandboxPayment.endToEndId);
    const { secret } = await createAcquirer(ctx.deps.repos, ctx.config, "banco-real");
    const otherPayment = paymentOf(live);
    await post(pixBody(otherPayment), { slug: "banco-real", secret }).expect(200);
    const [otherItem] = await itemsFor(otherPayment.endToEndId);

    expect(await processInboxItem(ctx.deps, sandboxItem!.id)).toBe("mode_mismatch");
    // The charge is registered at the live bank: only that bank's payments settle it (DESIGN §9).
    expect(await processInboxItem(ctx.deps, otherItem!.id)).toBe("acquirer_mismatch");
    expect((await merchantClient(ctx.app, merchant.liveKey).get(`/v1/transactions/${live.id}`)).body.status).toBe(
      "pending",
    );
  });

  test("when an acquirer's secret is changed by hand after a receipt, then the next receipt is judged by the new one", async () => {
    const { acquirer, secret } = await createAcquirer(ctx.deps.repos, ctx.config, "banco-trocado");
    const first = paymentOf(await charge());
    await post(pixBody(first), { slug: "banco-trocado", secret }).expect(200);
    const replaced = "whsec_replaced-by-hand-replaced-by-hand-0000";
    await ctx.db.acquirer.update({
      where: { id: acquirer.id },
      data: { secret_ciphertext: encryptSecret(ctx.config.encryptionKey, replaced, acquirer.id) },
    });

    const withOld = paymentOf(await charge());
    const withNew = paymentOf(await charge());
    await post(pixBody(withOld), { slug: "banco-trocado", secret }).expect(200);
    await post(pixBody(withNew), { slug: "banco-trocado", secret: replaced }).expect(200);

    expect(await itemsFor(first.endToEndId)).toMatchObject([{ signature_valid: true }]);
    expect(await itemsFor(withOld.endToEndId)).toMatchObject([
      { signature_valid: false, error: "invalid_signature: no_matching_signature" },
    ]);
    expect(await itemsFor(withNew.endToEndId)).toMatchObject([{ signature_valid: true, error: null }]);
  });

  test("when the body is not JSON, then it is still stored, as malformed, and 200 received", async () => {
    const body = "definitely not json";

    const res = await request(ctx.app)
      .post("/v1/acquirers/sandbox/notifications")
      .set("Content-Type", "text/plain")
      .set("X-Acquirer-Signature", signatureHeader([sandboxSecret], Math.floor(Date.now() / 1000), body))
      .send(body);

    expect(res.status).toBe(200);
    const item = await ctx.db.inboxItem.findFirst({ where: { raw_body: Buffer.from(body) } });
    expect(item).toMatchObject({ signature_valid: true, error: "malformed_notification", end_to_end_id: null });
    expect(item?.provider_event_id).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  test("when an item lacks txid or valor is not a Bacen decimal, then malformed_notification is recorded", async () => {
    const txn = await charge();
    const payment = paymentOf(txn, { valor: 10.5 });
    await post(pixBody(payment)).expect(200);
    const [item] = await itemsFor(payment.endToEndId);

    expect(await processInboxItem(ctx.deps, item!.id)).toBe("malformed_notification");
  });

  test("when the acquirer slug is unknown, then 404 and nothing is stored", async () => {
    const before = await ctx.db.inboxItem.count();

    const res = await post(pixBody({ endToEndId: newEndToEndId() }), { slug: "nobody" });

    expect(res.status).toBe(404);
    expect(await ctx.db.inboxItem.count()).toBe(before);
  });
});
