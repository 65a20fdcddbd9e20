/**
 * The standard's decimal amounts (`valor`, `^\d{1,10}\.\d{2}$`, BRL) and integer centavos, converted by digits alone.
 * The emulator keeps its own conversion rather than borrowing the client's: it is the independent counterpart the
 * client is tested against, so a slip in one must not be mirrored by the other.
 */

/** The whole-value form of the standard's `valor` pattern (the OpenAPI document leaves it unanchored). */
export const VALOR_PATTERN = "^\\d{1,10}\\.\\d{2}$";

const VALOR = new RegExp(VALOR_PATTERN);

/**
 * `"12.34"` → `1234`.
 * @throws RangeError when `valor` does not match {@link VALOR_PATTERN} (the schemas let no such value through)
 */
export function centavosFromValor(valor: string): number {
  if (!VALOR.test(valor)) throw new RangeError("not a decimal amount with two places");
  const [reais, cents] = valor.split(".") as [string, string];
  return Number(reais) * 100 + Number(cents);
}

/**
 * `1234` → `"12.34"`.
 * @throws RangeError for a negative or non-integer number of centavos
 */
export function valorFromCentavos(centavos: number): string {
  if (!Number.isSafeInteger(centavos) || centavos < 0) throw new RangeError("centavos must be a non-negative integer");
  return `${Math.trunc(centavos / 100)}.${String(centavos % 100).padStart(2, "0")}`;
}
