import { cycleDueDate } from "@lm/domain";
import type { Transaction } from "@lm/wire";
import { useApiTestContext } from "../support/harness";
import { merchantClient, useTestMerchant } from "../support/merchant-client";
import { settleRefunds } from "../support/money";
import { advanceClock, approvedRecurrence, createClock, recurrenceBody } from "../support/recurrences";

/** A clock's starting time, far from real time: the engine reads the clock, events stay on real time. */
const T0 = "2030-01-02T12:00:00.000Z";
const START = "2030-01-15";

/** A cycle's charge as the API sends it: a Transaction with its due date. */
type Cycle = Transaction & { due_date: NonNullable<Transaction["due_date"]> };

describe("test clocks: a year of cycles in seconds", () => {
  const ctx = useApiTestContext();
  const merchant = useTestMerchant(ctx, { postbackSecret: true });

  /** The cycle charges of recurrence `id` by due date, as the API lists them (the wire's Transaction). */
  async function cyclesOf(id: string): Promise<Cycle[]> {
    const listed = await merchant.client.get(`/v1/transactions?recurrence_id=${id}&limit=100`).expect(200);
    return (listed.body.data as Cycle[])
      .filter((charge) => charge.type === "recurring")
      .sort((a, b) => (a.due_date.date < b.due_date.date ? -1 : 1));
  }

  /** The ids of the objects of the events of `type`. */
  async function eventObjects(type: string): Promise<string[]> {
    const events = await ctx.db.event.findMany({ where: { type } });
    return events.map((event) => (event.data as { id: string }).id);
  }

  test("when a variable monthly recurrence runs a year on a test clock with one cycle of an amount ending in 13, then 12 cycles are paid and credited and that one fails after its 3 retries, in under 30 s", async () => {
    const started = Date.now();
    const clock = await createClock(merchant.client, T0);
    const before = (await merchant.client.get("/v1/balance").expect(200)).body.available as number;
    const id = await approvedRecurrence(
      merchant.client,
      recurrenceBody({
        start_date: START,
        end_date: "2031-01-15",
        amount: undefined,
        minimum_amount: 1000,
        retry_policy: "three_in_seven_days",
        test_clock: clock,
      }),
    );
    const third = cycleDueDate(START, "monthly", 2);

    // Into the third cycle's window, where the merchant sets its amount.
    await advanceClock(ctx, merchant.client, clock, "2030-03-08T12:00:00.000Z");
    await merchant.client.post(`/v1/recurrences/${id}/charges`, { amount: 2513, due_date: third }).expect(201);
    const done = await advanceClock(ctx, merchant.client, clock, "2031-01-31T12:00:00.000Z");

    const cycles = await cyclesOf(id);
    const recurrence = (await merchant.client.get(`/v1/recurrences/${id}`).expect(200)).body;
    const balance = (await merchant.client.get("/v1/balance").expect(200)).body.available as number;
    expect(done).toMatchObject({ status: "ready", frozen_time: "2031-01-31T12:00:00.000Z" });
    expect(cycles.map((cycle) => cycle.due_date.date)).toEqual(
      Array.from({ length: 13 }, (_, i) => cycleDueDate(START, "monthly", i)),
    );
    expect(cycles.filter((cycle) => cycle.status === "paid")).toHaveLength(12);
    expect(cycles.find((cycle) => cycle.due_date.date === third)).toMatchObject({ status: "failed", amount: 2513 });
    expect(cycles.filter((cycle) => cycle.due_date.date !== third).every((cycle) => cycle.amount === 1000)).toBe(true);
    expect(cycles[0]).toMatchObject({ paid_at: `${START}T15:00:00.000Z`, payment: { amount: 1000 } });
    const failed = await ctx.db.recurrenceCycle.findFirst({ where: { recurrence_id: id, due_date: third } });
    expect(failed).toMatchObject({ attempts: 4, next_attempt_at: null });
    expect(balance).toBe(before + 12 * 1000);
    expect(recurrence).toMatchObject({ status: "approved", next_due_date: null });
    const ids = cycles.map((cycle) => cycle.id);
    expect((await eventObjects("transaction.created")).filter((event) => ids.includes(event))).toHaveLength(13);
    expect((await eventObjects("transaction.paid")).filter((event) => ids.includes(event))).toHaveLength(12);
    expect(await eventObjects("transaction.failed")).toContain(cycles[2]!.id);
    const postbacks = await ctx.db.webhookDelivery.count({
      where: { destination_type: "postback", transaction_id: { in: ids } },
    });
    expect(postbacks).toBe(0);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);

  test("when a fixed recurrence without retries has an amount ending in 13, then its first cycle fails on its due date with transaction.failed, and the next is sent", async () => {
    const clock = await createClock(merchant.client, T0);
    const id = await approvedRecurrence(
      merchant.client,
      recurrenceBody({
        start_date: START,
        amount: 1013,
        test_clock: clock,
        postback_url: "http://127.0.0.1:9/pix",
      }),
    );

    await advanceClock(ctx, merchant.client, clock, "2030-02-12T12:00:00.000Z");
    const cycles = await cyclesOf(id);

    expect(cycles.map((cycle) => [cycle.due_date.date, cycle.status])).toEqual([
      [START, "failed"],
      ["2030-02-15", "pending"],
    ]);
    expect(cycles[0]).toMatchObject({
      due_date: { days_after_due: 0, last_payable_date: START },
      postback_url: "http://127.0.0.1:9/pix",
    });
    expect(await eventObjects("transaction.failed")).toContain(cycles[0]!.id);
    const polled = await merchant.client.get("/v1/events?type=transaction.failed").expect(200);
    expect(polled.body.data.map((event: { data: { object: { id: string } } }) => event.data.object.id)).toContain(
      cycles[0]!.id,
    );
    const postbacks = await ctx.db.webhookDelivery.count({
      where: { destination_type: "postback", transaction_id: cycles[0]!.id, event_type: "transaction.failed" },
    });
    expect(postbacks).toBe(1);
  });

  test("when paid cycles are refunded and disputed, then each is like any other paid charge", async () => {
    const clock = await createClock(merchant.client, T0);
    const id = await approvedRecurrence(merchant.client, recurrenceBody({ start_date: START, test_clock: clock }));
    await advanceClock(ctx, merchant.client, clock, "2030-02-16T12:00:00.000Z");
    const [refunded, disputed] = (await cyclesOf(id)) as [Cycle, Cycle];

    await merchant.client
      .post(`/v1/transactions/${refunded.id}/refunds`, {})
      .set("Idempotency-Key", `refund-${refunded.id}`)
      .expect(201);
    await settleRefunds(ctx);
    await merchant.client.post(`/v1/transactions/${disputed.id}/simulate-dispute`, { amount: 1000 }).expect(201);

    expect((await merchant.client.get(`/v1/transactions/${refunded.id}`)).body).toMatchObject({
      status: "refunded",
      amount_refunded: 4990,
    });
    expect((await merchant.client.get(`/v1/transactions/${disputed.id}`)).body).toMatchObject({
      status: "paid",
      amount_disputed: 1000,
    });
  });

  test("when a recurrence on a clock is not approved within 30 days, then the engine expires it with recurrence.expired", async () => {
    const clock = await createClock(merchant.client, T0);
    const id = (
      await merchant.client
        .post("/v1/recurrences", recurrenceBody({ start_date: START, test_clock: clock }))
        .expect(201)
    ).body.id as string;

    await advanceClock(ctx, merchant.client, clock, "2030-01-31T12:00:00.000Z");
    const waiting = (await merchant.client.get(`/v1/recurrences/${id}`)).body.status as string;
    await advanceClock(ctx, merchant.client, clock, "2030-02-02T12:00:00.000Z");

    expect(waiting).toBe("created");
    expect((await merchant.client.get(`/v1/recurrences/${id}`)).body.status).toBe("expired");
    expect(await eventObjects("recurrence.expired")).toContain(id);
  });

  test("when a clock is moved back, more than 2 years, or while it advances, then it is refused, and so are its recurrences' changes meanwhile; a live key cannot use clocks", async () => {
    const clock = await createClock(merchant.client, T0);
    const body = recurrenceBody({ start_date: START, test_clock: clock });
    const recurrence = (await merchant.client.post("/v1/recurrences", body).expect(201)).body.id as string;

    const back = await merchant.client.post(`/v1/test-clocks/${clock}/advance`, {
      frozen_time: "2030-01-01T00:00:00Z",
    });
    const far = await merchant.client.post(`/v1/test-clocks/${clock}/advance`, { frozen_time: "2032-01-03T00:00:00Z" });
    const started = await merchant.client.post(`/v1/test-clocks/${clock}/advance`, {
      frozen_time: "2030-02-01T00:00:00Z",
    });
    const twice = await merchant.client.post(`/v1/test-clocks/${clock}/advance`, {
      frozen_time: "2030-03-01T00:00:00Z",
    });
    const live = await merchantClient(ctx.app, merchant.liveKey).post("/v1/test-clocks", { frozen_time: T0 });
    const approval = await merchant.client.post(`/v1/recurrences/${recurrence}/simulate-approval`, { approve: true });
    const another = await merchant.client.post("/v1/recurrences", body);

    expect([back.status, back.body.error.param]).toEqual([400, "frozen_time"]);
    expect([far.status, far.body.error.param]).toEqual([400, "frozen_time"]);
    expect(started.body).toMatchObject({
      status: "advancing",
      frozen_time: T0,
      advancing_to: "2030-02-01T00:00:00.000Z",
    });
    expect([twice.status, twice.body.error.code]).toEqual([409, "invalid_state"]);
    expect([live.status, live.body.error.code]).toEqual([403, "test_mode_only"]);
    expect([approval.status, approval.body.error.code]).toEqual([409, "invalid_state"]);
    expect([another.status, another.body.error.param]).toEqual([409, "test_clock"]);
  });

  test("when clocks are listed and read, then the store's are", async () => {
    const clock = await createClock(merchant.client, T0);

    const list = await merchant.client.get("/v1/test-clocks").expect(200);
    const read = await merchant.client.get(`/v1/test-clocks/${clock}`).expect(200);

    expect(list.body.data.map((c: { id: string }) => c.id)).toContain(clock);
    expect(read.body).toEqual({
      id: clock,
      object: "test_clock",
      frozen_time: T0,
      status: "ready",
      advancing_to: null,
      created_at: expect.any(String),
    });
  });
});
