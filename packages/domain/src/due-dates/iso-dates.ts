/**
 * Calendar dates as the standard writes them (`YYYY-MM-DD`, ISO 8601's full-date: a day, no time, no zone) and as
 * this module counts them: whole days since 1970-01-01, "day numbers", so that moving and comparing dates is integer
 * arithmetic no time zone or daylight-saving change can shift.
 */

const MS_PER_DAY = 86_400_000;

/** São Paulo's offset from UTC: Brazil has kept no daylight-saving time since 2019. */
const SAO_PAULO_OFFSET_MS = -3 * 3_600_000;

/** The calendar date (`YYYY-MM-DD`) of instant `at` in America/Sao_Paulo: the date every due-date rule counts in. */
export function saoPauloDate(at: Date): string {
  return new Date(at.getTime() + SAO_PAULO_OFFSET_MS).toISOString().slice(0, 10);
}

/** The instant São Paulo's day after `date` (`YYYY-MM-DD`) begins: when a charge payable until `date` expires. */
export function endOfSaoPauloDay(date: string): Date {
  return new Date(Date.parse(`${date}T00:00:00.000Z`) + MS_PER_DAY - SAO_PAULO_OFFSET_MS);
}

/** Noon of `date` (`YYYY-MM-DD`) in São Paulo: the instant a payment made "on that day" is dated. */
export function noonInSaoPaulo(date: string): Date {
  return new Date(`${date}T12:00:00.000-03:00`);
}
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Reads a `YYYY-MM-DD` date.
 * @returns its day number, or null when `text` is not a string naming a real date ("2026-02-30" is not, nor is any
 *   date of the years 0000 to 0099, which `Date.UTC` would read as 1900 to 1999)
 */
export function parseIsoDate(text: unknown): number | null {
  if (typeof text !== "string") return null;
  const match = ISO_DATE.exec(text);
  if (match === null) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.getTime() / MS_PER_DAY;
}

/**
 * Reads a date already validated as `YYYY-MM-DD`.
 * @throws RangeError when it is not one: a caller skipped validation
 */
export function dayOf(date: string): number {
  const day = parseIsoDate(date);
  if (day === null) throw new RangeError(`not a YYYY-MM-DD date: ${date}`);
  return day;
}

/** Writes a day number as `YYYY-MM-DD`. */
export function isoDateOf(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/** The day of the week of a day number: 0 is Sunday, 6 is Saturday (1970-01-01, day 0, was a Thursday). */
export function weekdayOf(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

/** The calendar year of a day number. */
export function yearOf(day: number): number {
  return new Date(day * MS_PER_DAY).getUTCFullYear();
}
