/**
 * `recurrence-engine` job (repeatable, every 10 s, DESIGN §14, §10 "Sweeps"): runs every recurrence on real time whose
 * `next_run_at` has passed (`sweepers/due-recurrences.ts`). Ticks never overlap, across every worker
 * (`sweep-schedule.ts`); a run by hand or a merchant's request meanwhile is ordered by the recurrence's lock.
 */
import type { Processor } from ".";
import { runDueRecurrencesSweep } from "../sweepers/due-recurrences";

/** Runs the due recurrences and logs how many. */
export const recurrenceEngineProcessor: Processor<"recurrence-engine"> = async (deps) => {
  await runDueRecurrencesSweep(deps);
};
