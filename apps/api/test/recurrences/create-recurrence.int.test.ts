import { getPixPayloadInfo, isValidPixPayload } from "@brazilian-utils/brazilian-utils";
import { PIX_AUTOMATICO_GUI } from "@lm/domain";
import { useApiTestContext } from "../support/harness";
import { merchantClient, useTestMerchant } from "../support/merchant-client";
import { plusDays, recurrenceBody, TODAY } from "../support/recurrences";

describe("creating Pix Automático recurrences", () => {
  const ctx = useApiTestContext();
  const merchant = useTestMerchant(ctx);

  test("when a qr recurrence is created, then it is created with an authorization BR Code carrying field 80, and recurrence.created is recorded", async () => {
    const res = await merchant.client.post("/v1/recurrences", recurrenceBody()).expect(201);

    expect(res.body).toMatchObject({
      object: "recurrence",
      mode: "test",
      status: "created",
      contract: "assinatura-4821",
      customer: { name: "Maria da Silva", document_masked: "***.982.247-**" },
      start_date: plusDays(TODAY, 20),
      end_date: null,
      interval: "monthly",
      amount: 4990,
      minimum_amount: null,
      retry_policy: "none",
      journey: "qr",
      payer_account: null,
      first_payment_transaction_id: null,
      next_due_date: null,
      canceled_by: null,
      test_clock: null,
    });
    const code = res.body.authorization.copy_paste as string;
    expect(isValidPixPayload(code)).toBe(true);
    expect(code).toContain(`0025${PIX_AUTOMATICO_GUI}01`);
    expect(code).toContain(`/rec/${res.body.id}`);
    expect(res.body.authorization.qr_code_png_base64).toMatch(/^iVBORw0KGgo/);
    const events = await ctx.db.event.findMany({ where: { type: "recurrence.created" } });
    expect(events.map((event) => (event.data as { id: string }).id)).toContain(res.body.id);
  });

  test("when a qr_with_first_payment recurrence is created, then its first payment is a pending immediate charge of it, whose BR Code the authorization carries", async () => {
    const body = recurrenceBody({ journey: "qr_with_first_payment", first_payment_amount: 9980 });

    const res = await merchant.client.post("/v1/recurrences", body).expect(201);
    const first = await merchant.client.get(`/v1/transactions/${res.body.first_payment_transaction_id}`).expect(200);

    expect(first.body).toMatchObject({
      status: "pending",
      type: "immediate",
      amount: 9980,
      recurrence_id: res.body.id,
    });
    const authorization = res.body.authorization.copy_paste as string;
    expect(isValidPixPayload(authorization)).toBe(true);
    expect(getPixPayloadInfo(authorization)?.url).toBe(getPixPayloadInfo(first.body.pix.copy_paste)?.url);
    expect(authorization).toContain(PIX_AUTOMATICO_GUI);
  });

  test("when a push recurrence is created with the payer's account, then it has no QR code and shows the account", async () => {
    const account = { ispb: "60746948", branch: "1234", number: "567890" };

    const res = await merchant.client
      .post(
        "/v1/recurrences",
        recurrenceBody({ journey: "push", payer_account: account, amount: undefined, minimum_amount: 3000 }),
      )
      .expect(201);

    expect(res.body).toMatchObject({
      journey: "push",
      authorization: null,
      payer_account: account,
      minimum_amount: 3000,
    });
  });

  test.each([
    ["both amount and minimum_amount", { minimum_amount: 1000 }, "amount"],
    ["neither amount nor minimum_amount", { amount: undefined }, "amount"],
    ["a start date in the past", { start_date: plusDays(TODAY, -1) }, "start_date"],
    ["a start date that is not a date", { start_date: "2027-02-30" }, "start_date"],
    ["an end date before the start", { end_date: plusDays(TODAY, 19) }, "end_date"],
    ["push without payer_account", { journey: "push" }, "payer_account"],
    [
      "a QR journey with payer_account",
      { payer_account: { ispb: "60746948", branch: "1", number: "2" } },
      "payer_account",
    ],
    ["first_payment_amount outside qr_with_first_payment", { first_payment_amount: 100 }, "first_payment_amount"],
    ["an invalid document", { customer: { name: "Maria", document: "111.111.111-11" } }, "customer.document"],
    ["an unknown interval", { interval: "daily" }, "interval"],
    ["an unknown field", { amout: 10 }, "amout"],
  ])(
    "when a request has %s, then it is 400 naming the field and nothing is created",
    async (_case, overrides, param) => {
      const count = await ctx.db.recurrence.count();

      const res = await merchant.client.post("/v1/recurrences", recurrenceBody(overrides)).expect(400);

      expect(res.body.error).toMatchObject({ code: "validation_failed", param });
      expect(await ctx.db.recurrence.count()).toBe(count);
    },
  );

  test("when the same request is sent again with its Idempotency-Key, then the first reply comes back and one recurrence exists", async () => {
    const body = recurrenceBody({ contract: "idem-1", journey: "qr_with_first_payment" });
    const send = () => merchant.client.post("/v1/recurrences", body).set("Idempotency-Key", "rec-idem-1");

    const first = await send().expect(201);
    const again = await send().expect(201);

    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await ctx.db.recurrence.count({ where: { contract: "idem-1" } })).toBe(1);
    expect(await ctx.db.transaction.count({ where: { recurrence_id: first.body.id } })).toBe(1);
  });

  test("when recurrences are listed and read, then the key's store and mode see theirs and nobody else's", async () => {
    const created = await merchant.client.post("/v1/recurrences", recurrenceBody({ contract: "list-1" })).expect(201);
    const other = merchantClient(ctx.app, merchant.liveKey);

    const list = await merchant.client.get("/v1/recurrences?limit=100").expect(200);
    const read = await merchant.client.get(`/v1/recurrences/${created.body.id}`).expect(200);
    const fromLive = await other.get(`/v1/recurrences/${created.body.id}`).expect(404);

    expect(list.body.data.map((r: { id: string }) => r.id)).toContain(created.body.id);
    expect(read.body).toEqual(created.body);
    expect(fromLive.body.error.code).toBe("resource_not_found");
  });

  test("when a live key creates a recurrence, then 503 acquirer_not_configured: Pix Automático runs on the sandbox for now", async () => {
    const live = merchantClient(ctx.app, merchant.liveKey);

    const res = await live.post("/v1/recurrences", recurrenceBody()).expect(503);

    expect(res.body.error.code).toBe("acquirer_not_configured");
  });

  test("when a live key names a test clock, then 403 test_mode_only", async () => {
    const live = merchantClient(ctx.app, merchant.liveKey);

    const res = await live
      .post("/v1/recurrences", recurrenceBody({ test_clock: "clk_01M8D2H3B6R8T1V4X7Z0C3F5K9" }))
      .expect(403);

    expect(res.body.error.code).toBe("test_mode_only");
  });
});
