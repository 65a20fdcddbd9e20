import { findDueRecurrenceIds } from "@lm/db";
import { runRecurrence, runTestClockAdvance } from "@lm/domain";
import type { Pool } from "pg";
import { useApiTestContext } from "../support/harness";
import { useTestMerchant } from "../support/merchant-client";
import { advanceClock, approvedRecurrence, createClock, cycleOutcomes, recurrenceBody } from "../support/recurrences";

const T0 = "2030-01-02T12:00:00.000Z";
const START = "2030-01-15";
const UNTIL = "2030-09-30T12:00:00.000Z";

/**
 * DESIGN §1, §14: every step of the engine is a row written under the recurrence's lock, so a run stopped anywhere and
 * run again, or two runs at once, send no cycle twice and miss none; and its sweep reads only the due recurrences.
 */
describe("the recurrence engine, interrupted and run again", () => {
  const ctx = useApiTestContext();
  const merchant = useTestMerchant(ctx);

  /** Two recurrences on a new clock: one paid every month, one whose every debit fails and is retried. */
  async function clockWithRecurrences() {
    const clock = await createClock(merchant.client, T0);
    const body = { start_date: START, retry_policy: "three_in_seven_days", test_clock: clock };
    const paid = await approvedRecurrence(merchant.client, recurrenceBody({ ...body, amount: 4990 }));
    const failing = await approvedRecurrence(merchant.client, recurrenceBody({ ...body, amount: 1013 }));
    return { clock, recurrences: [paid, failing] };
  }

  test("when the engine is stopped after every single step and run again, then it ends exactly as a run in one go: every cycle once, none missed", async () => {
    const once = await clockWithRecurrences();
    await advanceClock(ctx, merchant.client, once.clock, UNTIL);
    const stepwise = await clockWithRecurrences();
    await merchant.client.post(`/v1/test-clocks/${stepwise.clock}/advance`, { frozen_time: UNTIL }).expect(200);

    let runs = 0;
    for (const id of stepwise.recurrences) {
      while ((await runRecurrence(ctx.deps, id, new Date(UNTIL), { maxSteps: 1 })) > 0) runs += 1;
    }
    await runTestClockAdvance(ctx.deps, stepwise.clock);

    const expected = await cycleOutcomes(ctx, once.recurrences);
    expect(await cycleOutcomes(ctx, stepwise.recurrences)).toEqual(expected);
    expect(expected[0]).toHaveLength(9);
    expect(expected[0]!.every((cycle) => cycle.status === "paid" && cycle.credited === 1)).toBe(true);
    expect(expected[0]![0]!.events).toEqual(["transaction.created", "transaction.paid"]);
    expect(expected[1]!.every((cycle) => cycle.status === "failed" && cycle.attempts === 4)).toBe(true);
    expect(expected[1]![0]!.events).toEqual(["transaction.created", "transaction.failed"]);
    // Each cycle is written, sent and debited in steps of its own: 9 paid cycles of 3 steps, 9 failed ones of 6.
    expect(runs).toBe(9 * 3 + 9 * 6);
  }, 60_000);

  test("when a run stops between writing a cycle and sending it, then the cycle reads scheduled, and the next run sends it once", async () => {
    const clock = await createClock(merchant.client, T0);
    const id = await approvedRecurrence(merchant.client, recurrenceBody({ start_date: START, test_clock: clock }));
    const until = "2030-01-11T12:00:00.000Z";
    await merchant.client.post(`/v1/test-clocks/${clock}/advance`, { frozen_time: until }).expect(200);

    await runRecurrence(ctx.deps, id, new Date(until), { maxSteps: 1 });
    const [written] = await ctx.db.transaction.findMany({ where: { recurrence_id: id } });
    const scheduled = (await merchant.client.get(`/v1/transactions/${written!.id}`).expect(200)).body;
    const listed = (await merchant.client.get("/v1/transactions?status=scheduled").expect(200)).body;
    await runTestClockAdvance(ctx.deps, clock);

    expect(scheduled).toMatchObject({ status: "scheduled", type: "recurring", due_date: { date: START } });
    expect(listed.data.map((charge: { id: string }) => charge.id)).toContain(written!.id);
    expect((await merchant.client.get(`/v1/transactions/${written!.id}`)).body.status).toBe("pending");
    const [outcome] = await cycleOutcomes(ctx, [id]);
    expect(outcome).toEqual([
      expect.objectContaining({ due: START, status: "pending", events: ["transaction.created"] }),
    ]);
  });

  test("when two workers run the same advance at once, then no cycle is written, sent or paid twice", async () => {
    const { clock, recurrences } = await clockWithRecurrences();
    await merchant.client.post(`/v1/test-clocks/${clock}/advance`, { frozen_time: UNTIL }).expect(200);

    await Promise.allSettled([runTestClockAdvance(ctx.deps, clock), runTestClockAdvance(ctx.deps, clock)]);
    // A run that met the other's debit half-done failed, as a job does; its retry ends the advance.
    await runTestClockAdvance(ctx.deps, clock);

    const [paid, failing] = await cycleOutcomes(ctx, recurrences);
    expect((await merchant.client.get(`/v1/test-clocks/${clock}`)).body.status).toBe("ready");
    expect(paid).toHaveLength(9);
    expect(paid!.every((cycle) => cycle.status === "paid" && cycle.credited === 1 && !cycle.open)).toBe(true);
    expect(paid!.every((cycle) => cycle.events.join() === "transaction.created,transaction.paid")).toBe(true);
    expect(
      failing!.every(
        (cycle) => cycle.attempts === 4 && cycle.events.join() === "transaction.created,transaction.failed",
      ),
    ).toBe(true);
  }, 60_000);

  test("when 5,000 recurrences wait and 20 are due, then the sweep's statement reads the 20 through the due index", async () => {
    const store = merchant.storeId;
    await ctx.db.pool.query(
      `INSERT INTO recurrences (id, store_id, mode, status, contract, customer_name, customer_document,
         customer_document_masked, start_date, interval, retry_policy, journey, approval_expires_at, next_run_at,
         created_at, updated_at)
       SELECT 'rec_sweep' || lpad(g::text, 21, '0'), $1, 'test', 'approved', 'c', 'n', 'd', 'm', '2030-01-01',
         'monthly', 'none', 'qr', now(),
         CASE WHEN g <= 20 THEN now() - interval '1 hour' WHEN g % 2 = 0 THEN now() + interval '3 days' END,
         now(), now()
       FROM generate_series(1, 5000) g`,
      [store],
    );
    await ctx.db.pool.query("ANALYZE recurrences");
    const plans: PlanNode[] = [];

    const due = await findDueRecurrenceIds(explaining(ctx.db.pool, plans), new Date(), 100);
    const found = await findDueRecurrenceIds(ctx.db.pool, new Date(), 100);

    expect(due).toEqual([]);
    expect(found.filter((id) => id.startsWith("rec_sweep"))).toHaveLength(20);
    const scans = plans.flatMap(scansOf).filter((node) => node["Relation Name"] === "recurrences");
    expect(scans.map((node) => node["Index Name"])).toEqual(["recurrences_due_idx"]);
    expect(
      scans.reduce((rows, node) => rows + node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0), 0),
    ).toBeLessThanOrEqual(30);
  });
});

/** One node of a JSON plan of `EXPLAIN (ANALYZE, FORMAT JSON)`. */
interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows": number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
}

/** Every node of `plan`. */
function scansOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(scansOf)];
}

/** A client that explains each statement on `pool` (and returns no row), keeping its plan in `plans`. */
function explaining(pool: Pool, plans: PlanNode[]): Pool {
  return {
    query: async (config: { text: string; values: unknown[] }) => {
      const { rows } = await pool.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${config.text}`, config.values);
      plans.push((rows[0] as { "QUERY PLAN": Array<{ Plan: PlanNode }> })["QUERY PLAN"][0]!.Plan);
      return { fields: [], rows: [] };
    },
  } as unknown as Pool;
}
