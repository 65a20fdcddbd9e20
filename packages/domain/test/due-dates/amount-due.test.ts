import { amountDue } from "../../src/due-dates";
import { dueDateTerms, FINE_2_PERCENT, thrownBy, type GoldenCase } from "./due-date-terms.factory";

/**
 * Golden values worked out by hand, the arithmetic in each case's name, and written as literals: never recomputed by
 * the code under test. Unless a case says otherwise: R$ 1.000,00 (100000 centavos) due Tuesday 2026-03-10.
 * Lateness counts from the effective due date; from Tuesday 2026-03-10 to Friday 03-20 is 10 calendar days and 8
 * business days (11, 12, 13, 16, 17, 18, 19, 20).
 */
const cases: GoldenCase[] = [
  // Fine [multa 1-2]
  [
    "fixed fine R$ 5,00 on R$ 200,00, paid 1 day late: 20000 + 500 = 20500",
    dueDateTerms({ original: 20000, fine: { type: "fixed", value: 500 } }),
    "2026-03-11",
    [500, 0, 0, 0, 20500],
  ],
  [
    "2 % fine on R$ 250,00 = 500, paid 10 days late without interest: 25500",
    dueDateTerms({ original: 25000, fine: FINE_2_PERCENT }),
    "2026-03-20",
    [500, 0, 0, 0, 25500],
  ],
  [
    "2.28 % fine on R$ 12,50 = 28,5 centavos → 29 half-up (floating point gives 28): 1279",
    dueDateTerms({ original: 1250, fine: { type: "percent", value: "2.28" } }),
    "2026-03-11",
    [29, 0, 0, 0, 1279],
  ],
  [
    "1 % fine on R$ 2,50 = 2,5 centavos → 3 half-up (half-even would give 2): 253",
    dueDateTerms({ original: 250, fine: { type: "percent", value: "1.00" } }),
    "2026-03-11",
    [3, 0, 0, 0, 253],
  ],
  [
    "2 % fine, paid on the due date itself: no fine, 100000",
    dueDateTerms({ fine: FINE_2_PERCENT }),
    "2026-03-10",
    [0, 0, 0, 0, 100000],
  ],

  // Interest [juros 1-8], paid Friday 2026-03-20 unless said: 10 calendar days, 8 business days
  [
    "R$ 0,50 a calendar day [juros 1] × 10 days = 500: 100500",
    dueDateTerms({ interest: { type: "fixed_per_day", days: "calendar", value: 50 } }),
    "2026-03-20",
    [0, 500, 0, 0, 100500],
  ],
  [
    "R$ 0,50 a business day [juros 5] × 8 days = 400: 100400",
    dueDateTerms({ interest: { type: "fixed_per_day", days: "business", value: 50 } }),
    "2026-03-20",
    [0, 400, 0, 0, 100400],
  ],
  [
    "0,10 % a calendar day [juros 2] = 100 × 10 days = 1000: 101000",
    dueDateTerms({ interest: { type: "percent_per_day", days: "calendar", value: "0.10" } }),
    "2026-03-20",
    [0, 1000, 0, 0, 101000],
  ],
  [
    "0,10 % a business day [juros 6] = 100 × 8 days = 800: 100800",
    dueDateTerms({ interest: { type: "percent_per_day", days: "business", value: "0.10" } }),
    "2026-03-20",
    [0, 800, 0, 0, 100800],
  ],
  [
    "R$ 250,00, 3 % fine = 750; 5 calendar days at 1 % a month [juros 3]: 25000 × 1 % × 5 / 30 = 41,67 → 42: 25792",
    dueDateTerms({
      original: 25000,
      fine: { type: "percent", value: "3.00" },
      interest: { type: "percent_per_month", days: "calendar", value: "1.00" },
    }),
    "2026-03-15",
    [750, 42, 0, 0, 25792],
  ],
  [
    "2 % a month in business days [juros 7]: 100000 × 2 % × 8 / 21 = 761,90 → 762: 100762",
    dueDateTerms({ interest: { type: "percent_per_month", days: "business", value: "2.00" } }),
    "2026-03-20",
    [0, 762, 0, 0, 100762],
  ],
  [
    "12 % a year in calendar days [juros 4]: 100000 × 12 % × 10 / 365 = 328,77 → 329: 100329",
    dueDateTerms({ interest: { type: "percent_per_year", days: "calendar", value: "12.00" } }),
    "2026-03-20",
    [0, 329, 0, 0, 100329],
  ],
  [
    "12 % a year in business days [juros 8]: 100000 × 12 % × 8 / 252 = 380,95 → 381: 100381",
    dueDateTerms({ interest: { type: "percent_per_year", days: "business", value: "12.00" } }),
    "2026-03-20",
    [0, 381, 0, 0, 100381],
  ],
  [
    "due Wed 04-01, paid Tue 04-07, R$ 1,00 a business day: 04-02, 04-06, 04-07 (Good Friday and a weekend out) = 300",
    dueDateTerms({ due_date: "2026-04-01", interest: { type: "fixed_per_day", days: "business", value: 100 } }),
    "2026-04-07",
    [0, 300, 0, 0, 100300],
  ],
  [
    "due Mon 04-20, paid Thu 04-23, 1 % a business day: 04-22, 04-23 (Tiradentes out) = 2 × 1000 = 2000",
    dueDateTerms({ due_date: "2026-04-20", interest: { type: "percent_per_day", days: "business", value: "1.00" } }),
    "2026-04-23",
    [0, 2000, 0, 0, 102000],
  ],
  [
    "due Fri 03-13, paid Sat 03-14: 2 % fine = 2000, 0,10 % a business day × 0 business days = 0: 102000",
    dueDateTerms({
      due_date: "2026-03-13",
      fine: FINE_2_PERCENT,
      interest: { type: "percent_per_day", days: "business", value: "0.10" },
    }),
    "2026-03-14",
    [2000, 0, 0, 0, 102000],
  ],
  [
    "due Fri 03-13, paid Sat 03-14: 2 % fine = 2000, 0,10 % a calendar day × 1 day = 100: 102100",
    dueDateTerms({
      due_date: "2026-03-13",
      fine: FINE_2_PERCENT,
      interest: { type: "percent_per_day", days: "calendar", value: "0.10" },
    }),
    "2026-03-14",
    [2000, 100, 0, 0, 102100],
  ],
  [
    "R$ 50,00 at 0,01 % a day × 1 day = 0,5 centavo → 1 half-up: 5001",
    dueDateTerms({ original: 5000, interest: { type: "percent_per_day", days: "calendar", value: "0.01" } }),
    "2026-03-11",
    [0, 1, 0, 0, 5001],
  ],
  [
    "R$ 49,99 at 0,01 % a day × 1 day = 0,4999 centavo → 0: 4999",
    dueDateTerms({ original: 4999, interest: { type: "percent_per_day", days: "calendar", value: "0.01" } }),
    "2026-03-11",
    [0, 0, 0, 0, 4999],
  ],
  [
    "R$ 10,00 at 0,05 % a day × 10 days = 5,0 centavos → 5, rounded once (each day's 0,5 rounded would give 10)",
    dueDateTerms({ original: 1000, interest: { type: "percent_per_day", days: "calendar", value: "0.05" } }),
    "2026-03-20",
    [0, 5, 0, 0, 1005],
  ],
];

describe("amountDue after the due date: fine [multa] and interest [juros] (DESIGN §13 money math)", () => {
  test("the standard's worked example (Pix.componentesValor): R$ 100,00, 2 days late, 3 % fine and 1 % a day: multa 3,00, juros 2,00, R$ 105,00", () => {
    const terms = dueDateTerms({
      original: 10000,
      fine: { type: "percent", value: "3.00" },
      interest: { type: "percent_per_day", days: "calendar", value: "1.00" },
    });

    const due = amountDue(terms, "2026-03-12");

    expect(due).toEqual({ original: 10000, fine: 300, interest: 200, reduction: 0, discount: 0, total: 10500 });
  });

  test.each(cases)("%s", (_name, terms, paidOn, [fine, interest, reduction, discount, total]) => {
    expect(amountDue(terms, paidOn)).toEqual({ original: terms.original, fine, interest, reduction, discount, total });
  });

  // Paid 03-10, 03-11, Sat 03-14, Mon 03-16, 04-06 (after Good Friday 04-03) and 04-09: 0, 1, 3, 4, 18 and 21 business
  // days late; 100000 × 1 % × n / 21 = 0; 47,62 → 48; 142,86 → 143; 190,48 → 190; 857,14 → 857; 1000.
  test("1 % a month in business days, paid later and later: 2 % fine 2000 and interest 0, 48, 143, 190, 857, 1000", () => {
    const terms = dueDateTerms({
      fine: FINE_2_PERCENT,
      interest: { type: "percent_per_month", days: "business", value: "1.00" },
    });

    const totals = ["2026-03-10", "2026-03-11", "2026-03-14", "2026-03-16", "2026-04-06", "2026-04-09"].map(
      (date) => amountDue(terms, date).total,
    );

    expect(totals).toEqual([100000, 102048, 102143, 102190, 102857, 103000]);
  });

  test("when the payment date is not a real YYYY-MM-DD date, then 400 validation_failed on date", () => {
    for (const bad of ["2026-02-30", "10/03/2026", "2026-3-10", ""]) {
      expect(thrownBy(() => amountDue(dueDateTerms(), bad))).toMatchObject({
        code: "validation_failed",
        param: "date",
      });
    }
  });

  test("when the terms break a rule, then 400 validation_failed naming the term", () => {
    const terms = dueDateTerms({ fine: { type: "percent", value: "2" } });

    expect(thrownBy(() => amountDue(terms, "2026-03-11"))).toMatchObject({
      code: "validation_failed",
      param: "fine.value",
    });
  });
});
