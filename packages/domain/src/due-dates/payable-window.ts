/**
 * The due date's move and the payable window of a due-date charge (DESIGN §13; `openapi.yaml` release 2.9, schema
 * `CobDataDeVencimento`: `dataDeVencimento`, and `validadeAposVencimento` with its examples A to G).
 *
 * A charge is payable up to its due date included, at any time of that day. A due date on a weekend or a national
 * holiday moves to the next business day, the effective due date, and every rule that refers to the due date moves
 * with it: the fine and interest start the day after the effective due date, discounts per day count up to it, a
 * discount tier dated on the due date lasts until it, and the days after due count from it.
 *
 * The last payable date is the effective due date plus `days_after_due` calendar days, moved in turn to the next
 * business day when it falls on a weekend or a holiday. That is the one rule every example of the standard agrees
 * with: A (due Tuesday 2020-10-20, 4 days: Saturday the 24th, so Monday the 26th); B to E (due Friday 2020-12-25, a
 * holiday, moved to Monday the 28th; 0, 1, 3 and 4 days: the 28th, the 29th, the 31st, and 2021-01-01, a holiday, so
 * Monday 2021-01-04); F and G likewise. The standard's error catalogue (`CobPayloadOperacaoInvalida`) has one example
 * that counts from the unmoved date instead (2020-12-25 and 10 days, refused from 2021-01-05); it contradicts example
 * E, and we follow the examples.
 */
import { validationFailed } from "../errors";
import { businessDayOnOrAfter } from "./business-days";
import { DEFAULT_DAYS_AFTER_DUE, type DueDateTerms } from "./due-date-terms";
import { dayOf, isoDateOf, parseIsoDate } from "./iso-dates";

/** The effective due date as a day number. */
export function effectiveDueDay(terms: Pick<DueDateTerms, "due_date">): number {
  return businessDayOnOrAfter(dayOf(terms.due_date));
}

/** The last payable date as a day number. */
export function lastPayableDay(terms: Pick<DueDateTerms, "due_date" | "days_after_due">): number {
  return businessDayOnOrAfter(effectiveDueDay(terms) + (terms.days_after_due ?? DEFAULT_DAYS_AFTER_DUE));
}

/**
 * The effective due date: `due_date`, or the next business day when it falls on a weekend or a national holiday.
 * @param terms - validated terms (`validateDueDateTerms`)
 * @returns `YYYY-MM-DD`
 * @throws RangeError when `due_date` is not a real `YYYY-MM-DD` date: a caller skipped validation
 */
export function effectiveDueDate(terms: Pick<DueDateTerms, "due_date">): string {
  return isoDateOf(effectiveDueDay(terms));
}

/**
 * The last date the charge can be paid [the end of `validadeAposVencimento`]: the effective due date plus
 * `days_after_due` calendar days (default 30), moved to the next business day when it is not one. The charge expires
 * the day after (DESIGN §13 "States").
 * @param terms - validated terms (`validateDueDateTerms`)
 * @returns `YYYY-MM-DD`
 * @throws RangeError when `due_date` is not a real `YYYY-MM-DD` date: a caller skipped validation
 */
export function lastPayableDate(terms: Pick<DueDateTerms, "due_date" | "days_after_due">): string {
  return isoDateOf(lastPayableDay(terms));
}

/**
 * Whether the charge can be paid on `date`: on or before its last payable date and, when `createdOn` is given, on or
 * after the day it was created (nothing is paid before it exists). Any date up to the due date is payable, with the
 * discount it earns; there is no earliest date besides creation.
 * @param terms - validated terms (`validateDueDateTerms`)
 * @param date - `YYYY-MM-DD`, a calendar date in America/Sao_Paulo; anything else is not payable
 * @param options.createdOn - `YYYY-MM-DD`, the charge's creation date in America/Sao_Paulo
 */
export function isPayableOn(
  terms: Pick<DueDateTerms, "due_date" | "days_after_due">,
  date: string,
  options: { createdOn?: string } = {},
): boolean {
  const day = parseIsoDate(date);
  if (day === null || day > lastPayableDay(terms)) return false;
  return options.createdOn === undefined || day >= dayOf(options.createdOn);
}

/**
 * Refuses a date outside the payable window of {@link isPayableOn}, as the amount-due route must (DESIGN §13).
 * @throws ApiError `validation_failed` (param `date`) when `date` is not a real `YYYY-MM-DD` date, or is after the
 *   last payable date or before `createdOn`; the message gives the window
 */
export function assertPayableOn(
  terms: Pick<DueDateTerms, "due_date" | "days_after_due">,
  date: string,
  options: { createdOn?: string } = {},
): void {
  if (parseIsoDate(date) === null) throw validationFailed("The date must be a real date written YYYY-MM-DD.", "date");
  if (isPayableOn(terms, date, options)) return;
  const last = lastPayableDate(terms);
  const window = options.createdOn === undefined ? `on or before ${last}` : `from ${options.createdOn} to ${last}`;
  throw validationFailed(`The charge is payable ${window}.`, "date");
}
