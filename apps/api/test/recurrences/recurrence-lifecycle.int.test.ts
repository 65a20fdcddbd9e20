import { cycleDueDate } from "@lm/domain";
import { useApiTestContext } from "../support/harness";
import { merchantClient, useTestMerchant } from "../support/merchant-client";
import { approvedRecurrence, plusDays, recurrenceBody, TODAY } from "../support/recurrences";

/** The charges of recurrence `id`, oldest first, as the API reads them. */
async function chargesOf(
  ctx: ReturnType<typeof useApiTestContext>,
  client: ReturnType<typeof merchantClient>,
  id: string,
) {
  const rows = await ctx.db.transaction.findMany({ where: { recurrence_id: id }, orderBy: { id: "asc" } });
  return Promise.all(rows.map(async (row) => (await client.get(`/v1/transactions/${row.id}`).expect(200)).body));
}

/** The ids of the objects of the events of `type` recorded so far. */
async function eventObjects(ctx: ReturnType<typeof useApiTestContext>, type: string): Promise<string[]> {
  const events = await ctx.db.event.findMany({ where: { type }, orderBy: { id: "asc" } });
  return events.map((event) => (event.data as { id: string }).id);
}

describe("a recurrence's life on real time, the sandbox playing the payer's bank", () => {
  const ctx = useApiTestContext();
  const merchant = useTestMerchant(ctx);

  test("when the payer approves a recurrence whose first cycle is within the lead days, then it is approved and that cycle's charge is sent at once", async () => {
    const body = recurrenceBody({ start_date: plusDays(TODAY, 3), retry_policy: "three_in_seven_days" });
    const id = (await merchant.client.post("/v1/recurrences", body).expect(201)).body.id as string;

    const approved = await merchant.client
      .post(`/v1/recurrences/${id}/simulate-approval`, { approve: true })
      .expect(200);
    const [cycle] = await chargesOf(ctx, merchant.client, id);

    expect(approved.body).toMatchObject({
      status: "approved",
      next_due_date: cycleDueDate(plusDays(TODAY, 3), "monthly", 1),
    });
    expect(cycle).toMatchObject({
      status: "pending",
      type: "recurring",
      amount: 4990,
      recurrence_id: id,
      pix: { copy_paste: "", qr_code_png_base64: "" },
      due_date: { date: plusDays(TODAY, 3), days_after_due: 7, last_payable_date: plusDays(TODAY, 10), fine: null },
      amount_due: null,
      customer: { name: "Maria da Silva", document_masked: "***.982.247-**" },
    });
    expect(await eventObjects(ctx, "recurrence.approved")).toContain(id);
    expect(await eventObjects(ctx, "transaction.created")).toContain(cycle.id);
  });

  test("when the payer approves a recurrence whose first cycle is weeks away, then nothing is charged yet and next_due_date is its start", async () => {
    const id = await approvedRecurrence(merchant.client, recurrenceBody());

    const read = await merchant.client.get(`/v1/recurrences/${id}`).expect(200);

    expect(read.body).toMatchObject({ status: "approved", next_due_date: plusDays(TODAY, 20) });
    expect(await ctx.db.transaction.count({ where: { recurrence_id: id } })).toBe(0);
  });

  test("when the payer rejects a recurrence, then it is rejected for good with recurrence.rejected", async () => {
    const id = (await merchant.client.post("/v1/recurrences", recurrenceBody()).expect(201)).body.id as string;

    const rejected = await merchant.client
      .post(`/v1/recurrences/${id}/simulate-approval`, { approve: false })
      .expect(200);
    const again = await merchant.client.post(`/v1/recurrences/${id}/simulate-approval`, { approve: true }).expect(409);

    expect(rejected.body).toMatchObject({ status: "rejected", next_due_date: null });
    expect(again.body.error.code).toBe("invalid_state");
    expect(await eventObjects(ctx, "recurrence.rejected")).toContain(id);
  });

  test("when a qr_with_first_payment recurrence is approved, then its first payment is paid and credited before the reply", async () => {
    const before = (await merchant.client.get("/v1/balance").expect(200)).body.available as number;
    const body = recurrenceBody({ journey: "qr_with_first_payment", first_payment_amount: 2500 });
    const created = await merchant.client.post("/v1/recurrences", body).expect(201);

    await merchant.client.post(`/v1/recurrences/${created.body.id}/simulate-approval`, { approve: true }).expect(200);
    const first = await merchant.client.get(`/v1/transactions/${created.body.first_payment_transaction_id}`);

    expect(first.body).toMatchObject({ status: "paid", payment: { amount: 2500 } });
    expect((await merchant.client.get("/v1/balance").expect(200)).body.available).toBe(before + 2500);
  });

  test("when the merchant cancels a recurrence with a cycle sent, then the recurrence and the cycle are canceled, each with its event", async () => {
    const id = await approvedRecurrence(merchant.client, recurrenceBody({ start_date: plusDays(TODAY, 2) }));
    const [cycle] = await chargesOf(ctx, merchant.client, id);

    const canceled = await merchant.client.post(`/v1/recurrences/${id}/cancel`).expect(200);
    const [after] = await chargesOf(ctx, merchant.client, id);
    const again = await merchant.client.post(`/v1/recurrences/${id}/cancel`).expect(409);

    expect(cycle.status).toBe("pending");
    expect(canceled.body).toMatchObject({ status: "canceled", canceled_by: "merchant", next_due_date: null });
    expect(after).toMatchObject({ id: cycle.id, status: "canceled" });
    expect(again.body.error.code).toBe("invalid_state");
    expect(await eventObjects(ctx, "recurrence.canceled")).toContain(id);
    expect(await eventObjects(ctx, "transaction.canceled")).toContain(cycle.id);
  });

  test("when the payer cancels an approved recurrence, then it is canceled by the payer; a created one cannot be, and a live key is refused", async () => {
    const id = await approvedRecurrence(merchant.client, recurrenceBody());
    const created = (await merchant.client.post("/v1/recurrences", recurrenceBody()).expect(201)).body.id as string;

    const canceled = await merchant.client.post(`/v1/recurrences/${id}/simulate-payer-cancellation`).expect(200);
    const notYet = await merchant.client.post(`/v1/recurrences/${created}/simulate-payer-cancellation`).expect(409);
    const live = await merchantClient(ctx.app, merchant.liveKey)
      .post(`/v1/recurrences/${id}/simulate-payer-cancellation`)
      .expect(403);

    expect(canceled.body).toMatchObject({ status: "canceled", canceled_by: "payer" });
    expect(notYet.body.error.code).toBe("invalid_state");
    expect(live.body.error.code).toBe("test_mode_only");
  });

  test("when a cycle's charge is canceled by the merchant, then only that cycle ends and the recurrence goes on", async () => {
    const id = await approvedRecurrence(merchant.client, recurrenceBody({ start_date: plusDays(TODAY, 4) }));
    const [cycle] = await chargesOf(ctx, merchant.client, id);

    await merchant.client.post(`/v1/transactions/${cycle.id}/cancel`).expect(200);
    const read = await merchant.client.get(`/v1/recurrences/${id}`).expect(200);
    const cycles = await ctx.db.recurrenceCycle.findMany({ where: { recurrence_id: id } });

    expect(read.body).toMatchObject({
      status: "approved",
      next_due_date: cycleDueDate(plusDays(TODAY, 4), "monthly", 1),
    });
    expect(cycles).toHaveLength(1);
  });

  test("when a cycle is asked paid or expired by simulation, then it is refused: the engine debits it on its due date", async () => {
    const id = await approvedRecurrence(merchant.client, recurrenceBody({ start_date: plusDays(TODAY, 3) }));
    const [cycle] = await chargesOf(ctx, merchant.client, id);

    const paid = await merchant.client.post(`/v1/transactions/${cycle.id}/simulate-payment`).expect(409);
    const expired = await merchant.client.post(`/v1/transactions/${cycle.id}/simulate-expiration`).expect(409);

    expect(paid.body.error.message).toMatch(/test clock/);
    expect(expired.body.error.code).toBe("invalid_state");
  });

  test("when the merchant sets a variable cycle's amount in its window, then its charge is sent at once for that amount", async () => {
    const body = recurrenceBody({ amount: undefined, minimum_amount: 1000, start_date: plusDays(TODAY, 5) });
    const id = await approvedRecurrence(merchant.client, body);

    const res = await merchant.client
      .post(`/v1/recurrences/${id}/charges`, { amount: 5213, due_date: plusDays(TODAY, 5) })
      .expect(201);
    const read = await merchant.client.get(`/v1/recurrences/${id}`).expect(200);
    const repeat = await merchant.client
      .post(`/v1/recurrences/${id}/charges`, { amount: 5213, due_date: plusDays(TODAY, 5) })
      .expect(400);

    expect(res.body).toMatchObject({ status: "pending", type: "recurring", amount: 5213, recurrence_id: id });
    expect(res.body.due_date.date).toBe(plusDays(TODAY, 5));
    expect(read.body.next_due_date).not.toBe(plusDays(TODAY, 5));
    expect(repeat.body.error).toMatchObject({ code: "validation_failed", param: "due_date" });
  });

  test.each([
    ["outside its window", { start_date: plusDays(TODAY, 15) }, { due: 15, amount: 2000 }, 409, "due_date"],
    ["below the minimum", {}, { due: 5, amount: 999 }, 400, "amount"],
    ["not the next cycle's due date", {}, { due: 6, amount: 2000 }, 400, "due_date"],
  ])(
    "when a variable cycle's amount is set %s, then it is refused naming the field",
    async (_case, overrides, ask, status, param) => {
      const body = recurrenceBody({
        amount: undefined,
        minimum_amount: 1000,
        start_date: plusDays(TODAY, 5),
        ...overrides,
      });
      const id = await approvedRecurrence(merchant.client, body);

      const res = await merchant.client
        .post(`/v1/recurrences/${id}/charges`, { amount: ask.amount, due_date: plusDays(TODAY, ask.due) })
        .expect(status);

      expect(res.body.error.param).toBe(param);
      expect(await ctx.db.transaction.count({ where: { recurrence_id: id } })).toBe(0);
    },
  );

  test("when a fixed recurrence's cycle amount is set, then 409: every cycle is charged its amount", async () => {
    const id = await approvedRecurrence(merchant.client, recurrenceBody({ start_date: plusDays(TODAY, 5) }));

    const res = await merchant.client
      .post(`/v1/recurrences/${id}/charges`, { amount: 2000, due_date: plusDays(TODAY, 5) })
      .expect(409);

    expect(res.body.error.code).toBe("invalid_state");
  });

  test("when the charges are listed by the cycle statuses, then the filter takes scheduled and failed", async () => {
    await merchant.client.get("/v1/transactions?status=scheduled").expect(200);
    const failed = await merchant.client.get("/v1/transactions?status=failed").expect(200);

    expect(failed.body.data).toEqual([]);
  });
});
