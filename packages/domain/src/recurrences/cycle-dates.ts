/**
 * The calendar of a Pix Automático recurrence (DESIGN §14): each cycle's due date, the window its charge may be sent
 * in, and the days the payer's bank tries to debit it. Pure: dates are `YYYY-MM-DD` calendar dates in
 * America/Sao_Paulo (Pix runs every day, so no date moves to a business day), instants are `Date`s.
 */
import type { RecurrenceInterval, RecurrenceRetryPolicy } from "@lm/db";
import { dayOf, isoDateOf, parseIsoDate } from "../due-dates/iso-dates";
import { endOfSaoPauloDay, noonInSaoPaulo } from "../due-dates";

/** Calendar months between two cycles of each monthly-based interval. */
const INTERVAL_MONTHS: Record<Exclude<RecurrenceInterval, "weekly">, number> = {
  monthly: 1,
  quarterly: 3,
  semiannual: 6,
  annual: 12,
};

/** Days before its due date a cycle's charge may be sent, at most and at least (the standard's rule). */
export const CYCLE_WINDOW_DAYS = { earliest: 10, latest: 2 } as const;

/** Days after the due date of each retry under `three_in_seven_days`: 3 retries, all within 7 days, one a day at most. */
export const RETRY_DAYS_AFTER_DUE = [1, 3, 5] as const;

/** Calendar days a cycle stays debitable after its due date under each retry policy. */
export const DAYS_AFTER_DUE: Record<RecurrenceRetryPolicy, number> = { none: 0, three_in_seven_days: 7 };

/** `date` (`YYYY-MM-DD`) moved by `days` (negative: back). */
export function addDays(date: string, days: number): string {
  return isoDateOf(dayOf(date) + days);
}

/**
 * `date` moved by `months` calendar months, its day kept, or clamped to the month's last day when the month is shorter
 * (31 January + 1 month is 28 or 29 February).
 */
export function addMonths(date: string, months: number): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const index = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = index - targetYear * 12;
  const lastDay = new Date(Date.UTC(targetYear, targetMonth + 1, 0)).getUTCDate();
  const clamped = Math.min(day, lastDay);
  return `${String(targetYear).padStart(4, "0")}-${String(targetMonth + 1).padStart(2, "0")}-${String(clamped).padStart(2, "0")}`;
}

/**
 * The due date of cycle `index` (from 0) of a recurrence starting on `startDate`: weekly ones every 7 days; the others
 * by calendar months counted from the start date itself (so a recurrence starting on the 31st falls on the 31st again
 * after a shorter month), clamped to the month's end.
 */
export function cycleDueDate(startDate: string, interval: RecurrenceInterval, index: number): string {
  if (interval === "weekly") return addDays(startDate, 7 * index);
  return addMonths(startDate, INTERVAL_MONTHS[interval] * index);
}

/**
 * The due date of cycle `index`, or null when it falls after `endDate` (the recurrence has no such cycle).
 * @param endDate - the last day a cycle may fall on; null for a recurrence without end
 */
export function cycleDueDateWithin(
  recurrence: { start_date: string; end_date: string | null; interval: RecurrenceInterval },
  index: number,
): string | null {
  const due = cycleDueDate(recurrence.start_date, recurrence.interval, index);
  return recurrence.end_date !== null && due > recurrence.end_date ? null : due;
}

/** The index of the first cycle due on or after `date` (none of those before it are charged). */
export function firstCycleFrom(startDate: string, interval: RecurrenceInterval, date: string): number {
  let index = 0;
  while (cycleDueDate(startDate, interval, index) < date) index += 1;
  return index;
}

/** The instant São Paulo's day `date` begins. */
export function startOfSaoPauloDay(date: string): Date {
  return endOfSaoPauloDay(addDays(date, -1));
}

/**
 * When the engine sends the charge of a cycle due on `due` (DESIGN §14): `leadDays` before it (a fixed amount,
 * `RECURRENCE_LEAD_DAYS`), or at the close of the window (2 days before) for a variable amount the merchant did not
 * set: the merchant may set it until then.
 */
export function cycleSendAt(due: string, variable: boolean, leadDays: number): Date {
  return startOfSaoPauloDay(addDays(due, -(variable ? CYCLE_WINDOW_DAYS.latest : leadDays)));
}

/**
 * Whether `today` (`YYYY-MM-DD`) lies in the window a cycle due on `due` may be sent in: 10 to 2 days before it,
 * both included.
 */
export function isInCycleWindow(due: string, today: string): boolean {
  const daysBefore = dayOf(due) - dayOf(today);
  return daysBefore <= CYCLE_WINDOW_DAYS.earliest && daysBefore >= CYCLE_WINDOW_DAYS.latest;
}

/** How many debits the payer's bank tries in all under `policy`: the one on the due date, and the retries. */
export function maxAttempts(policy: RecurrenceRetryPolicy): number {
  return policy === "three_in_seven_days" ? 1 + RETRY_DAYS_AFTER_DUE.length : 1;
}

/**
 * When debit `attempt` (from 0: the due date's; then the retries) of a cycle due on `due` is tried: noon in São Paulo
 * on its day.
 * @throws RangeError for an attempt past the retries
 */
export function attemptAt(due: string, attempt: number): Date {
  if (attempt === 0) return noonInSaoPaulo(due);
  const after = RETRY_DAYS_AFTER_DUE[attempt - 1];
  if (after === undefined) throw new RangeError(`a cycle has no debit attempt ${attempt}`);
  return noonInSaoPaulo(addDays(due, after));
}

/** The last day a cycle due on `due` may be debited under `policy`. */
export function lastDebitDate(due: string, policy: RecurrenceRetryPolicy): string {
  return addDays(due, DAYS_AFTER_DUE[policy]);
}

/** Whether `text` is a real `YYYY-MM-DD` date. */
export function isIsoDate(text: string): boolean {
  return parseIsoDate(text) !== null;
}
