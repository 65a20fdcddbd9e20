import type { DueDateTerms } from "../../src/due-dates";

/** Golden cases' shape: a name with the arithmetic written out, the terms, the payment date, the expected parts. */
export type GoldenCase = [
  name: string,
  terms: DueDateTerms,
  paidOn: string,
  expected: [fine: number, interest: number, reduction: number, discount: number, total: number],
];

/** Terms of R$ 1.000,00 (100000 centavos) due Tuesday 2026-03-10, with `terms` on top. */
export function dueDateTerms(terms: Partial<DueDateTerms> = {}): DueDateTerms {
  return { original: 100000, due_date: "2026-03-10", ...terms };
}

/** A 2 % fine [multa, modalidade 2]. */
export const FINE_2_PERCENT = { type: "percent", value: "2.00" } as const;

/** The error `run` throws. */
export function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}
