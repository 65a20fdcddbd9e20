import { getPixPayloadInfo, isValidPixPayload } from "@brazilian-utils/brazilian-utils";
import { SANDBOX_PIX_KEY } from "@lm/domain";
import { merchantClient, useTestMerchant, type MerchantClient } from "../support/merchant-client";
import { useApiTestContext } from "../support/harness";

/**
 * Reusable QR codes (DESIGN §13), their creation and reads in test mode: a static BR Code around the sandbox's Pix
 * key, its validation, `Idempotency-Key`, the list and the modes kept apart. Live mode has no acquirer in this file.
 */
describe("POST /v1/qr-codes and its reads", () => {
  const ctx = useApiTestContext();
  const merchant = useTestMerchant(ctx);
  let live: MerchantClient;
  beforeAll(() => {
    live = merchantClient(ctx.app, merchant.liveKey);
  });

  test("when a code of a fixed amount is created, then it is active, unpaid, and its static BR Code carries the sandbox's key, the amount and its txid", async () => {
    const res = await merchant.client
      .post("/v1/qr-codes", { amount: 2500, description: "Cafe expresso", external_id: "balcao-1" })
      .expect(201);

    expect(res.body).toEqual({
      id: expect.stringMatching(/^qr_[0-9A-HJKMNP-TV-Z]{26}$/),
      object: "qr_code",
      mode: "test",
      amount: 2500,
      description: "Cafe expresso",
      external_id: "balcao-1",
      txid: expect.stringMatching(/^[A-Za-z0-9]{25}$/),
      pix: { copy_paste: expect.any(String), qr_code_png_base64: expect.stringMatching(/^iVBOR/) },
      active: true,
      payments_count: 0,
      amount_received: 0,
      created_at: expect.any(String),
      deactivated_at: null,
    });
    expect(isValidPixPayload(res.body.pix.copy_paste)).toBe(true);
    expect(getPixPayloadInfo(res.body.pix.copy_paste)).toEqual({
      key: SANDBOX_PIX_KEY,
      amount: 25,
      txid: res.body.txid,
      description: "Cafe expresso",
      merchantName: "Loja de Teste",
      merchantCity: "SAO PAULO",
      pointOfInitiation: "static",
    });
    // The payload format indicator (00) is followed by the account template (26): no point of initiation (01).
    expect(res.body.pix.copy_paste).toMatch(/^00020126/);
    const row = await ctx.db.qrCode.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row).toMatchObject({ store_id: merchant.storeId, acquirer_id: null, txid: res.body.txid });
  });

  test("when a code is created without an amount, then its BR Code has no amount field and the payer chooses", async () => {
    const res = await merchant.client.post("/v1/qr-codes", {}).expect(201);

    expect(res.body).toMatchObject({ amount: null, description: null, external_id: null, active: true });
    const info = getPixPayloadInfo(res.body.pix.copy_paste);
    expect(info).toMatchObject({ key: SANDBOX_PIX_KEY, txid: res.body.txid, pointOfInitiation: "static" });
    expect(info).not.toHaveProperty("amount");
    // The currency (53, 986) is followed by the country (58): no amount (54).
    expect(res.body.pix.copy_paste).toContain("53039865802BR");
  });

  test.each([
    ["an amount of zero", { amount: 0 }, "amount"],
    ["an amount in reais", { amount: 10.5 }, "amount"],
    ["an amount that is text", { amount: "100" }, "amount"],
    ["a description over 140 characters", { description: "x".repeat(141) }, "description"],
    ["an empty external_id", { external_id: "" }, "external_id"],
    ["an unknown field", { amount: 100, expires_in: 60 }, "expires_in"],
  ])("when a request has %s, then it is 400 naming the field and nothing is created", async (_case, body, param) => {
    const count = await ctx.db.qrCode.count();

    const res = await merchant.client.post("/v1/qr-codes", body).expect(400);

    expect(res.body.error).toMatchObject({ code: "validation_failed", param });
    expect(await ctx.db.qrCode.count()).toBe(count);
  });

  test("when a second code has the same external_id in the same mode, then 409 invalid_state naming it", async () => {
    await merchant.client.post("/v1/qr-codes", { external_id: "repetido" }).expect(201);

    const res = await merchant.client.post("/v1/qr-codes", { external_id: "repetido" }).expect(409);

    expect(res.body.error).toMatchObject({ code: "invalid_state", param: "external_id" });
    expect(await ctx.db.qrCode.count({ where: { external_id: "repetido" } })).toBe(1);
  });

  test("when the same Idempotency-Key comes again with the same body, then the first reply is replayed byte for byte and one code exists", async () => {
    const body = { amount: 990, external_id: "idem-qr" };
    const first = await merchant.client.post("/v1/qr-codes", body).set("Idempotency-Key", "qr-key-1").expect(201);

    const second = await merchant.client.post("/v1/qr-codes", body).set("Idempotency-Key", "qr-key-1").expect(201);
    const other = await merchant.client
      .post("/v1/qr-codes", { amount: 991 })
      .set("Idempotency-Key", "qr-key-1")
      .expect(400);

    expect(second.headers["idempotent-replayed"]).toBe("true");
    expect(second.text).toBe(first.text);
    expect(other.body.error.code).toBe("idempotency_key_reused");
    expect(await ctx.db.qrCode.count({ where: { external_id: "idem-qr" } })).toBe(1);
  });

  test("when codes are listed, then they come newest first, paged, and each reads as GET returns it", async () => {
    const { client } = merchant;
    const made = [];
    for (const amount of [101, 102, 103]) made.push((await client.post("/v1/qr-codes", { amount }).expect(201)).body);

    const page = await client.get("/v1/qr-codes?limit=2").expect(200);
    const next = await client.get(`/v1/qr-codes?limit=2&starting_after=${page.body.data[1].id}`).expect(200);
    const one = await client.get(`/v1/qr-codes/${made[1].id}`).expect(200);

    expect(page.body).toMatchObject({ object: "list", has_more: true });
    expect(page.body.data.map((code: { id: string }) => code.id)).toEqual([made[2].id, made[1].id]);
    expect(next.body.data[0].id).toBe(made[0].id);
    expect(one.body).toEqual(made[1]);
    expect((await client.get("/v1/qr-codes?amount=101").expect(400)).body.error.param).toBe("amount");
  });

  test("when a code is deactivated, then it reads inactive from then on, and deactivating it again changes nothing", async () => {
    const code = (await merchant.client.post("/v1/qr-codes", { amount: 500 }).expect(201)).body;

    const first = await merchant.client.post(`/v1/qr-codes/${code.id}/deactivate`).expect(200);
    const again = await merchant.client.post(`/v1/qr-codes/${code.id}/deactivate`).expect(200);

    expect(first.body).toMatchObject({ id: code.id, active: false, deactivated_at: expect.any(String) });
    expect(again.body).toEqual(first.body);
    expect((await merchant.client.get(`/v1/qr-codes/${code.id}`)).body).toEqual(first.body);
    const paid = await merchant.client.post(`/v1/qr-codes/${code.id}/simulate-payment`, {}).expect(409);
    expect(paid.body.error.code).toBe("invalid_state");
  });

  test("when a test code is asked for with the live key, or with another kind of id, then 404, and the live list is empty", async () => {
    const code = (await merchant.client.post("/v1/qr-codes", { amount: 700 }).expect(201)).body;

    const read = await live.get(`/v1/qr-codes/${code.id}`).expect(404);
    const deactivated = await live.post(`/v1/qr-codes/${code.id}/deactivate`).expect(404);
    const list = await live.get("/v1/qr-codes").expect(200);
    const wrongKind = await merchant.client.get(`/v1/qr-codes/txn_${code.id.slice(3)}`).expect(404);

    expect([read, deactivated, wrongKind].map((res) => res.body.error.code)).toEqual(
      Array(3).fill("resource_not_found"),
    );
    expect(list.body.data).toEqual([]);
    expect((await merchant.client.get(`/v1/qr-codes/${code.id}`)).body.active).toBe(true);
  });

  test("when live mode has no acquirer, then a live code is 503 acquirer_not_configured and nothing is created", async () => {
    const count = await ctx.db.qrCode.count();

    const res = await live.post("/v1/qr-codes", { amount: 100 }).expect(503);

    expect(res.body.error).toMatchObject({ type: "acquirer_error", code: "acquirer_not_configured" });
    expect(await ctx.db.qrCode.count()).toBe(count);
  });

  test("when a live key simulates a payment, then 403 test_mode_only", async () => {
    const code = (await merchant.client.post("/v1/qr-codes", { amount: 100 }).expect(201)).body;

    const res = await live.post(`/v1/qr-codes/${code.id}/simulate-payment`, {}).expect(403);

    expect(res.body.error.code).toBe("test_mode_only");
  });
});
