/**
 * The recurrence engine's sweep on real time (DESIGN §14, §1): every recurrence without a test clock whose
 * `next_run_at` has passed is run up to now (`runDueRecurrences`), read through its partial index, so a tick's cost is
 * that of the due recurrences whatever their number. And the reconciler's sweep of test clocks still advancing whose
 * job was lost: each is offered again to the `test-clock` queue under its advance's job id.
 */
import { runDueRecurrences, testClockJob } from "@lm/domain";
import type { WorkerDeps } from "../deps";
import { offerRows, putFailedJobsBack } from "./offer-rows";

/** Most clocks offered per reconciler tick. */
const CLOCK_BATCH_SIZE = 100;
/** Advances younger than this are left to the job enqueued when they started, ms. */
const GRACE_MS = 60_000;

/**
 * Runs the recurrences due on real time and logs how many.
 * @returns how many recurrences it ran
 */
export async function runDueRecurrencesSweep(deps: WorkerDeps): Promise<number> {
  const ran = await runDueRecurrences(deps);
  if (ran > 0) deps.logger.info("recurrence engine ran", { recurrences: ran });
  return ran;
}

/**
 * Offers the test clocks still advancing (older than {@link GRACE_MS}) to the `test-clock` queue, after putting its
 * failed jobs back.
 * @returns how many were offered
 */
export async function enqueueAdvancingTestClocks(deps: WorkerDeps): Promise<number> {
  await putFailedJobsBack(deps, "test-clock");
  const clocks = await deps.repos.recurrences.listAdvancingTestClocks(
    new Date(deps.now().getTime() - GRACE_MS),
    CLOCK_BATCH_SIZE,
  );
  return offerRows(
    deps,
    "test-clock",
    clocks.flatMap((clock) => (clock.advancing_to === null ? [] : [testClockJob(clock.id, clock.advancing_to)])),
  );
}
