/**
 * Test clocks (DESIGN §14, Stripe's model): the time the engine reads for the test recurrences created with one.
 * Advancing a clock is asynchronous, as Stripe's is: `POST /v1/test-clocks/{id}/advance` writes the clock `advancing`
 * with the time it advances to and enqueues its `test-clock` job (DESIGN §1: the row first); the job
 * ({@link runTestClockAdvance}) runs the engine for the clock's recurrences up to that time, each recurrence step by
 * step in its own order (recurrences do not act on one another), and only then writes the new `frozen_time` and
 * `ready`. A job lost or killed mid-run is offered again by the reconciler and resumes where the rows stand, so an
 * advance ends once, however often it runs. A year of monthly cycles takes a few seconds.
 */
import type { TestClock } from "@lm/db";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { ApiError, validationFailed } from "../errors";
import { newId } from "../ids";
import { enqueueAfterCommit } from "../jobs/enqueue-after-commit";
import { assertTestMode, findTestClock } from "./find-recurrences";
import { runRecurrence } from "./recurrence-engine";

/** The furthest one advance may move a clock, in years. */
export const MAX_ADVANCE_YEARS = 2;

/** A clock's recurrences read per round trip during an advance. */
const ADVANCE_BATCH_SIZE = 100;

/**
 * Use case: creates a test clock of `scope`'s store frozen at `frozenTime` (`POST /v1/test-clocks`), `ready`.
 * @throws ApiError `test_mode_only` for a live key
 */
export async function createTestClock(
  deps: Pick<UseCaseDeps, "repos" | "now">,
  scope: MerchantScope,
  frozenTime: Date,
): Promise<TestClock> {
  assertTestMode(scope, "Test clocks are used");
  const now = deps.now();
  const clock: TestClock = {
    id: newId("testClock", now.getTime()),
    store_id: scope.storeId,
    frozen_time: frozenTime,
    status: "ready",
    advancing_to: null,
    created_at: now,
    updated_at: now,
  };
  await deps.repos.recurrences.insertTestClock(clock);
  return clock;
}

/** The `test-clock` job of clock `id` advancing to `to`: its id names the advance, so a repeat of it is a no-op. */
export function testClockJob(id: string, to: Date) {
  return { data: { testClockId: id }, jobId: `${id}-${to.getTime()}` };
}

/**
 * Use case: starts advancing clock `id` of `scope` to `to` (`POST /v1/test-clocks/{id}/advance`): the clock reads
 * `advancing` until its job has run everything due up to `to`.
 * @returns the clock, `advancing`
 * @throws ApiError `test_mode_only` for a live key; `resource_not_found`; `validation_failed` (param `frozen_time`)
 *   for a time not after the clock's or more than 2 years after it; `invalid_state` while it is advancing
 */
export async function advanceTestClock(
  deps: UseCaseDeps,
  scope: MerchantScope,
  id: string,
  to: Date,
): Promise<TestClock> {
  const clock = await findTestClock(deps.repos, scope, id);
  if (clock.status === "advancing") throw new ApiError("invalid_state", "This test clock is advancing already.");
  if (to <= clock.frozen_time) {
    throw validationFailed(
      "A test clock only moves forward: frozen_time must be after its current time.",
      "frozen_time",
    );
  }
  const limit = new Date(clock.frozen_time);
  limit.setUTCFullYear(limit.getUTCFullYear() + MAX_ADVANCE_YEARS);
  if (to > limit) {
    throw validationFailed(
      `A test clock advances at most 2 years at a time: until ${limit.toISOString()}.`,
      "frozen_time",
    );
  }
  const started = await deps.repos.recurrences.startTestClockAdvance(clock.id, to, deps.now());
  if (started === null) throw new ApiError("invalid_state", "This test clock is advancing already.");
  await enqueueAfterCommit(deps, "test-clock", [testClockJob(clock.id, to)]);
  return started;
}

/**
 * The `test-clock` job: runs the engine for clock `id`'s recurrences up to the time it advances to, then makes it
 * `ready` at that time. Nothing to do unless it is advancing.
 * @returns the clock as it is afterwards, or null when it is unknown
 * @throws what a recurrence's run throws (the clock stays `advancing`; the job is retried, and resumes)
 */
export async function runTestClockAdvance(deps: UseCaseDeps, id: string): Promise<TestClock | null> {
  const clock = await deps.repos.recurrences.findTestClockById(id);
  if (clock?.status !== "advancing" || clock.advancing_to === null) return clock;
  const until = clock.advancing_to;
  const seen = new Set<string>();
  for (;;) {
    const due = await deps.repos.recurrences.findClockDueRecurrenceIds(id, until, ADVANCE_BATCH_SIZE);
    const fresh = due.filter((recurrenceId) => !seen.has(recurrenceId));
    if (fresh.length === 0) break;
    for (const recurrenceId of fresh) {
      seen.add(recurrenceId);
      await runRecurrence(deps, recurrenceId, until);
    }
  }
  await deps.repos.recurrences.finishTestClockAdvance(id, until, deps.now());
  return deps.repos.recurrences.findTestClockById(id);
}
