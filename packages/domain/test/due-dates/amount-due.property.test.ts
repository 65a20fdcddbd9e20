import fc from "fast-check";
import {
  amountDue,
  effectiveDueDate,
  type Discount,
  type DueDateTerms,
  type Fine,
  type Interest,
  type Reduction,
} from "../../src/due-dates";

const MAX_CENTAVOS = 999_999_999_999;

/** `date` moved by `days` calendar days, both `YYYY-MM-DD`. */
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

const percent = (max: number) =>
  fc
    .integer({ min: 1, max })
    .map((hundredths) => `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, "0")}`);
const dayCount = fc.constantFrom("calendar" as const, "business" as const);
const centavos = (max: number) =>
  fc.oneof(fc.integer({ min: 1, max: Math.min(max, 100_000) }), fc.integer({ min: 1, max }));

const fine: fc.Arbitrary<Fine> = fc.oneof(
  centavos(MAX_CENTAVOS).map((value) => ({ type: "fixed" as const, value })),
  percent(10_000).map((value) => ({ type: "percent" as const, value })),
);

const interest: fc.Arbitrary<Interest> = fc.oneof(
  fc.record({ type: fc.constant("fixed_per_day" as const), days: dayCount, value: centavos(MAX_CENTAVOS) }),
  fc.record({
    type: fc.constantFrom("percent_per_day" as const, "percent_per_month" as const, "percent_per_year" as const),
    days: dayCount,
    value: percent(10_000),
  }),
);

/** A reduction the standard accepts for `original`: less than it and less than 100 %. */
const reduction = (original: number): fc.Arbitrary<Reduction> => {
  const percentOff = percent(9_999).map((value) => ({ type: "percent" as const, value }));
  if (original < 2) return percentOff;
  return fc.oneof(
    centavos(original - 1).map((value) => ({ type: "fixed" as const, value })),
    percentOff,
  );
};

/** 1 to 3 tiers with increasing dates from 60 days before `dueDate` to `dueDate`, each with a value from `value`. */
const tiers = <V>(dueDate: string, value: fc.Arbitrary<V>) =>
  fc
    .uniqueArray(fc.record({ offset: fc.integer({ min: 0, max: 60 }), value }), {
      minLength: 1,
      maxLength: 3,
      selector: (tier) => tier.offset,
    })
    .map((list) =>
      list
        .sort((a, b) => b.offset - a.offset)
        .map((tier) => ({ until: addDays(dueDate, -tier.offset), value: tier.value })),
    );

/** A discount the standard accepts for `original` due on `dueDate`: tiers on or before it, or per day early. */
const discount = (original: number, dueDate: string): fc.Arbitrary<Discount> => {
  const byPercent: fc.Arbitrary<Discount>[] = [
    tiers(dueDate, percent(9_999)).map((list) => ({ type: "percent_until" as const, tiers: list })),
    fc.record({ type: fc.constant("percent_per_day_early" as const), days: dayCount, value: percent(9_999) }),
  ];
  if (original < 2) return fc.oneof(...byPercent);
  return fc.oneof(
    ...byPercent,
    tiers(dueDate, centavos(original - 1)).map((list) => ({ type: "fixed_until" as const, tiers: list })),
    fc.record({ type: fc.constant("fixed_per_day_early" as const), days: dayCount, value: centavos(original - 1) }),
  );
};

/** Valid terms due from 2025 to 2030, every rule present or not (absent as undefined or null). */
const terms: fc.Arbitrary<DueDateTerms> = fc
  .record({
    original: fc.oneof(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: MAX_CENTAVOS })),
    due_date: fc.integer({ min: 0, max: 6 * 365 }).map((offset) => addDays("2025-01-01", offset)),
    days_after_due: fc.option(fc.integer({ min: 0, max: 365 }), { nil: undefined }),
  })
  .chain((base) =>
    fc
      .record({
        fine: fc.option(fine, { nil: null }),
        interest: fc.option(interest, { nil: undefined }),
        reduction: fc.option(reduction(base.original), { nil: null }),
        discount: fc.option(discount(base.original, base.due_date), { nil: undefined }),
      })
      .map((rules) => ({ ...base, ...rules })),
  );

/** Terms and a payment date from 90 days before the due date to 15 days after the window. */
const termsAndDate = terms.chain((t) =>
  fc
    .integer({ min: -90, max: (t.days_after_due ?? 30) + 20 })
    .map((offset) => [t, addDays(t.due_date, offset)] as const),
);

const RUNS = { numRuns: 2000 };

describe("amountDue properties (DESIGN §13 money math)", () => {
  test("for any valid terms and date, every part is a non-negative integer and the total is never below zero", () => {
    fc.assert(
      fc.property(termsAndDate, ([t, date]) => {
        const due = amountDue(t, date);
        for (const part of Object.values(due)) expect(Number.isSafeInteger(part) && part >= 0).toBe(true);
        expect(due.original).toBe(t.original);
      }),
      RUNS,
    );
  });

  test("for any valid terms and date, the signed parts summed in any order give the total", () => {
    const order = fc.shuffledSubarray([0, 1, 2, 3, 4], { minLength: 5, maxLength: 5 });
    fc.assert(
      fc.property(termsAndDate, order, ([t, date], permutation) => {
        const due = amountDue(t, date);
        const signed = [due.original, due.fine, due.interest, -due.reduction, -due.discount];
        const total = permutation.reduce((sum, i) => sum + (signed[i] ?? Number.NaN), 0);
        expect(total).toBe(due.total);
      }),
      RUNS,
    );
  });

  test("when paid on or before the effective due date, then no fine and no interest; after it, no discount", () => {
    fc.assert(
      fc.property(termsAndDate, ([t, date]) => {
        const due = amountDue(t, date);
        if (date <= effectiveDueDate(t)) expect([due.fine, due.interest]).toEqual([0, 0]);
        else expect(due.discount).toBe(0);
      }),
      RUNS,
    );
  });

  test("when paid later after the due date, then the total never goes down", () => {
    fc.assert(
      fc.property(terms, fc.integer({ min: 1, max: 400 }), fc.integer({ min: 0, max: 400 }), (t, after, more) => {
        const first = addDays(effectiveDueDate(t), after);
        expect(amountDue(t, addDays(first, more)).total).toBeGreaterThanOrEqual(amountDue(t, first).total);
      }),
      RUNS,
    );
  });
});
