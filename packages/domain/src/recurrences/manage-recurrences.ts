/**
 * Use cases that change a recurrence from outside the engine (DESIGN §14): the payer's answer (in test mode simulated:
 * `simulate-approval`), a cancel by either side, and a variable cycle's amount set by the merchant. Each runs under
 * the recurrence's lock and ends by setting its `next_run_at` (`refreshNextRunAt`); an approval or an amount set then
 * runs the engine for the recurrence up to its time, so what is already due (a cycle in its window) happens at once.
 */
import type { Recurrence, RecurrenceParty, Repositories, Transaction } from "@lm/db";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { saoPauloDate } from "../due-dates";
import { ApiError, validationFailed } from "../errors";
import { enqueueDeliveries } from "../events/record-event";
import { acquirerOfRow } from "../acquirers";
import { simulatePayment } from "../test-mode";
import { cancelIfPending, findTransaction } from "../transactions";
import { CYCLE_WINDOW_DAYS, cycleDueDateWithin, firstCycleFrom, isInCycleWindow } from "./cycle-dates";
import { assertTestMode, findRecurrence, recurrenceNow } from "./find-recurrences";
import { recordRecurrenceEvent } from "./recurrence-events";
import { refreshNextRunAt, runRecurrence, writeCycle } from "./recurrence-engine";

/**
 * Runs `fn` on recurrence `id` locked, in one transaction, then enqueues the deliveries it returns.
 * @throws ApiError `resource_not_found` when the recurrence is gone (it never is: rows are kept)
 */
export async function underLock<T>(
  deps: UseCaseDeps,
  id: string,
  fn: (tx: Repositories, recurrence: Recurrence) => Promise<{ result: T; deliveryIds: string[] }>,
): Promise<T> {
  const { result, deliveryIds } = await deps.repos.transaction(async (tx) => {
    const locked = await tx.recurrences.lockRecurrence(id);
    if (locked === undefined) throw new ApiError("resource_not_found", "No such recurrence.");
    return fn(tx, locked);
  });
  await enqueueDeliveries(deps, deliveryIds);
  return result;
}

/**
 * Runs the engine for `recurrence` up to its time now: what an approval or an amount set made due happens at once. A
 * failure is logged, not thrown (the change it follows is committed); the sweep or the clock's next advance runs it.
 */
export async function runNow(deps: UseCaseDeps, recurrence: Recurrence): Promise<void> {
  try {
    await runRecurrence(deps, recurrence.id, await recurrenceNow(deps, recurrence));
  } catch (err) {
    deps.logger.error("recurrence engine run after a change failed", { recurrence_id: recurrence.id, err });
  }
}

/**
 * Refuses a change that makes engine steps due while `recurrence`'s test clock is advancing: its advance may have run
 * the recurrence already and would leave them for the next one.
 * @throws ApiError `invalid_state` while the clock is advancing
 */
async function assertClockReady(deps: UseCaseDeps, recurrence: Recurrence): Promise<void> {
  if (recurrence.test_clock_id === null) return;
  const clock = await deps.repos.recurrences.findTestClockById(recurrence.test_clock_id);
  if (clock?.status === "advancing") {
    throw new ApiError("invalid_state", "Its test clock is advancing; wait until it is ready.");
  }
}

/**
 * Refuses a simulation of the payer's side for a recurrence a bank holds (a bank activated for test mode): its bank
 * answers for the payer, and reports it (DESIGN §14 "Live").
 * @throws ApiError `invalid_state` for a recurrence held by a bank
 */
function assertSandboxPlaysPayer(recurrence: Recurrence): void {
  if (recurrence.bank_recurrence_id !== null) {
    throw new ApiError("invalid_state", "This recurrence is held by a bank, which answers for the payer.");
  }
}

/** @throws ApiError `invalid_state` unless `recurrence` is `created` (the payer has not answered) */
function assertAwaitingPayer(recurrence: Recurrence): void {
  if (recurrence.status !== "created") {
    throw new ApiError("invalid_state", `This recurrence is ${recurrence.status}: the payer has answered already.`);
  }
}

/**
 * Use case: the sandbox plays the payer's bank answering recurrence `id` of `scope`
 * (`POST /v1/recurrences/{id}/simulate-approval`, DESIGN §14). Approved, it is charged from its first cycle due on or
 * after the day of approval (earlier ones are not), with `recurrence.approved`; for `qr_with_first_payment` the payer
 * pays the first payment's charge first, settled before the reply. Rejected, it ends with `recurrence.rejected`.
 * @returns the recurrence as it is after the answer (and the engine's run)
 * @throws ApiError `test_mode_only` for a live key; `resource_not_found`; `invalid_state` unless it is `created`, while
 *   its test clock is advancing, when the first payment's charge can no longer be paid, or when a bank holds it
 */
export async function simulateRecurrenceApproval(
  deps: UseCaseDeps,
  scope: MerchantScope,
  id: string,
  approve: boolean,
): Promise<Recurrence> {
  assertTestMode(scope, "A payer's answer can be simulated");
  const found = await findRecurrence(deps.repos, scope, id);
  assertSandboxPlaysPayer(found);
  assertAwaitingPayer(found);
  await assertClockReady(deps, found);
  const now = await recurrenceNow(deps, found);
  if (approve && found.first_payment_transaction_id !== null) {
    // Paid by an earlier try of this approval that stopped before approving: paid once.
    const first = await findTransaction(deps.repos, scope, found.first_payment_transaction_id);
    if (first.status !== "paid") await simulatePayment(deps, scope, first.id, { settle: true });
  }
  await applyPayerAnswer(deps, found.id, approve, now);
  return findRecurrence(deps.repos, scope, id);
}

/**
 * Records the payer's answer to recurrence `id` at `now` (its time): approved, it is charged from its first cycle due
 * on or after that day, with `recurrence.approved`, and the engine runs what is due at once; rejected, it ends with
 * `recurrence.rejected`. The sandbox's simulation and a bank's report (DESIGN §14 "Live") both answer through here.
 * @returns the recurrence as answered
 * @throws ApiError `invalid_state` unless it is `created`
 */
export async function applyPayerAnswer(
  deps: UseCaseDeps,
  id: string,
  approve: boolean,
  now: Date,
): Promise<Recurrence> {
  const answered = await underLock(deps, id, async (tx, recurrence) => {
    assertAwaitingPayer(recurrence);
    if (!approve) {
      const rejected = await tx.recurrences.endRecurrenceRow(recurrence.id, { status: "rejected" }, now);
      return { result: rejected, ...(await recordRecurrenceEvent(tx, rejected, "recurrence.rejected", deps.now())) };
    }
    const cycle = firstCycleFrom(recurrence.start_date, recurrence.interval, saoPauloDate(now));
    const approved = await tx.recurrences.approveRecurrenceRow(
      recurrence.id,
      { cycle, dueDate: cycleDueDateWithin(recurrence, cycle) },
      now,
    );
    await refreshNextRunAt(deps, tx, approved);
    return { result: approved, ...(await recordRecurrenceEvent(tx, approved, "recurrence.approved", deps.now())) };
  });
  if (answered.status === "approved") await runNow(deps, answered);
  return answered;
}

/**
 * Cancels recurrence `id` of `scope` on behalf of `by` (DESIGN §14 "cancel by either side"): `canceled`, no cycle
 * charged after, each cycle not yet paid (`scheduled` or `pending`) canceled with `transaction.canceled`, and
 * `recurrence.canceled`, in one transaction.
 * A live recurrence is canceled at its bank first.
 * @param by - `merchant` (`POST /v1/recurrences/{id}/cancel`: a `created` or `approved` one) or `payer` (test mode's
 *   `simulate-payer-cancellation`: an `approved` one; the payer refuses a `created` one by rejecting it)
 * @returns the recurrence, canceled
 * @throws ApiError `test_mode_only` for a payer's cancel with a live key; `resource_not_found`; `invalid_state` when it
 *   is in another state, its bank reports it ended otherwise, or (a payer's cancel) a bank holds it;
 *   `acquirer_unavailable` or `acquirer_rejected` (502)
 */
export async function cancelRecurrence(
  deps: UseCaseDeps,
  scope: MerchantScope,
  id: string,
  by: RecurrenceParty,
): Promise<Recurrence> {
  if (by === "payer") assertTestMode(scope, "A payer's cancel can be simulated");
  const found = await findRecurrence(deps.repos, scope, id);
  if (by === "payer") assertSandboxPlaysPayer(found);
  if (by === "merchant" && found.bank_recurrence_id !== null) await cancelAtBank(deps, found);
  return endCanceled(deps, found.id, by, await recurrenceNow(deps, found));
}

/**
 * Cancels live recurrence `recurrence` at its bank first (DESIGN §14 "Live"), so that no cycle is debited once we
 * call it canceled.
 * @throws ApiError `invalid_state` when the bank reports it ended otherwise (its report updates it shortly);
 *   `acquirer_unavailable` or `acquirer_rejected` (502)
 */
async function cancelAtBank(deps: UseCaseDeps, recurrence: Recurrence): Promise<void> {
  const bank = (await acquirerOfRow(deps, recurrence.acquirer_id, recurrence.mode))?.recurrences;
  if (bank === undefined || recurrence.bank_recurrence_id === null) {
    throw new Error(`the bank of recurrence ${recurrence.id} is gone`);
  }
  const atBank = await bank.cancelRecurrence(recurrence.bank_recurrence_id);
  if (atBank.status !== "canceled") {
    throw new ApiError("invalid_state", `The bank reports this recurrence ${atBank.status}; it is updated shortly.`);
  }
}

/**
 * Ends recurrence `id` canceled by `by` at `now` (its time): each cycle not yet paid canceled with
 * `transaction.canceled`, and `recurrence.canceled`, in one transaction. A merchant cancels a `created` or `approved`
 * one, a payer an `approved` one (they refuse a `created` one by rejecting it).
 * @throws ApiError `invalid_state` when it is in another state
 */
export async function endCanceled(deps: UseCaseDeps, id: string, by: RecurrenceParty, now: Date): Promise<Recurrence> {
  const cancelable = by === "merchant" ? ["created", "approved"] : ["approved"];
  return underLock(deps, id, async (tx, recurrence) => {
    if (!cancelable.includes(recurrence.status)) {
      throw new ApiError(
        "invalid_state",
        `This recurrence is ${recurrence.status}: only ${cancelable.join(" or ")} can be canceled.`,
      );
    }
    const deliveryIds: string[] = [];
    const eventAt = deps.now();
    for (const cycle of await tx.recurrences.findOpenCycles(recurrence.id)) {
      const canceled = await cancelIfPending(tx, cycle.transaction_id, now, eventAt);
      if (canceled !== null) deliveryIds.push(...canceled.deliveryIds);
      await tx.recurrences.updateCycle(cycle.transaction_id, { attempts: cycle.attempts, next_attempt_at: null });
    }
    const canceled = await tx.recurrences.endRecurrenceRow(recurrence.id, { status: "canceled", canceledBy: by }, now);
    const recorded = await recordRecurrenceEvent(tx, canceled, "recurrence.canceled", eventAt);
    return { result: canceled, deliveryIds: [...deliveryIds, ...recorded.deliveryIds] };
  });
}

/** A variable cycle's amount, as the merchant sets it. */
export interface CycleChargeInput {
  /** Centavos, at least the recurrence's `minimum_amount`. */
  amount: number;
  /** `YYYY-MM-DD`: the recurrence's next cycle's due date (`next_due_date`). */
  due_date: string;
}

/**
 * Use case: the merchant sets the amount of variable recurrence `id`'s next cycle (`POST /v1/recurrences/{id}/charges`,
 * DESIGN §14), within its window (10 to 2 days before its due date, on the recurrence's time): the cycle's charge is
 * written and sent at once (`transaction.created`). Without it, the engine sends the cycle for `minimum_amount` when
 * the window closes.
 * @returns the cycle's charge, `pending`
 * @throws ApiError `resource_not_found`; `invalid_state` for a fixed amount, a recurrence that is not `approved`, a
 *   clock still advancing, or (param `due_date`) a date outside its window; `validation_failed` (param `due_date`)
 *   for a date that is not the next cycle's, (param `amount`) below `minimum_amount`
 */
export async function createCycleCharge(
  deps: UseCaseDeps,
  scope: MerchantScope,
  id: string,
  input: CycleChargeInput,
): Promise<Transaction> {
  const found = await findRecurrence(deps.repos, scope, id);
  if (found.amount !== null) {
    throw new ApiError("invalid_state", "This recurrence has a fixed amount: every cycle is charged it.");
  }
  await assertClockReady(deps, found);
  const now = await recurrenceNow(deps, found);
  const charge = await underLock(deps, found.id, async (tx, recurrence) => {
    if (recurrence.status !== "approved") {
      throw new ApiError("invalid_state", `This recurrence is ${recurrence.status}: only an approved one is charged.`);
    }
    if (recurrence.next_due_date === null || recurrence.next_due_date !== input.due_date) {
      throw validationFailed(
        recurrence.next_due_date === null
          ? "This recurrence has no cycle left to charge (its end date has passed)."
          : `The next cycle to charge is due on ${recurrence.next_due_date}; its amount is set with that due_date.`,
        "due_date",
      );
    }
    const today = saoPauloDate(now);
    if (!isInCycleWindow(input.due_date, today)) {
      throw new ApiError(
        "invalid_state",
        `A cycle's amount is set ${CYCLE_WINDOW_DAYS.earliest} to ${CYCLE_WINDOW_DAYS.latest} days before its due ` +
          `date (${input.due_date}); today is ${today}.`,
        { param: "due_date" },
      );
    }
    if (input.amount < (recurrence.minimum_amount ?? 1)) {
      throw validationFailed(`The amount must be at least the minimum, ${recurrence.minimum_amount}.`, "amount");
    }
    const cycle = { cycle: recurrence.next_cycle, dueDate: input.due_date, amount: input.amount };
    const written = await writeCycle(deps, tx, recurrence, cycle, now);
    const moved = await tx.recurrences.findRecurrenceById(recurrence.id);
    if (moved !== null) await refreshNextRunAt(deps, tx, moved);
    return { result: written, deliveryIds: [] };
  });
  await runNow(deps, found);
  return findTransaction(deps.repos, scope, charge.id);
}
