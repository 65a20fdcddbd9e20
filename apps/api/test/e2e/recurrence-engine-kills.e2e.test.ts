/**
 * DESIGN §14, §1: the recurrence engine run by worker processes (the bundle `npm start` runs), killed with SIGKILL twice
 * while a test clock's year of cycles is under way. BullMQ hands the stalled `test-clock` job to the next worker (the
 * reconciler would offer it too), which resumes where the rows stand: every cycle of every recurrence is written,
 * sent, debited and credited exactly once, none is missed, and each charge has exactly its events.
 */
import { waitUntil } from "@lm/testing";
import { buildServices } from "../../../../scripts/build";
import { useApiTestContext } from "../support/harness";
import { useTestMerchant } from "../support/merchant-client";
import { approvedRecurrence, createClock, cycleOutcomes, recurrenceBody } from "../support/recurrences";
import { useWorkerProcesses } from "./support/worker-processes";

jest.setTimeout(240_000);

const T0 = "2030-01-02T12:00:00.000Z";
const UNTIL = "2030-12-31T12:00:00.000Z";
/** Monthly cycles due from 2030-01-15 to 2030-12-15. */
const CYCLES = 12;
const PAID = 12;
/** Recurrences whose every debit fails (an amount ending in 13), each cycle retried 3 times before it fails. */
const FAILING = 6;

describe("the recurrence engine in worker processes, killed mid-advance", () => {
  const ctx = useApiTestContext();
  const merchant = useTestMerchant(ctx);
  const workers = useWorkerProcesses(ctx);
  beforeAll(async () => {
    await buildServices();
  }, 60_000);

  /** How many cycles of the store's recurrences have been debited at least once, or paid. */
  async function cyclesDebited(): Promise<number> {
    return ctx.db.recurrenceCycle.count({
      where: { OR: [{ attempts: { gt: 0 } }, { transaction: { status: "paid" } }] },
    });
  }

  test("when the worker is killed twice during a year of cycles, then the next ones finish it: every cycle once, none missed, each credited and announced once", async () => {
    const clock = await createClock(merchant.client, T0);
    const body = { start_date: "2030-01-15", retry_policy: "three_in_seven_days", test_clock: clock };
    const recurrences: string[] = [];
    for (let i = 0; i < PAID + FAILING; i++) {
      const amount = i < PAID ? 4990 : 1013;
      recurrences.push(await approvedRecurrence(merchant.client, recurrenceBody({ ...body, amount })));
    }
    await merchant.client.post(`/v1/test-clocks/${clock}/advance`, { frozen_time: UNTIL }).expect(200);
    const total = (PAID + FAILING) * CYCLES;

    for (const share of [0.2, 0.55]) {
      const worker = await workers.start();
      await waitUntil(`${share * 100} % of the cycles debited`, async () => (await cyclesDebited()) >= total * share, {
        timeoutMs: 120_000,
        intervalMs: 20,
      });
      worker.child.kill("SIGKILL");
      await worker.exited;
    }
    expect((await merchant.client.get(`/v1/test-clocks/${clock}`).expect(200)).body.status).toBe("advancing");
    await workers.start();
    await waitUntil(
      "the clock to be ready",
      async () => (await merchant.client.get(`/v1/test-clocks/${clock}`).expect(200)).body.status === "ready",
      { timeoutMs: 180_000, intervalMs: 250 },
    );

    const outcomes = await cycleOutcomes(ctx, recurrences);
    const dueDates = Array.from({ length: CYCLES }, (_, i) => `2030-${String(i + 1).padStart(2, "0")}-15`);
    for (const [index, cycles] of outcomes.entries()) {
      expect(cycles.map((cycle) => cycle.due)).toEqual(dueDates);
      const expected =
        index < PAID
          ? { status: "paid", credited: 1, open: false, events: ["transaction.created", "transaction.paid"] }
          : {
              status: "failed",
              credited: 0,
              open: false,
              attempts: 4,
              events: ["transaction.created", "transaction.failed"],
            };
      for (const cycle of cycles) expect(cycle).toMatchObject(expected);
    }
    const [balance] = await ctx.db.balance.findMany({ where: { seller_id: merchant.sellerId, mode: "test" } });
    expect(balance?.available).toBe(BigInt(PAID * CYCLES * 4990));
  });
});
