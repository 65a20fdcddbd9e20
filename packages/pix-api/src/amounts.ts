/**
 * Amounts in the API Pix standard are decimal strings with a point and exactly two decimals (`valor` fields, pattern
 * `\d{1,10}\.\d{2}` in the standard's OpenAPI document); ours are integer centavos. Both directions work on digits
 * alone, so no amount ever passes through a binary fraction.
 */

/** The largest amount the standard's pattern can carry: ten integer digits and two decimals, in centavos. */
export const MAX_VALOR_CENTAVOS = 999_999_999_999;

const VALOR_PATTERN = /^(\d{1,10})\.(\d{2})$/;

/**
 * Writes integer centavos as the standard's decimal string: 1234 → "12.34", 5 → "0.05".
 * @param centavos - a non-negative integer, at most {@link MAX_VALOR_CENTAVOS}
 * @throws RangeError for a non-integer, a negative amount or one above 9999999999.99
 */
export function valorFromCentavos(centavos: number): string {
  if (!Number.isSafeInteger(centavos) || centavos < 0 || centavos > MAX_VALOR_CENTAVOS) {
    throw new RangeError(`amount must be an integer number of centavos from 0 to ${MAX_VALOR_CENTAVOS}`);
  }
  const digits = String(centavos).padStart(3, "0");
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/**
 * Reads the standard's decimal string as integer centavos: "12.34" → 1234. Leading zeros are accepted ("01.50" →
 * 150) because the standard's pattern allows them; anything else the pattern refuses ("1.5", "1,50", "-1.00",
 * " 1.00", a number) is not an amount.
 * @returns the centavos, or null when `valor` is not a string matching `^\d{1,10}\.\d{2}$`
 */
export function centavosFromValor(valor: unknown): number | null {
  if (typeof valor !== "string") return null;
  const match = VALOR_PATTERN.exec(valor);
  if (match === null) return null;
  // At most 12 digits: an exact integer in a double.
  return Number(`${match[1]}${match[2]}`);
}
