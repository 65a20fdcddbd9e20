import { isValidPixPayload, getPixPayloadInfo } from "@brazilian-utils/brazilian-utils";
import { decryptDocument } from "@lm/domain";
import { createTestMerchant, givePostbackSecret } from "@lm/testing";
import { chargeBody, merchantClient, useTestMerchant } from "../support/merchant-client";
import { useApiTestContext } from "../support/harness";
import { useLiveBank } from "../support/live-bank";

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe("POST /v1/transactions", () => {
  const ctx = useApiTestContext();
  const bank = useLiveBank(ctx);
  const merchant = useTestMerchant(ctx, { name: "Padaria Pão Quente" });

  test("when the body is valid, then 201 with the transaction in its wire shape, pending, in the key's mode", async () => {
    const res = await merchant.client.post(
      "/v1/transactions",
      chargeBody({ external_id: "order-1", expires_in: 3600 }),
    );

    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^txn_[0-9A-Z]{26}$/),
      object: "transaction",
      status: "pending",
      mode: "test",
      type: "immediate",
      amount: 1050,
      amount_refunded: 0,
      amount_disputed: 0,
      currency: "BRL",
      description: "Pedido 1234",
      external_id: "order-1",
      txid: expect.stringMatching(/^[a-zA-Z0-9]{26,35}$/),
      pix: { copy_paste: expect.any(String), qr_code_png_base64: expect.any(String) },
      customer: { name: "Maria da Silva", document_masked: "***.982.247-**", email: "maria@example.com" },
      postback_url: null,
      metadata: { order_id: "1234" },
      expires_in: 3600,
      expires_at: expect.any(String),
      paid_at: null,
      expired_at: null,
      canceled_at: null,
      failure_reason: null,
      payment: null,
      due_date: null,
      amount_due: null,
      qr_code_id: null,
      recurrence_id: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(Date.parse(res.body.expires_at) - Date.parse(res.body.created_at)).toBe(3600 * 1000);
    expect(JSON.stringify(res.body)).not.toContain("52998224725");
  });

  test("when expires_in is omitted, then it defaults to 86400 seconds", async () => {
    const res = await merchant.client.post("/v1/transactions", { amount: 100 });

    expect(res.status).toBe(201);
    expect(res.body.expires_in).toBe(86400);
    expect(res.body.customer).toBeNull();
  });

  test("when created with a test key, then copy_paste is a valid dynamic BR Code on the sandbox host, never a key", async () => {
    const res = await merchant.client.post("/v1/transactions", chargeBody());

    const code: string = res.body.pix.copy_paste;
    expect(isValidPixPayload(code)).toBe(true);
    const info = getPixPayloadInfo(code);
    expect(info).toMatchObject({ pointOfInitiation: "dynamic", url: `sandbox.api.test/qr/${res.body.txid}` });
    expect(info?.key).toBeUndefined();
    expect(info?.merchantName).toBe("Padaria Pao Quente");
  });

  test("when created with a live key, then the bank registers it first and the BR Code is the bank's", async () => {
    const res = await merchantClient(ctx.app, merchant.liveKey).post("/v1/transactions", chargeBody());

    expect(res.status).toBe(201);
    expect(res.body.mode).toBe("live");
    const cob = bank.current.charge(res.body.txid);
    expect(cob).toMatchObject({
      status: "ATIVA",
      valor: { original: "10.50" },
      devedor: { cpf: "52998224725", nome: "Maria da Silva" },
    });
    expect(res.body.pix.copy_paste).toBe(cob?.pixCopiaECola);
    expect(isValidPixPayload(res.body.pix.copy_paste)).toBe(true);
    expect(bank.current.violations()).toEqual([]);
  });

  test("when the live bank refuses or cannot be reached, then 502 acquirer_rejected or acquirer_unavailable and nothing is created", async () => {
    const live = merchantClient(ctx.app, merchant.liveKey);
    const before = await ctx.db.transaction.count();
    bank.current.failNext(1, 400);
    const rejected = await live.post("/v1/transactions", chargeBody());
    bank.current.failNext(2, 503);
    const unavailable = await live.post("/v1/transactions", chargeBody());

    expect(rejected.status).toBe(502);
    expect(rejected.body.error).toMatchObject({ type: "acquirer_error", code: "acquirer_rejected" });
    expect(unavailable.status).toBe(502);
    expect(unavailable.body.error).toMatchObject({ type: "acquirer_error", code: "acquirer_unavailable" });
    expect(await ctx.db.transaction.count()).toBe(before);
  });

  test("when created, then the QR code is a PNG image (base64) and is stored with the charge", async () => {
    const res = await merchant.client.post("/v1/transactions", chargeBody());

    const png = Buffer.from(res.body.pix.qr_code_png_base64, "base64");
    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    const row = await ctx.db.transaction.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.qr_code_png_base64).toBe(res.body.pix.qr_code_png_base64);
    expect(row.customer_document).not.toContain("982247");
    expect(decryptDocument(ctx.config.encryptionKey, row.customer_document!, `${row.id}:customer_document`)).toBe(
      "52998224725",
    );
    expect(row.customer_document_masked).toBe("***.982.247-**");
  });

  test("when two charges are created, then their txids differ", async () => {
    const [a, b] = await Promise.all([
      merchant.client.post("/v1/transactions", chargeBody()),
      merchant.client.post("/v1/transactions", chargeBody()),
    ]);

    expect(a.body.txid).not.toBe(b.body.txid);
  });

  test("when the customer has a valid CNPJ, then it is accepted and masked", async () => {
    const res = await merchant.client.post(
      "/v1/transactions",
      chargeBody({ customer: { name: "ACME LTDA", document: "11.222.333/0001-81" } }),
    );

    expect(res.status).toBe(201);
    expect(res.body.customer).toEqual({ name: "ACME LTDA", document_masked: "**.222.333/0001-**", email: null });
  });

  test.each([
    ["amount missing", { amount: undefined }, "amount"],
    ["amount zero", { amount: 0 }, "amount"],
    ["amount fractional", { amount: 10.5 }, "amount"],
    ["amount as a string", { amount: "1050" }, "amount"],
    ["amount over the upper bound", { amount: 1_000_000_001 }, "amount"],
    ["description over 140 characters", { description: "x".repeat(141) }, "description"],
    ["expires_in below 60", { expires_in: 59 }, "expires_in"],
    ["expires_in above 14 days", { expires_in: 1_209_601 }, "expires_in"],
    ["external_id over 64 characters", { external_id: "e".repeat(65) }, "external_id"],
    ["customer without a name", { customer: { document: "52998224725" } }, "customer.name"],
    ["customer without a document", { customer: { name: "Ana" } }, "customer.document"],
    ["a CPF with wrong check digits", { customer: { name: "Ana", document: "529.982.247-26" } }, "customer.document"],
    [
      "a CNPJ with wrong check digits",
      { customer: { name: "Ana", document: "11.222.333/0001-82" } },
      "customer.document",
    ],
    ["a CPF of repeated digits", { customer: { name: "Ana", document: "111.111.111-11" } }, "customer.document"],
    [
      "a malformed customer email",
      { customer: { name: "Ana", document: "52998224725", email: "ana@" } },
      "customer.email",
    ],
    ["a metadata value that is not a string", { metadata: { n: 1 } }, "metadata.n"],
    ["a metadata key over 40 characters", { metadata: { ["k".repeat(41)]: "v" } }, `metadata.${"k".repeat(41)}`],
    ["a metadata value over 500 characters", { metadata: { k: "v".repeat(501) } }, "metadata.k"],
    [
      "more than 50 metadata pairs",
      { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"])) },
      "metadata",
    ],
    ["an unknown field", { color: "blue" }, "color"],
  ])("when %s, then 400 validation_failed naming the param", async (_situation, overrides, param) => {
    const before = await ctx.db.transaction.count();

    const res = await merchant.client.post("/v1/transactions", chargeBody(overrides));

    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: "invalid_request_error", code: "validation_failed", param });
    expect(await ctx.db.transaction.count()).toBe(before);
  });

  test.each([
    ["a non-http scheme", "ftp://hooks.example.com/pix"],
    ["a private IP literal", "https://10.0.0.8/pix"],
    ["embedded credentials", "https://user:pass@hooks.example.com/pix"],
    ["a metadata address", "http://169.254.169.254/latest/meta-data"],
    ["something that is not a URL", "not a url"],
  ])("when postback_url has %s, then 400 invalid_url with param postback_url", async (_situation, url) => {
    const res = await merchant.client.post("/v1/transactions", chargeBody({ postback_url: url }));

    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "invalid_url", param: "postback_url" });
  });

  test("when a charge names a postback_url and the store has no postback secret, then 409 invalid_state saying how to make one, and nothing is written", async () => {
    const store = await createTestMerchant(ctx.db, { name: "Loja Sem Segredo" });
    const client = merchantClient(ctx.app, store.testKey);
    const body = chargeBody({ postback_url: "http://localhost:9/pix" });

    const refused = await client.post("/v1/transactions", body).set("Idempotency-Key", "no-secret-1");
    const written = await ctx.db.transaction.count({ where: { store_id: store.storeId } });
    await givePostbackSecret(ctx.db, store.storeId);
    const accepted = await client.post("/v1/transactions", body).set("Idempotency-Key", "no-secret-1");

    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      type: "invalid_request_error",
      code: "invalid_state",
      param: "postback_url",
    });
    expect(refused.body.error.message).toContain("no postback secret");
    expect(refused.body.error.message).toContain("POST /v1/me/postback-secret/rotate");
    expect(refused.body.error.message).toContain("owner");
    expect(refused.body.error.message).toContain("webhook endpoint");
    expect(written).toBe(0);
    expect(accepted.status).toBe(201);
    expect(accepted.body.postback_url).toBe("http://localhost:9/pix");
  });

  test("when external_id repeats in the same store and mode, then 409 invalid_state; in the other mode it is free", async () => {
    expect((await merchant.client.post("/v1/transactions", chargeBody({ external_id: "dup-1" }))).status).toBe(201);

    const again = await merchant.client.post("/v1/transactions", chargeBody({ external_id: "dup-1" }));
    const live = await merchantClient(ctx.app, merchant.liveKey).post(
      "/v1/transactions",
      chargeBody({ external_id: "dup-1" }),
    );

    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: "invalid_state", param: "external_id" });
    expect(live.status).toBe(201);
  });

  test("when the body is not JSON, then 415 and nothing is created", async () => {
    const res = await merchant.client.post("/v1/transactions").set("Content-Type", "text/plain").send("amount=100");

    expect(res.status).toBe(415);
  });
});
