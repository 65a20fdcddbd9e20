/**
 * Money and dates as a Brazilian seller reads them (DESIGN §15): reais from integer centavos (`R$ 1.234,56` in
 * pt-BR) and instants in São Paulo time, whatever the browser's own time zone.
 */

/** The dashboard's languages: Brazilian Portuguese (the default) and English. */
export type Locale = "pt-BR" | "en";

/** Where the seller's dates are read. */
export const SAO_PAULO = "America/Sao_Paulo";

const moneyFormats = new Map<Locale, Intl.NumberFormat>();
const dateTimeFormats = new Map<Locale, Intl.DateTimeFormat>();
const dateFormats = new Map<Locale, Intl.DateTimeFormat>();

/** `cents` (integer centavos) as reais, e.g. 123456 → `R$ 1.234,56` in pt-BR. */
export function formatMoney(cents: number, locale: Locale): string {
  let format = moneyFormats.get(locale);
  if (format === undefined) {
    format = new Intl.NumberFormat(locale, { style: "currency", currency: "BRL" });
    moneyFormats.set(locale, format);
  }
  return format.format(cents / 100);
}

/** An ISO 8601 instant as a date and time in São Paulo, e.g. `07/12/2026, 07:23:05`; `—` for null. */
export function formatDateTime(iso: string | null | undefined, locale: Locale): string {
  if (iso == null) return "—";
  let format = dateTimeFormats.get(locale);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, { timeZone: SAO_PAULO, dateStyle: "short", timeStyle: "medium" });
    dateTimeFormats.set(locale, format);
  }
  return format.format(new Date(iso));
}

/** A `YYYY-MM-DD` day as the locale writes it, e.g. `07/12` in pt-BR (day and month only). */
export function formatDay(day: string, locale: Locale): string {
  let format = dateFormats.get(locale);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, { timeZone: "UTC", day: "2-digit", month: "2-digit" });
    dateFormats.set(locale, format);
  }
  return format.format(new Date(`${day}T00:00:00Z`));
}

/**
 * Reais typed by the seller (`1.234,56`, `1,234.56`, `1234,56`, `10`) as integer centavos, or null when it is not an
 * amount. A final `,` or `.` followed by one or two digits is the decimal separator; other separators group thousands,
 * and never with the decimal separator's character (`1,234,5` is refused).
 */
export function parseMoney(text: string): number | null {
  const compact = text.replace(/[R$\s\u00a0]/g, "");
  const match = /^(\d{1,3}(?:[.,]?\d{3})*|\d+)(?:([.,])(\d{1,2}))?$/.exec(compact);
  if (match === null) return null;
  const [, integer = "", decimalSeparator, decimals] = match;
  if (decimalSeparator !== undefined && integer.includes(decimalSeparator)) return null;
  const whole = integer.replace(/[.,]/g, "");
  const fraction = (decimals ?? "").padEnd(2, "0");
  const cents = Number(whole) * 100 + Number(fraction);
  return Number.isSafeInteger(cents) ? cents : null;
}

/**
 * A `datetime-local` value (`2026-12-07T14:30`) read as São Paulo time, as an ISO 8601 instant. Brazil keeps UTC−3
 * all year since 2019, so the offset is fixed.
 */
export function saoPauloInputToIso(value: string): string {
  return new Date(`${value}:00-03:00`).toISOString();
}

/** An instant as a `datetime-local` value in São Paulo time (the inverse of {@link saoPauloInputToIso}). */
export function isoToSaoPauloInput(iso: string): string {
  return new Date(new Date(iso).getTime() - 3 * 3_600_000).toISOString().slice(0, 16);
}
