/**
 * Reading recurrences and test clocks for the merchant API (DESIGN §14): always within the caller's store and mode, so
 * another store's or another mode's id reads exactly like an unknown one (404); and the time a recurrence runs on.
 */
import type { Recurrence, Repositories, TestClock } from "@lm/db";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { ApiError, notFound } from "../errors";
import { isId } from "../ids";
import type { PageArgs } from "../paging";

/**
 * The recurrence `id` of `scope`.
 * @throws ApiError `resource_not_found` when it is malformed, unknown, or of another store or mode
 */
export async function findRecurrence(repos: Repositories, scope: MerchantScope, id: string): Promise<Recurrence> {
  const found = isId("recurrence", id) ? await repos.recurrences.findRecurrenceById(id) : null;
  // A live recurrence still being registered at its bank is not the merchant's yet (see `createRecurrence`).
  if (found === null || found.store_id !== scope.storeId || found.mode !== scope.mode || found.registering) {
    throw notFound("recurrence");
  }
  return found;
}

/** One page of `scope`'s recurrences, in the page's order. */
export function listRecurrences(repos: Repositories, scope: MerchantScope, page: PageArgs): Promise<Recurrence[]> {
  return repos.recurrences.listRecurrencesPage(scope, page);
}

/**
 * Refuses a test clock to a live key (DESIGN §14: clocks are test mode's).
 * @throws ApiError `test_mode_only`
 */
export function assertTestMode(scope: MerchantScope, what: string): void {
  if (scope.mode !== "test") throw new ApiError("test_mode_only", `${what} with test keys only.`);
}

/**
 * The test clock `id` of `scope`'s store (clocks are test mode's).
 * @throws ApiError `test_mode_only` for a live key; `resource_not_found` when it is malformed, unknown, or another
 *   store's
 */
export async function findTestClock(repos: Repositories, scope: MerchantScope, id: string): Promise<TestClock> {
  assertTestMode(scope, "Test clocks are used");
  const found = isId("testClock", id) ? await repos.recurrences.findTestClockById(id) : null;
  if (found === null || found.store_id !== scope.storeId) throw notFound("test clock");
  return found;
}

/** One page of `scope`'s test clocks, in the page's order. @throws ApiError `test_mode_only` for a live key */
export function listTestClocks(repos: Repositories, scope: MerchantScope, page: PageArgs): Promise<TestClock[]> {
  assertTestMode(scope, "Test clocks are used");
  return repos.recurrences.listTestClocksPage(scope.storeId, page);
}

/**
 * The time `recurrence` runs on now: its test clock's `frozen_time` when it has one (DESIGN §14), else real time.
 * @throws Error when its clock is gone (a foreign key keeps it)
 */
export async function recurrenceNow(
  deps: Pick<UseCaseDeps, "repos" | "now">,
  recurrence: Pick<Recurrence, "test_clock_id">,
): Promise<Date> {
  if (recurrence.test_clock_id === null) return deps.now();
  const clock = await deps.repos.recurrences.findTestClockById(recurrence.test_clock_id);
  if (clock === null) throw new Error(`test clock ${recurrence.test_clock_id} is gone`);
  return clock.frozen_time;
}
