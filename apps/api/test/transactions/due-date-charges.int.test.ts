import { isBusinessDay, lastPayableDate, saoPauloDate } from "@lm/domain";
import { chargeBody, useTestMerchant } from "../support/merchant-client";
import { useApiTestContext } from "../support/harness";
import { processInbox } from "../support/money";
import { setClock } from "../support/two-factor";

const DAY_MS = 86_400_000;
/** `date` (`YYYY-MM-DD`) moved by `days`. */
const plusDays = (date: string, days: number) => new Date(Date.parse(date) + days * DAY_MS).toISOString().slice(0, 10);

// The clock stays the real one (events are written in weekly partitions around it); the dates follow it. The due date
// is a business day a week or more ahead, so it does not move, and every amount below is fixed.
const TODAY = saoPauloDate(new Date());
let DUE = plusDays(TODAY, 7);
while (!isBusinessDay(DUE)) DUE = plusDays(DUE, 1);
const LAST_PAYABLE = lastPayableDate({ due_date: DUE, days_after_due: 30 });
/** The start of São Paulo's day after the last payable day. */
const EXPIRES_AT = `${plusDays(LAST_PAYABLE, 1)}T03:00:00.000Z`;

/**
 * R$ 100,00 due on `DUE`, with the standard's worked example's terms: a 3 % fine and 1 % a calendar day of interest
 * (2 days late: 300 + 200 → R$ 105,00).
 */
const DUE_DATE_CHARGE = chargeBody({
  amount: 10_000,
  due_date: DUE,
  fine: { type: "percent", value: "3.00" },
  interest: { type: "percent_per_day", days: "calendar", value: "1.00" },
});

describe("due-date charges in test mode", () => {
  const ctx = useApiTestContext();
  const merchant = useTestMerchant(ctx);
  let realClock: () => Date;
  beforeEach(() => {
    realClock = ctx.deps.now;
  });
  afterEach(() => {
    ctx.deps.now = realClock;
  });

  test("when a due-date charge is created, then it shows its terms, its last payable day, today's amount due, and expires the day after", async () => {
    const res = await merchant.client.post("/v1/transactions", DUE_DATE_CHARGE).expect(201);

    expect(res.body).toMatchObject({
      type: "due_date",
      status: "pending",
      amount: 10_000,
      due_date: {
        date: DUE,
        days_after_due: 30,
        fine: { type: "percent", value: "3.00" },
        interest: { type: "percent_per_day", days: "calendar", value: "1.00" },
        reduction: null,
        discount: null,
        last_payable_date: LAST_PAYABLE,
      },
      amount_due: { date: TODAY, amount: 10_000 },
      expires_at: EXPIRES_AT,
    });
    expect(Math.abs(res.body.expires_in - (Date.parse(EXPIRES_AT) - Date.now()) / 1000)).toBeLessThan(60);
  });

  test("when a due-date charge is paid 2 days late through the sandbox, then it is paid the standard's R$ 105,00 with its parts, and the balance gains that", async () => {
    const LATE = plusDays(DUE, 2);
    const created = await merchant.client.post("/v1/transactions", DUE_DATE_CHARGE).expect(201);
    const id = created.body.id as string;
    const before = (await merchant.client.get("/v1/balance").expect(200)).body.available as number;

    const due = await merchant.client.get(`/v1/transactions/${id}/amount-due?date=${LATE}`).expect(200);
    await merchant.client.post(`/v1/transactions/${id}/simulate-payment`, { date: LATE }).expect(202);
    await processInbox(ctx);
    const paid = await merchant.client.get(`/v1/transactions/${id}`).expect(200);

    expect(due.body).toEqual({
      object: "amount_due",
      date: LATE,
      original: 10_000,
      fine: 300,
      interest: 200,
      reduction: 0,
      discount: 0,
      total: 10_500,
    });
    expect(paid.body).toMatchObject({
      status: "paid",
      amount_due: null,
      payment: {
        amount: 10_500,
        components: { original: 10_000, fine: 300, interest: 200, reduction: 0, discount: 0 },
      },
    });
    expect((await merchant.client.get("/v1/balance").expect(200)).body.available).toBe(before + 10_500);
  });

  test("when it is paid early within a discount tier, then the payer pays the original less the tier's discount", async () => {
    const body = {
      ...DUE_DATE_CHARGE,
      discount: { type: "fixed_until", tiers: [{ until: plusDays(DUE, -2), value: 500 }] },
    };
    const id = (await merchant.client.post("/v1/transactions", body).expect(201)).body.id as string;

    await merchant.client.post(`/v1/transactions/${id}/simulate-payment`, { date: plusDays(DUE, -2) }).expect(202);
    await processInbox(ctx);

    expect((await merchant.client.get(`/v1/transactions/${id}`)).body.payment).toMatchObject({
      amount: 9_500,
      components: { original: 10_000, fine: 0, interest: 0, reduction: 0, discount: 500 },
    });
  });

  test("when the clock passes the last payable day, then the charge reads as expired", async () => {
    const id = (await merchant.client.post("/v1/transactions", DUE_DATE_CHARGE).expect(201)).body.id as string;

    setClock(ctx, Date.parse(EXPIRES_AT));

    expect((await merchant.client.get(`/v1/transactions/${id}`)).body).toMatchObject({
      status: "expired",
      amount_due: null,
    });
  });

  test.each([
    ["a due date without customer", { ...DUE_DATE_CHARGE, customer: undefined }, "customer"],
    ["expires_in on a due-date charge", { ...DUE_DATE_CHARGE, expires_in: 3600 }, "expires_in"],
    ["a fine without a due date", chargeBody({ fine: { type: "fixed", value: 100 } }), "fine"],
    ["a due date in the past", { ...DUE_DATE_CHARGE, due_date: plusDays(TODAY, -1) }, "due_date"],
    ["a due date that is not a date", { ...DUE_DATE_CHARGE, due_date: "2027-02-30" }, "due_date"],
    ["a percentage with one decimal", { ...DUE_DATE_CHARGE, fine: { type: "percent", value: "3.0" } }, "fine.value"],
    ["a fixed fine that is a percentage", { ...DUE_DATE_CHARGE, fine: { type: "fixed", value: "3.00" } }, "fine.value"],
    [
      "a discount tier after the due date",
      { ...DUE_DATE_CHARGE, discount: { type: "fixed_until", tiers: [{ until: plusDays(DUE, 1), value: 100 }] } },
      "discount.tiers[0].until",
    ],
    ["a window over 365 days", { ...DUE_DATE_CHARGE, days_after_due: 366 }, "days_after_due"],
  ])("when a request has %s, then it is 400 naming the field and nothing is created", async (_case, body, param) => {
    const count = await ctx.db.transaction.count();

    const res = await merchant.client.post("/v1/transactions", body).expect(400);

    expect(res.body.error).toMatchObject({ code: "validation_failed", param });
    expect(await ctx.db.transaction.count()).toBe(count);
  });

  test("when an immediate charge is asked its amount due or paid on a date, then it is refused", async () => {
    const id = (await merchant.client.post("/v1/transactions", chargeBody()).expect(201)).body.id as string;

    const due = await merchant.client.get(`/v1/transactions/${id}/amount-due`).expect(409);
    const paid = await merchant.client.post(`/v1/transactions/${id}/simulate-payment`, { date: TODAY });

    expect(due.body.error.code).toBe("invalid_state");
    expect(paid.status).toBe(400);
    expect(paid.body.error.param).toBe("date");
  });

  test("when the amount due is asked for a day after the window, then it is 400 naming date", async () => {
    const id = (await merchant.client.post("/v1/transactions", DUE_DATE_CHARGE).expect(201)).body.id as string;

    const res = await merchant.client
      .get(`/v1/transactions/${id}/amount-due?date=${plusDays(LAST_PAYABLE, 1)}`)
      .expect(400);

    expect(res.body.error).toMatchObject({ code: "validation_failed", param: "date" });
  });
});
