/**
 * The terms of a due-date charge in our names (DESIGN §13), each type naming the field and modalidade of the API Pix
 * standard's `cobv` it stands for (`bacen/pix-api` `openapi.yaml` release 2.9, schemas `CobDataDeVencimento` and
 * `CobVValor`), so that the bank adapter can write them one to one (`toCobvTerms` does).
 *
 * Amounts are integer centavos. Percentages are decimal strings with exactly two decimals, as the standard writes them
 * (`"2.00"` is 2 %), and the arithmetic on them is exact: they are read as whole hundredths of a percent.
 */

/** `days_after_due` when the terms leave it out: the standard's default for `validadeAposVencimento`. */
export const DEFAULT_DAYS_AFTER_DUE = 30;

/** The largest `days_after_due` we accept (DESIGN §13: 0 to 365). */
export const MAX_DAYS_AFTER_DUE = 365;

/**
 * Which days a per-day rule counts: every calendar day [`dias corridos`] or only business days [`dias úteis`]:
 * Monday to Friday except the national holidays of `nationalHolidays`.
 */
export type DayCount = "calendar" | "business";

/**
 * The fine [`valor.multa`], charged once when the charge is paid after its due date (moved to a business day, see
 * `effectiveDueDate`).
 * - `{type: "fixed", value}`: `value` in integer centavos [`multa`, modalidade 1, valor fixo];
 * - `{type: "percent", value}`: `value` a percentage of the original amount, `"0.01"` to `"100.00"` [`multa`,
 *   modalidade 2, percentual].
 */
export type Fine = { type: "fixed"; value: number } | { type: "percent"; value: string };

/**
 * Interest [`valor.juros`], simple, for each day (calendar or business, as `days` says) after the due date. Fixed
 * values are integer centavos a day; percentages (`"0.01"` to `"100.00"`) apply to the original amount.
 * - `fixed_per_day`: [`juros`, modalidade 1 with calendar days, 5 with business days, valor];
 * - `percent_per_day`: [modalidade 2 calendar, 6 business, percentual ao dia];
 * - `percent_per_month`: [modalidade 3 calendar, 7 business, percentual ao mês]: a thirtieth of the rate per calendar
 *   day, a twenty-first per business day;
 * - `percent_per_year`: [modalidade 4 calendar, 8 business, percentual ao ano]: a 365th of the rate per calendar day, a
 *   252nd per business day.
 */
export type Interest =
  | { type: "fixed_per_day"; days: DayCount; value: number }
  | { type: "percent_per_day" | "percent_per_month" | "percent_per_year"; days: DayCount; value: string };

/**
 * A reduction [`valor.abatimento`]: a deduction from the amount, whatever the day of payment.
 * - `{type: "fixed", value}`: integer centavos, less than the original amount [`abatimento`, modalidade 1, valor fixo];
 * - `{type: "percent", value}`: a percentage of the original amount, `"0.01"` to `"99.99"` [`abatimento`, modalidade
 *   2, percentual].
 */
export type Reduction = { type: "fixed"; value: number } | { type: "percent"; value: string };

/**
 * One step of a discount by date [an element of `valor.desconto.descontoDataFixa`]: `value` off when paid on or before
 * `until` (`YYYY-MM-DD`, on or before the due date) [`data`, `valorPerc`].
 */
export interface DiscountTier<V extends number | string> {
  until: string;
  value: V;
}

/**
 * A discount for early payment [`valor.desconto`], never granted after the due date. Fixed values are integer centavos
 * less than the original amount; percentages (`"0.01"` to `"99.99"`) apply to the original amount.
 * - `fixed_until`: 1 to 3 tiers of centavos by date [`desconto`, modalidade 1, valor fixo até a data informada];
 * - `percent_until`: 1 to 3 tiers of percentages by date [modalidade 2, percentual até a data informada];
 * - `fixed_per_day_early`: centavos per day paid before the due date [modalidade 3 with calendar days, 4 with business
 *   days, valor por antecipação];
 * - `percent_per_day_early`: a percentage per day paid before the due date [modalidade 5 with calendar days, 6 with
 *   business days, percentual por antecipação].
 */
export type Discount =
  | { type: "fixed_until"; tiers: DiscountTier<number>[] }
  | { type: "percent_until"; tiers: DiscountTier<string>[] }
  | { type: "fixed_per_day_early"; days: DayCount; value: number }
  | { type: "percent_per_day_early"; days: DayCount; value: string };

/**
 * Everything the money math of a due-date charge needs. `null` and a missing field mean the same: no such rule.
 * - `original` [`valor.original`]: integer centavos, 1 to 999,999,999,999 (the standard's ten integer digits);
 * - `due_date` [`calendario.dataDeVencimento`]: `YYYY-MM-DD`, a calendar date in America/Sao_Paulo;
 * - `days_after_due` [`calendario.validadeAposVencimento`]: calendar days the charge stays payable after its due date,
 *   0 to 365, default {@link DEFAULT_DAYS_AFTER_DUE} (see `lastPayableDate`).
 */
export interface DueDateTerms {
  original: number;
  due_date: string;
  days_after_due?: number | null;
  fine?: Fine | null;
  interest?: Interest | null;
  reduction?: Reduction | null;
  discount?: Discount | null;
}
