import { validateDueDateTerms, type DueDateTerms } from "../../src/due-dates";
import { ApiError } from "../../src/errors";
import { dueDateTerms, thrownBy } from "./due-date-terms.factory";

/** Terms typed loosely on purpose: the validator checks fields at run time, as a request body arrives. */
const loose = (terms: Record<string, unknown>) => dueDateTerms(terms as Partial<DueDateTerms>);

const tiers = (...list: [string, unknown][]) => list.map(([until, value]) => ({ until, value }));

const refused: [rule: string, terms: DueDateTerms, param: string][] = [
  ["an original amount of zero [the standard refuses it]", loose({ original: 0 }), "original"],
  ["a fractional original amount", loose({ original: 10.5 }), "original"],
  ["an original amount beyond ten integer digits", loose({ original: 1_000_000_000_000 }), "original"],
  ["a due date that is not a real date", loose({ due_date: "2026-02-29" }), "due_date"],
  ["days after due below zero [the standard refuses it]", loose({ days_after_due: -1 }), "days_after_due"],
  ["days after due above 365", loose({ days_after_due: 366 }), "days_after_due"],
  ["fractional days after due", loose({ days_after_due: 1.5 }), "days_after_due"],
  ["a fine of an unknown type", loose({ fine: { type: "daily", value: 100 } }), "fine.type"],
  ["a fixed fine of zero", loose({ fine: { type: "fixed", value: 0 } }), "fine.value"],
  ["a fixed fine in reais", loose({ fine: { type: "fixed", value: "5.00" } }), "fine.value"],
  ["a percent fine without two decimals", loose({ fine: { type: "percent", value: "2.0" } }), "fine.value"],
  ["a percent fine as a number", loose({ fine: { type: "percent", value: 2 } }), "fine.value"],
  ["a percent fine with a leading zero", loose({ fine: { type: "percent", value: "02.00" } }), "fine.value"],
  ["a percent fine of 0.00", loose({ fine: { type: "percent", value: "0.00" } }), "fine.value"],
  ["a percent fine above 100.00", loose({ fine: { type: "percent", value: "100.01" } }), "fine.value"],
  [
    "interest of an unknown type",
    loose({ interest: { type: "compound", days: "calendar", value: "1.00" } }),
    "interest.type",
  ],
  [
    "interest counting unknown days",
    loose({ interest: { type: "percent_per_day", days: "weekdays", value: "1.00" } }),
    "interest.days",
  ],
  [
    "fixed interest of a fraction of a centavo",
    loose({ interest: { type: "fixed_per_day", days: "calendar", value: 0.5 } }),
    "interest.value",
  ],
  [
    "an interest rate with a comma",
    loose({ interest: { type: "percent_per_month", days: "business", value: "1,00" } }),
    "interest.value",
  ],
  [
    "a fixed reduction equal to the original amount [the standard refuses it]",
    loose({ reduction: { type: "fixed", value: 100000 } }),
    "reduction.value",
  ],
  [
    "a reduction of 100 % [the standard refuses it]",
    loose({ reduction: { type: "percent", value: "100.00" } }),
    "reduction.value",
  ],
  ["a reduction of an unknown type", loose({ reduction: { type: "total", value: 1 } }), "reduction.type"],
  [
    "a discount of an unknown type [desconto modalidade 1 to 6 only]",
    loose({ discount: { type: "fixed_after", tiers: tiers(["2026-03-01", 100]) } }),
    "discount.type",
  ],
  [
    "a discount by date without tiers [the standard refuses it]",
    loose({ discount: { type: "fixed_until", tiers: [] } }),
    "discount.tiers",
  ],
  [
    "a discount by date with four tiers [at most three]",
    loose({
      discount: {
        type: "fixed_until",
        tiers: tiers(["2026-03-01", 400], ["2026-03-02", 300], ["2026-03-03", 200], ["2026-03-04", 100]),
      },
    }),
    "discount.tiers",
  ],
  [
    "a discount by date with a single value too [the standard refuses valorPerc]",
    loose({ discount: { type: "percent_until", value: "1.00", tiers: tiers(["2026-03-01", "1.00"]) } }),
    "discount.value",
  ],
  [
    "a tier dated after the due date [the standard refuses it]",
    loose({ discount: { type: "fixed_until", tiers: tiers(["2026-03-11", 100]) } }),
    "discount.tiers[0].until",
  ],
  [
    "a tier dated with another format",
    loose({ discount: { type: "fixed_until", tiers: tiers(["01/03/2026", 100]) } }),
    "discount.tiers[0].until",
  ],
  [
    "tier dates repeated [the standard wants unique tiers]",
    loose({ discount: { type: "fixed_until", tiers: tiers(["2026-03-01", 200], ["2026-03-01", 100]) } }),
    "discount.tiers[1].until",
  ],
  [
    "tier dates out of order",
    loose({ discount: { type: "fixed_until", tiers: tiers(["2026-03-05", 200], ["2026-03-01", 100]) } }),
    "discount.tiers[1].until",
  ],
  [
    "a fixed tier equal to the original amount [the standard refuses it]",
    loose({ discount: { type: "fixed_until", tiers: tiers(["2026-03-01", 100000]) } }),
    "discount.tiers[0].value",
  ],
  [
    "a percent tier of 100 % [the standard refuses it]",
    loose({ discount: { type: "percent_until", tiers: tiers(["2026-03-01", "1.00"], ["2026-03-02", "100.00"]) } }),
    "discount.tiers[1].value",
  ],
  [
    "a tier that is not an object",
    loose({ discount: { type: "fixed_until", tiers: [null] } }),
    "discount.tiers[0].until",
  ],
  [
    "a discount per day with tiers [the standard refuses descontoDataFixa]",
    loose({ discount: { type: "fixed_per_day_early", days: "calendar", value: 100, tiers: [] } }),
    "discount.tiers",
  ],
  [
    "a discount per day counting unknown days",
    loose({ discount: { type: "percent_per_day_early", days: "weekdays", value: "0.10" } }),
    "discount.days",
  ],
  [
    "a fixed discount per day equal to the original amount",
    loose({ discount: { type: "fixed_per_day_early", days: "business", value: 100000 } }),
    "discount.value",
  ],
  [
    "a percent discount per day with three decimals",
    loose({ discount: { type: "percent_per_day_early", days: "calendar", value: "0.005" } }),
    "discount.value",
  ],
];

describe("validateDueDateTerms (DESIGN §13; the standard's CobVValor and CobVOperacaoInvalida)", () => {
  test("when the terms use every rule at its limits, then they pass", () => {
    const terms = dueDateTerms({
      original: 999_999_999_999,
      days_after_due: 365,
      fine: { type: "percent", value: "100.00" },
      interest: { type: "fixed_per_day", days: "business", value: 999_999_999_999 },
      reduction: { type: "fixed", value: 999_999_999_998 },
      discount: {
        type: "percent_until",
        tiers: [
          { until: "2026-03-01", value: "99.99" },
          { until: "2026-03-05", value: "0.01" },
          { until: "2026-03-10", value: "50.00" },
        ],
      },
    });

    expect(() => validateDueDateTerms(terms, { today: "2026-03-10" })).not.toThrow();
    expect(() => validateDueDateTerms(dueDateTerms({ days_after_due: 0, fine: null }))).not.toThrow();
  });

  test.each(refused.map(([rule, terms, param]) => [rule, param, terms] as const))(
    "when the terms have %s, then 400 validation_failed on %s",
    (_rule, param, terms) => {
      const error = thrownBy(() => validateDueDateTerms(terms));

      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ code: "validation_failed", param });
    },
  );

  test("when the due date is before today, then 400 validation_failed on due_date", () => {
    expect(thrownBy(() => validateDueDateTerms(dueDateTerms(), { today: "2026-03-11" }))).toMatchObject({
      param: "due_date",
      message: "The due date must be today or later.",
    });
  });

  test("when a prefix is given, then it comes before the field's path", () => {
    const terms = dueDateTerms({ fine: { type: "percent", value: "2" } });

    expect(thrownBy(() => validateDueDateTerms(terms, { paramPrefix: "due_date." }))).toMatchObject({
      param: "due_date.fine.value",
      message: 'A percent fine must be a string with two decimals from "0.01" to "100.00", e.g. "2.00".',
    });
  });
});
