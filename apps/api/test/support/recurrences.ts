/**
 * Pix Automático in tests (DESIGN §14): a recurrence's body, a test clock, and an advance run to its end in-process,
 * as the worker's `test-clock` job would run it.
 */
import { runTestClockAdvance, saoPauloDate } from "@lm/domain";
import type { ApiTestContext } from "./harness";
import type { MerchantClient } from "./merchant-client";

const DAY_MS = 86_400_000;

/** `date` (`YYYY-MM-DD`) moved by `days`. */
export function plusDays(date: string, days: number): string {
  return new Date(Date.parse(date) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Today in São Paulo, on the real clock (which the tests keep: events are written in weekly partitions of it). */
export const TODAY = saoPauloDate(new Date());

/** A valid creation body (a fixed monthly amount by the `qr` journey, starting in 20 days); override per test. */
export function recurrenceBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    contract: "assinatura-4821",
    description: "Plano mensal",
    customer: { name: "Maria da Silva", document: "529.982.247-25" },
    start_date: plusDays(TODAY, 20),
    interval: "monthly",
    amount: 4990,
    journey: "qr",
    ...overrides,
  };
}

/** Creates a test clock frozen at `frozenTime`; returns its id. */
export async function createClock(client: MerchantClient, frozenTime: string): Promise<string> {
  const res = await client.post("/v1/test-clocks", { frozen_time: frozenTime });
  if (res.status !== 201) throw new Error(`clock creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

/**
 * Advances clock `id` to `to` through the API, then runs its advance in this process as the worker's job would.
 * @returns the clock as the API reads it afterwards (`ready`)
 */
export async function advanceClock(ctx: ApiTestContext, client: MerchantClient, id: string, to: string) {
  const res = await client.post(`/v1/test-clocks/${id}/advance`, { frozen_time: to });
  if (res.status !== 200) throw new Error(`advance failed: ${res.status} ${JSON.stringify(res.body)}`);
  await runTestClockAdvance(ctx.deps, id);
  return (await client.get(`/v1/test-clocks/${id}`).expect(200)).body as { status: string; frozen_time: string };
}

/** Creates a recurrence of `body` and has the sandbox approve it; returns its id. */
export async function approvedRecurrence(client: MerchantClient, body: Record<string, unknown>): Promise<string> {
  const created = await client.post("/v1/recurrences", body);
  if (created.status !== 201) throw new Error(`creation failed: ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.id as string;
  const approved = await client.post(`/v1/recurrences/${id}/simulate-approval`, { approve: true });
  if (approved.status !== 200) throw new Error(`approval failed: ${approved.status} ${JSON.stringify(approved.body)}`);
  return id;
}

/** One cycle as {@link cycleOutcomes} reads it back. */
export interface CycleOutcome {
  due: string | undefined;
  status: string;
  amount: number;
  attempts: number | undefined;
  /** Whether the engine still has a debit of it to try. */
  open: boolean;
  /** The ledger's payment entries of its charge. */
  credited: number;
  /** Its charge's `transaction.*` event types, sorted. */
  events: string[];
}

/**
 * What the engine made of `recurrences` (ids), each a list of its cycles by due date: the charge's state, the debits
 * tried, the ledger's credits and the events, so that a run can be compared with another or checked for a cycle sent,
 * debited or credited twice.
 */
export async function cycleOutcomes(ctx: ApiTestContext, recurrences: string[]): Promise<CycleOutcome[][]> {
  const charges = await ctx.db.transaction.findMany({
    where: { recurrence_id: { in: recurrences } },
    include: { recurrence_cycle: true },
  });
  const events = await ctx.db.event.findMany({ where: { type: { startsWith: "transaction." } } });
  const eventsOf = (id: string) =>
    events
      .filter((event) => (event.data as { id: string }).id === id)
      .map((event) => event.type)
      .sort();
  const credits = await ctx.db.balanceTransaction.findMany({
    where: { type: "payment", source_id: { in: charges.map((charge) => charge.id) } },
  });
  return recurrences.map((recurrence) =>
    charges
      .filter((charge) => charge.recurrence_id === recurrence)
      .map((charge) => ({
        due: charge.recurrence_cycle?.due_date,
        status: charge.status,
        amount: charge.amount,
        attempts: charge.recurrence_cycle?.attempts,
        open: charge.recurrence_cycle?.next_attempt_at !== null,
        credited: credits.filter((credit) => credit.source_id === charge.id).length,
        events: eventsOf(charge.id),
      }))
      .sort((a, b) => String(a.due).localeCompare(String(b.due))),
  );
}
