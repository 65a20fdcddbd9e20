/**
 * Business days for due-date charges (DESIGN §13): Monday to Friday except the national holidays fixed by federal
 * law. The standard moves a due date that falls "on a weekend or a holiday for the paying user" (`openapi.yaml`,
 * `CobDataDeVencimento.validadeAposVencimento`), but the payer's city (the standard's `codMun`, which the payer's bank
 * sends when it fetches the payload) is never known to us, so no state or municipal holiday counts here: in a city
 * with its own holiday the payer's bank may move a date one day further than we do, and in live mode the bank's
 * figure prevails.
 *
 * The dates come from `date-holidays` (Brazil, public holidays only), kept when they are one of:
 * - 1 January, 21 April, 1 May, 7 September, 2 November, 15 November and 25 December (Lei 662/1949 as amended by Lei
 *   10.607/2002);
 * - 12 October (Lei 6.802/1980);
 * - 20 November from 2024 on (Lei 14.759/2023; the library starts it in 2024);
 * - Good Friday, named by Lei 9.093/1995 and declared a national holiday in the federal calendar every year; banks
 *   close on it throughout the country.
 * Left out: the library's election days ("Dia de Eleição", always a Sunday, so never a business day anyway) and
 * everything it does not call public (Carnival, Corpus Christi and the other optional days).
 */
import Holidays from "date-holidays";
import { dayOf, isoDateOf, parseIsoDate, weekdayOf, yearOf } from "./iso-dates";

const FEDERAL_FIXED_DATES = new Set(["01-01", "04-21", "05-01", "09-07", "10-12", "11-02", "11-15", "11-20", "12-25"]);
const GOOD_FRIDAY_RULE = "easter -2";

let calendar: Holidays | undefined;
const holidaysByYear = new Map<number, ReadonlySet<number>>();

/** The day numbers of a year's national holidays, computed once per year. */
function holidayDays(year: number): ReadonlySet<number> {
  let days = holidaysByYear.get(year);
  if (days === undefined) {
    calendar ??= new Holidays("BR", { types: ["public"] });
    days = new Set(
      calendar
        .getHolidays(year)
        .filter((holiday) => FEDERAL_FIXED_DATES.has(holiday.date.slice(5, 10)) || holiday.rule === GOOD_FRIDAY_RULE)
        .flatMap((holiday) => parseIsoDate(holiday.date.slice(0, 10)) ?? []),
    );
    holidaysByYear.set(year, days);
  }
  return days;
}

/**
 * The national holidays of `year` that this module counts (see the module's comment for the rule).
 * @returns `YYYY-MM-DD` dates in calendar order
 */
export function nationalHolidays(year: number): string[] {
  return [...holidayDays(year)].sort((a, b) => a - b).map(isoDateOf);
}

/** Whether a day number is a business day: Monday to Friday and not a national holiday. */
export function isBusinessDayNumber(day: number): boolean {
  const weekday = weekdayOf(day);
  return weekday !== 0 && weekday !== 6 && !holidayDays(yearOf(day)).has(day);
}

/** The first business day on or after a day number. */
export function businessDayOnOrAfter(day: number): number {
  let next = day;
  while (!isBusinessDayNumber(next)) next += 1;
  return next;
}

/** How many business days lie after `from` and up to `to` included; zero when `to` is not after `from`. */
export function businessDaysBetween(from: number, to: number): number {
  let count = 0;
  for (let day = from + 1; day <= to; day += 1) if (isBusinessDayNumber(day)) count += 1;
  return count;
}

/**
 * Whether `date` is a business day: Monday to Friday and not a national holiday.
 * @param date - `YYYY-MM-DD`
 * @throws RangeError when `date` is not a real `YYYY-MM-DD` date
 */
export function isBusinessDay(date: string): boolean {
  return isBusinessDayNumber(dayOf(date));
}
