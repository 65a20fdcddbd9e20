import { amountDue } from "../../src/due-dates";
import { dueDateTerms, FINE_2_PERCENT, type GoldenCase } from "./due-date-terms.factory";

/**
 * Golden values worked out by hand, the arithmetic in each case's name, and written as literals: never recomputed by
 * the code under test. Unless a case says otherwise: R$ 1.000,00 (100000 centavos) due Tuesday 2026-03-10.
 * Days early count up to the effective due date.
 */
const tiersByDate = dueDateTerms({
  due_date: "2026-03-31",
  discount: {
    type: "percent_until",
    tiers: [
      { until: "2026-03-10", value: "10.00" },
      { until: "2026-03-20", value: "5.00" },
      { until: "2026-03-31", value: "2.50" },
    ],
  },
});

const cases: GoldenCase[] = [
  // Reduction [abatimento 1-2]
  [
    "fixed reduction R$ 10,00 [abatimento 1], paid 1 day late with a 2 % fine: 100000 + 2000 − 1000 = 101000",
    dueDateTerms({ fine: FINE_2_PERCENT, reduction: { type: "fixed", value: 1000 } }),
    "2026-03-11",
    [2000, 0, 1000, 0, 101000],
  ],
  [
    "10 % reduction [abatimento 2] of R$ 1.234,56 = 12345,6 → 12346: 123456 − 12346 = 111110",
    dueDateTerms({ original: 123456, reduction: { type: "percent", value: "10.00" } }),
    "2026-03-10",
    [0, 0, 12346, 0, 111110],
  ],
  [
    "12,5 % reduction of R$ 10,04 = 125,5 → 126 half-up: 878",
    dueDateTerms({ original: 1004, reduction: { type: "percent", value: "12.50" } }),
    "2026-03-01",
    [0, 0, 126, 0, 878],
  ],
  [
    "reduction R$ 10,00 and a tier of R$ 20,00, paid early: 100000 − 1000 − 2000 = 97000",
    dueDateTerms({
      reduction: { type: "fixed", value: 1000 },
      discount: { type: "fixed_until", tiers: [{ until: "2026-03-10", value: 2000 }] },
    }),
    "2026-03-02",
    [0, 0, 1000, 2000, 97000],
  ],

  // Discount by date [desconto 1-2], tiers' boundaries included
  [
    "tier R$ 50,00 until 03-05 [desconto 1], paid 03-05: 5000 off: 95000",
    dueDateTerms({ discount: { type: "fixed_until", tiers: [{ until: "2026-03-05", value: 5000 }] } }),
    "2026-03-05",
    [0, 0, 0, 5000, 95000],
  ],
  [
    "tier R$ 50,00 until 03-05, paid 03-06: no discount: 100000",
    dueDateTerms({ discount: { type: "fixed_until", tiers: [{ until: "2026-03-05", value: 5000 }] } }),
    "2026-03-06",
    [0, 0, 0, 0, 100000],
  ],
  [
    "tiers 10 % / 5 % / 2,5 % until 03-10 / 03-20 / 03-31 [desconto 2], paid 03-01: 10000 off",
    tiersByDate,
    "2026-03-01",
    [0, 0, 0, 10000, 90000],
  ],
  [
    "tiers 10 % / 5 % / 2,5 %, paid 03-10 (first boundary): 10000 off",
    tiersByDate,
    "2026-03-10",
    [0, 0, 0, 10000, 90000],
  ],
  ["tiers 10 % / 5 % / 2,5 %, paid 03-11: 5000 off", tiersByDate, "2026-03-11", [0, 0, 0, 5000, 95000]],
  [
    "tiers 10 % / 5 % / 2,5 %, paid 03-20 (second boundary): 5000 off",
    tiersByDate,
    "2026-03-20",
    [0, 0, 0, 5000, 95000],
  ],
  ["tiers 10 % / 5 % / 2,5 %, paid 03-21: 2500 off", tiersByDate, "2026-03-21", [0, 0, 0, 2500, 97500]],
  ["tiers 10 % / 5 % / 2,5 %, paid 03-31 (the due date): 2500 off", tiersByDate, "2026-03-31", [0, 0, 0, 2500, 97500]],
  [
    "tiers 10 % / 5 % / 2,5 %, paid 04-01 (late, no fine set): no discount",
    tiersByDate,
    "2026-04-01",
    [0, 0, 0, 0, 100000],
  ],

  // Discount per day early [desconto 3-6]
  [
    "R$ 1,00 a calendar day early [desconto 3], due Fri 03-20, paid Mon 03-16: 4 × 100 = 400",
    dueDateTerms({ due_date: "2026-03-20", discount: { type: "fixed_per_day_early", days: "calendar", value: 100 } }),
    "2026-03-16",
    [0, 0, 0, 400, 99600],
  ],
  [
    "R$ 1,00 a business day early [desconto 4], due Fri 03-20, paid Sat 03-14: 03-16 to 03-20 = 5 × 100 = 500",
    dueDateTerms({ due_date: "2026-03-20", discount: { type: "fixed_per_day_early", days: "business", value: 100 } }),
    "2026-03-14",
    [0, 0, 0, 500, 99500],
  ],
  [
    "0,05 % a calendar day early [desconto 5] on R$ 333,33, 10 days: 33333 × 0,05 % × 10 = 166,665 → 167: 33166",
    dueDateTerms({
      original: 33333,
      due_date: "2026-03-20",
      discount: { type: "percent_per_day_early", days: "calendar", value: "0.05" },
    }),
    "2026-03-10",
    [0, 0, 0, 167, 33166],
  ],
  [
    "0,10 % a business day early [desconto 6], due Thu 04-23, paid Wed 04-01: 14 business days (04-03, 04-21 out) × 100 = 1400",
    dueDateTerms({
      due_date: "2026-04-23",
      discount: { type: "percent_per_day_early", days: "business", value: "0.10" },
    }),
    "2026-04-01",
    [0, 0, 0, 1400, 98600],
  ],
  [
    "R$ 1,00 a calendar day early, paid on the due date: 0 days, no discount",
    dueDateTerms({ discount: { type: "fixed_per_day_early", days: "calendar", value: 100 } }),
    "2026-03-10",
    [0, 0, 0, 0, 100000],
  ],

  // Totals that would go below zero: the discount is trimmed, the total is zero
  [
    "R$ 100,00, 60 % reduction = 6000 and a 50 % tier = 5000: −1000, so discount 4000, total 0",
    dueDateTerms({
      original: 10000,
      reduction: { type: "percent", value: "60.00" },
      discount: { type: "percent_until", tiers: [{ until: "2026-03-10", value: "50.00" }] },
    }),
    "2026-03-09",
    [0, 0, 6000, 4000, 0],
  ],
  [
    "R$ 100,00, R$ 99,99 a calendar day early, 2 days: 19998 > 10000, so discount 10000, total 0",
    dueDateTerms({ original: 10000, discount: { type: "fixed_per_day_early", days: "calendar", value: 9999 } }),
    "2026-03-08",
    [0, 0, 0, 10000, 0],
  ],
];

describe("amountDue: reduction [abatimento] and discounts [desconto] (DESIGN §13 money math)", () => {
  test.each(cases)("%s", (_name, terms, paidOn, [fine, interest, reduction, discount, total]) => {
    expect(amountDue(terms, paidOn)).toEqual({ original: terms.original, fine, interest, reduction, discount, total });
  });
});
