import { amountDue, type DueDateTerms } from "../../src/due-dates";
import { dueDateTerms, FINE_2_PERCENT, type GoldenCase } from "./due-date-terms.factory";

/**
 * Golden values worked out by hand, the arithmetic in each case's name, and written as literals: never recomputed by
 * the code under test. Unless a case says otherwise: R$ 1.000,00 (100000 centavos) due Tuesday 2026-03-10.
 * A due date on a weekend or a national holiday moves to the next business day, and lateness, days early and a tier
 * dated on the due date move with it. 2026 holidays used: Good Friday 04-03, 11-15 (a Sunday), 11-20, 12-25;
 * 2027-01-01.
 */
const christmas = (terms: Partial<DueDateTerms> = {}) =>
  dueDateTerms({
    due_date: "2026-12-25",
    discount: { type: "fixed_until", tiers: [{ until: "2026-12-25", value: 1000 }] },
    ...terms,
  });

const cases: GoldenCase[] = [
  [
    "due Sun 2026-11-15 (a holiday), moved to Mon 11-16; paid 11-16: on time, no fine nor interest",
    dueDateTerms({
      due_date: "2026-11-15",
      fine: FINE_2_PERCENT,
      interest: { type: "percent_per_day", days: "calendar", value: "0.10" },
    }),
    "2026-11-16",
    [0, 0, 0, 0, 100000],
  ],
  [
    "due Sun 2026-11-15, paid Tue 11-17: 1 day late from Monday: 2 % fine 2000 + 0,10 % × 1 = 100: 102100",
    dueDateTerms({
      due_date: "2026-11-15",
      fine: FINE_2_PERCENT,
      interest: { type: "percent_per_day", days: "calendar", value: "0.10" },
    }),
    "2026-11-17",
    [2000, 100, 0, 0, 102100],
  ],
  [
    "due Fri 2026-11-20 (a holiday since 2024), moved to Mon 11-23; paid 11-23: on time, no fine",
    dueDateTerms({ due_date: "2026-11-20", fine: FINE_2_PERCENT }),
    "2026-11-23",
    [0, 0, 0, 0, 100000],
  ],
  [
    "due Good Friday 2026-04-03, moved to Mon 04-06; paid 04-06: on time, no fine",
    dueDateTerms({ due_date: "2026-04-03", fine: FINE_2_PERCENT }),
    "2026-04-06",
    [0, 0, 0, 0, 100000],
  ],
  [
    "due Fri 2026-12-25, moved to Mon 12-28; tier R$ 10,00 dated 12-25, paid Sat 12-26: 1000 off: 99000",
    christmas(),
    "2026-12-26",
    [0, 0, 0, 1000, 99000],
  ],
  [
    "due Fri 2026-12-25; the tier dated on the due date moves with it: paid Mon 12-28, 1000 off: 99000",
    christmas(),
    "2026-12-28",
    [0, 0, 0, 1000, 99000],
  ],
  [
    "due Fri 2026-12-25, paid Tue 12-29: fine R$ 5,00 + R$ 0,10 a business day × 1 = 10, no discount: 100510",
    christmas({
      fine: { type: "fixed", value: 500 },
      interest: { type: "fixed_per_day", days: "business", value: 10 },
    }),
    "2026-12-29",
    [500, 10, 0, 0, 100510],
  ],
  [
    "due Fri 2026-12-25, paid Mon 2027-01-04, R$ 0,10 a business day: 12-29, 12-30, 12-31, 01-04 (01-01 out) = 40",
    dueDateTerms({ due_date: "2026-12-25", interest: { type: "fixed_per_day", days: "business", value: 10 } }),
    "2027-01-04",
    [0, 40, 0, 0, 100040],
  ],
  [
    "due Fri 2026-12-25, paid Mon 2027-01-04, R$ 0,10 a calendar day from Mon 12-28: 7 days = 70",
    dueDateTerms({ due_date: "2026-12-25", interest: { type: "fixed_per_day", days: "calendar", value: 10 } }),
    "2027-01-04",
    [0, 70, 0, 0, 100070],
  ],
  [
    "due Sat 03-14, moved to Mon 03-16; paid Thu 03-12 at 0,10 % a calendar day early: 4 days × 100 = 400",
    dueDateTerms({
      due_date: "2026-03-14",
      discount: { type: "percent_per_day_early", days: "calendar", value: "0.10" },
    }),
    "2026-03-12",
    [0, 0, 0, 400, 99600],
  ],
  [
    "due Sat 03-14, moved to Mon 03-16; paid Thu 03-12 at 0,10 % a business day early: 03-13, 03-16 = 200",
    dueDateTerms({
      due_date: "2026-03-14",
      discount: { type: "percent_per_day_early", days: "business", value: "0.10" },
    }),
    "2026-03-12",
    [0, 0, 0, 200, 99800],
  ],
];

describe("amountDue when the due date falls on a weekend or a holiday (DESIGN §13; CobDataDeVencimento)", () => {
  test.each(cases)("%s", (_name, terms, paidOn, [fine, interest, reduction, discount, total]) => {
    expect(amountDue(terms, paidOn)).toEqual({ original: terms.original, fine, interest, reduction, discount, total });
  });
});
