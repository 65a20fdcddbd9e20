/**
 * Exact percentages of amounts (DESIGN §13 "money math"): a percentage string with two decimals is read as whole
 * hundredths of a percent, every product is a BigInt, and the only division is the last step, rounded half-up to the
 * centavo. No amount passes through a binary fraction, so no result drifts by a centavo.
 */

const PERCENT = /^(0|[1-9]\d{0,2})\.(\d{2})$/;

/**
 * Reads a percentage string as hundredths of a percent: "2.00" → 200, "0.33" → 33, "100.00" → 10000.
 * @returns null unless `text` is a string of 1 to 3 digits without a leading zero, a point and two digits
 */
export function percentHundredths(text: unknown): number | null {
  if (typeof text !== "string") return null;
  const match = PERCENT.exec(text);
  return match === null ? null : Number(`${match[1]}${match[2]}`);
}

/**
 * `percent` % of `centavos`, times `days`, divided by `daysPerPeriod`, rounded half-up to the centavo once at the end.
 * With the defaults it is plain `percent` % (a fine, a reduction, a discount tier); with `days` it is simple interest
 * or a discount per day at a rate per period of `daysPerPeriod` days (1 for a day, 30 or 21 for a month, 365 or 252
 * for a year).
 * @param centavos - a non-negative integer
 * @param percent - a percentage string `percentHundredths` reads; validated beforehand
 * @param days - a non-negative integer
 * @returns integer centavos
 * @throws RangeError when `percent` is not a percentage string: a caller skipped validation
 */
export function percentOf(centavos: number, percent: string, days = 1, daysPerPeriod = 1): number {
  const hundredths = percentHundredths(percent);
  if (hundredths === null) throw new RangeError(`not a percentage with two decimals: ${percent}`);
  const numerator = BigInt(centavos) * BigInt(hundredths) * BigInt(days);
  const denominator = 10_000n * BigInt(daysPerPeriod);
  return Number((2n * numerator + denominator) / (2n * denominator));
}
