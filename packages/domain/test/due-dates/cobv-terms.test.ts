import { fromCobvTerms, toCobvTerms, type DueDateTerms } from "../../src/due-dates";
import { dueDateTerms } from "./due-date-terms.factory";

type Part = Pick<DueDateTerms, "fine" | "interest" | "reduction" | "discount">;

/** Every one of the standard's 18 modalidades (multa 1-2, juros 1-8, abatimento 1-2, desconto 1-6), by hand. */
const modalidades: [name: string, terms: Part, valor: Record<string, unknown>][] = [
  ["multa 1", { fine: { type: "fixed", value: 500 } }, { multa: { modalidade: 1, valorPerc: "5.00" } }],
  ["multa 2", { fine: { type: "percent", value: "2.00" } }, { multa: { modalidade: 2, valorPerc: "2.00" } }],
  [
    "juros 1",
    { interest: { type: "fixed_per_day", days: "calendar", value: 5 } },
    { juros: { modalidade: 1, valorPerc: "0.05" } },
  ],
  [
    "juros 2",
    { interest: { type: "percent_per_day", days: "calendar", value: "0.10" } },
    { juros: { modalidade: 2, valorPerc: "0.10" } },
  ],
  [
    "juros 3",
    { interest: { type: "percent_per_month", days: "calendar", value: "1.00" } },
    { juros: { modalidade: 3, valorPerc: "1.00" } },
  ],
  [
    "juros 4",
    { interest: { type: "percent_per_year", days: "calendar", value: "12.00" } },
    { juros: { modalidade: 4, valorPerc: "12.00" } },
  ],
  [
    "juros 5",
    { interest: { type: "fixed_per_day", days: "business", value: 123 } },
    { juros: { modalidade: 5, valorPerc: "1.23" } },
  ],
  [
    "juros 6",
    { interest: { type: "percent_per_day", days: "business", value: "0.33" } },
    { juros: { modalidade: 6, valorPerc: "0.33" } },
  ],
  [
    "juros 7",
    { interest: { type: "percent_per_month", days: "business", value: "2.00" } },
    { juros: { modalidade: 7, valorPerc: "2.00" } },
  ],
  [
    "juros 8",
    { interest: { type: "percent_per_year", days: "business", value: "24.00" } },
    { juros: { modalidade: 8, valorPerc: "24.00" } },
  ],
  [
    "abatimento 1",
    { reduction: { type: "fixed", value: 1000 } },
    { abatimento: { modalidade: 1, valorPerc: "10.00" } },
  ],
  [
    "abatimento 2",
    { reduction: { type: "percent", value: "5.00" } },
    { abatimento: { modalidade: 2, valorPerc: "5.00" } },
  ],
  [
    "desconto 1",
    {
      discount: {
        type: "fixed_until",
        tiers: [
          { until: "2026-03-01", value: 2000 },
          { until: "2026-03-05", value: 1000 },
        ],
      },
    },
    {
      desconto: {
        modalidade: 1,
        descontoDataFixa: [
          { data: "2026-03-01", valorPerc: "20.00" },
          { data: "2026-03-05", valorPerc: "10.00" },
        ],
      },
    },
  ],
  [
    "desconto 2",
    { discount: { type: "percent_until", tiers: [{ until: "2026-03-10", value: "3.00" }] } },
    { desconto: { modalidade: 2, descontoDataFixa: [{ data: "2026-03-10", valorPerc: "3.00" }] } },
  ],
  [
    "desconto 3",
    { discount: { type: "fixed_per_day_early", days: "calendar", value: 50 } },
    { desconto: { modalidade: 3, valorPerc: "0.50" } },
  ],
  [
    "desconto 4",
    { discount: { type: "fixed_per_day_early", days: "business", value: 50 } },
    { desconto: { modalidade: 4, valorPerc: "0.50" } },
  ],
  [
    "desconto 5",
    { discount: { type: "percent_per_day_early", days: "calendar", value: "0.10" } },
    { desconto: { modalidade: 5, valorPerc: "0.10" } },
  ],
  [
    "desconto 6",
    { discount: { type: "percent_per_day_early", days: "business", value: "0.10" } },
    { desconto: { modalidade: 6, valorPerc: "0.10" } },
  ],
];

describe("toCobvTerms (DESIGN §13 Live; the standard's CobDataDeVencimento and CobVValor)", () => {
  test.each(modalidades)("%s", (_name, part, valor) => {
    expect(toCobvTerms(dueDateTerms(part))).toEqual({
      calendario: { dataDeVencimento: "2026-03-10", validadeAposVencimento: 30 },
      valor: { original: "1000.00", ...valor },
    });
  });

  test("when every rule is set, then they are all written, with days_after_due as given", () => {
    const terms = dueDateTerms({
      original: 12345,
      days_after_due: 0,
      fine: { type: "percent", value: "2.00" },
      interest: { type: "percent_per_month", days: "calendar", value: "1.00" },
      reduction: { type: "fixed", value: 45 },
      discount: { type: "percent_until", tiers: [{ until: "2026-03-01", value: "5.00" }] },
    });

    expect(toCobvTerms(terms)).toEqual({
      calendario: { dataDeVencimento: "2026-03-10", validadeAposVencimento: 0 },
      valor: {
        original: "123.45",
        multa: { modalidade: 2, valorPerc: "2.00" },
        juros: { modalidade: 3, valorPerc: "1.00" },
        abatimento: { modalidade: 1, valorPerc: "0.45" },
        desconto: { modalidade: 2, descontoDataFixa: [{ data: "2026-03-01", valorPerc: "5.00" }] },
      },
    });
  });
});

describe("fromCobvTerms (the payer's bank reading a registered cobv)", () => {
  test.each(modalidades)("%s reads back as the terms that wrote it", (_name, part) => {
    const terms = dueDateTerms(part);

    expect(fromCobvTerms(toCobvTerms(terms))).toEqual({ ...terms, days_after_due: 30 });
  });

  test("when a modalidade is not the standard's, then it is refused", () => {
    const cobv = toCobvTerms(dueDateTerms({ interest: { type: "fixed_per_day", days: "calendar", value: 5 } }));

    expect(() =>
      fromCobvTerms({ ...cobv, valor: { ...cobv.valor, juros: { modalidade: 9, valorPerc: "1.00" } } }),
    ).toThrow(RangeError);
  });
});
