/**
 * `test-clock` job (DESIGN §14): a test clock was written `advancing`, and the worker runs the recurrence engine for
 * its recurrences up to the time it advances to, then makes it `ready` (`runTestClockAdvance`). A run that dies or
 * fails mid-way is run again by BullMQ (a stalled or retried job) or offered again by the reconciler, and resumes where
 * the rows stand: no cycle is sent or debited twice.
 */
import { runTestClockAdvance } from "@lm/domain";
import type { Processor } from ".";

/** Runs clock `testClockId`'s advance to its end and logs it. */
export const processTestClock: Processor<"test-clock"> = async (deps, { testClockId }) => {
  const clock = await runTestClockAdvance(deps, testClockId);
  deps.logger.info("test clock advanced", { test_clock_id: testClockId, frozen_time: clock?.frozen_time });
};
