/**
 * Batches of due-date charges in tests (DESIGN §13 "Batches"): a due date a week or more ahead on a business day (so it
 * does not move and every amount is fixed), an item's body, and the worker's run of a batch in-process.
 */
import { continueTransactionBatch, isBusinessDay, saoPauloDate } from "@lm/domain";
import type { ApiTestContext } from "./harness";
import { chargeBody } from "./merchant-client";

const DAY_MS = 86_400_000;

/** `date` (`YYYY-MM-DD`) moved by `days`. */
export function plusDays(date: string, days: number): string {
  return new Date(Date.parse(date) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Today in São Paulo: the clock stays the real one (events are written in weekly partitions around it). */
export const TODAY = saoPauloDate(new Date());

/** The first business day a week or more from today. */
export const DUE = (() => {
  let due = plusDays(TODAY, 7);
  while (!isBusinessDay(due)) due = plusDays(due, 1);
  return due;
})();

/** A valid item of a batch: a due-date charge's body (`chargeBody` with `due_date` and a fine); override per test. */
export function batchItem(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return chargeBody({ amount: 10_000, due_date: DUE, fine: { type: "percent", value: "2.00" }, ...overrides });
}

/** Runs batch `batchId` to its end in this process, as its `transaction-batch` job would. */
export function runBatch(ctx: ApiTestContext, batchId: string, options: { maxItems?: number } = {}) {
  return continueTransactionBatch(ctx.deps, batchId, options);
}
