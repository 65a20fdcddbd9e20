import fc from "fast-check";
import {
  addMonths,
  attemptAt,
  cycleDueDate,
  cycleDueDateWithin,
  cycleSendAt,
  firstCycleFrom,
  isInCycleWindow,
  lastDebitDate,
  maxAttempts,
} from "../../src/recurrences/cycle-dates";

describe("a recurrence's cycle due dates", () => {
  test.each([
    // start, interval, index, due
    ["2027-01-15", "monthly", 0, "2027-01-15"],
    ["2027-01-15", "monthly", 1, "2027-02-15"],
    ["2027-01-15", "monthly", 12, "2028-01-15"],
    ["2027-01-31", "monthly", 1, "2027-02-28"],
    ["2027-01-31", "monthly", 2, "2027-03-31"],
    ["2027-01-31", "monthly", 3, "2027-04-30"],
    ["2028-01-31", "monthly", 1, "2028-02-29"],
    ["2027-03-30", "monthly", 11, "2028-02-29"],
    ["2027-12-15", "monthly", 1, "2028-01-15"],
    ["2027-11-30", "quarterly", 1, "2028-02-29"],
    ["2027-11-30", "quarterly", 2, "2028-05-30"],
    ["2027-08-31", "semiannual", 1, "2028-02-29"],
    ["2027-08-31", "semiannual", 2, "2028-08-31"],
    ["2028-02-29", "annual", 1, "2029-02-28"],
    ["2028-02-29", "annual", 4, "2032-02-29"],
    ["2027-01-01", "weekly", 0, "2027-01-01"],
    ["2027-01-01", "weekly", 1, "2027-01-08"],
    ["2027-12-28", "weekly", 1, "2028-01-04"],
    ["2028-02-26", "weekly", 1, "2028-03-04"],
    ["2027-01-01", "weekly", 52, "2027-12-31"],
  ] as const)("when it starts on %s and is %s, then cycle %i is due on %s", (start, interval, index, due) => {
    expect(cycleDueDate(start, interval, index)).toBe(due);
  });

  test("when the cycle falls after the end date, then it has none; on the end date, it has it", () => {
    const recurrence = { start_date: "2027-01-10", end_date: "2027-03-10", interval: "monthly" as const };

    expect(cycleDueDateWithin(recurrence, 2)).toBe("2027-03-10");
    expect(cycleDueDateWithin(recurrence, 3)).toBeNull();
    expect(cycleDueDateWithin({ ...recurrence, end_date: null }, 30)).toBe("2029-07-10");
  });

  test("when approval comes after some due dates, then the first cycle charged is the first due on or after it", () => {
    expect(firstCycleFrom("2027-01-10", "monthly", "2027-01-10")).toBe(0);
    expect(firstCycleFrom("2027-01-10", "monthly", "2027-01-11")).toBe(1);
    expect(firstCycleFrom("2027-01-10", "weekly", "2027-02-01")).toBe(4);
  });
});

describe("when a cycle is sent and debited", () => {
  test("when the amount is fixed, then its charge is sent RECURRENCE_LEAD_DAYS before the due date, at the start of the day in São Paulo", () => {
    expect(cycleSendAt("2027-03-10", false, 5).toISOString()).toBe("2027-03-05T03:00:00.000Z");
    expect(cycleSendAt("2027-03-10", false, 10).toISOString()).toBe("2027-02-28T03:00:00.000Z");
  });

  test("when the amount is variable, then the engine sends it at the window's close, 2 days before", () => {
    expect(cycleSendAt("2027-03-10", true, 5).toISOString()).toBe("2027-03-08T03:00:00.000Z");
  });

  test.each([
    ["2027-03-10", "2027-02-28", true],
    ["2027-03-10", "2027-02-27", false],
    ["2027-03-10", "2027-03-08", true],
    ["2027-03-10", "2027-03-09", false],
  ])("when the cycle is due %s and today is %s, then the window is open: %s", (due, today, open) => {
    expect(isInCycleWindow(due, today)).toBe(open);
  });

  test("when retries are allowed, then the bank tries on the due date and 1, 3 and 5 days after, at noon, within 7 days", () => {
    expect(maxAttempts("three_in_seven_days")).toBe(4);
    expect([0, 1, 2, 3].map((attempt) => attemptAt("2027-03-10", attempt).toISOString())).toEqual([
      "2027-03-10T15:00:00.000Z",
      "2027-03-11T15:00:00.000Z",
      "2027-03-13T15:00:00.000Z",
      "2027-03-15T15:00:00.000Z",
    ]);
    expect(lastDebitDate("2027-03-10", "three_in_seven_days")).toBe("2027-03-17");
    expect(() => attemptAt("2027-03-10", 4)).toThrow(RangeError);
  });

  test("when retries are not allowed, then the bank tries once, on the due date", () => {
    expect(maxAttempts("none")).toBe(1);
    expect(lastDebitDate("2027-03-10", "none")).toBe("2027-03-10");
  });
});

/** A real date of the years 1990 to 2100. */
const isoDate = fc
  .date({ min: new Date("1990-01-01T00:00:00Z"), max: new Date("2100-12-31T00:00:00Z"), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));
const monthly = fc.constantFrom("monthly" as const, "quarterly" as const, "semiannual" as const, "annual" as const);
const MONTHS = { monthly: 1, quarterly: 3, semiannual: 6, annual: 12 } as const;

describe("cycle due dates, for any start", () => {
  test("when cycles follow each other, then they are strictly later, in the right month, on the start's day or the month's last", () => {
    fc.assert(
      fc.property(isoDate, monthly, fc.integer({ min: 0, max: 240 }), (start, interval, index) => {
        const due = cycleDueDate(start, interval, index);
        const next = cycleDueDate(start, interval, index + 1);
        expect(next > due).toBe(true);
        const [y, m, d] = due.split("-").map(Number) as [number, number, number];
        const [sy, sm, sd] = start.split("-").map(Number) as [number, number, number];
        expect(y * 12 + m - (sy * 12 + sm)).toBe(MONTHS[interval] * index);
        const lastOfMonth = new Date(Date.UTC(y, m, 0)).getUTCDate();
        expect(d).toBe(Math.min(sd, lastOfMonth));
      }),
    );
  });

  test("when a monthly date is moved and moved back, then only a clamped day is lost", () => {
    fc.assert(
      fc.property(isoDate, fc.integer({ min: -600, max: 600 }), (date, months) => {
        const moved = addMonths(date, months);
        const back = addMonths(moved, -months);
        expect(back <= date).toBe(true);
        if (Number(date.slice(8)) <= 28) expect(back).toBe(date);
      }),
    );
  });

  test("when cycles are weekly, then each is 7 days after the one before", () => {
    fc.assert(
      fc.property(isoDate, fc.integer({ min: 0, max: 520 }), (start, index) => {
        const gap =
          Date.parse(cycleDueDate(start, "weekly", index + 1)) - Date.parse(cycleDueDate(start, "weekly", index));
        expect(gap).toBe(7 * 86_400_000);
      }),
    );
  });

  test("when the engine sends a cycle, then it is inside the window the rules allow", () => {
    fc.assert(
      fc.property(isoDate, fc.integer({ min: 2, max: 10 }), fc.boolean(), (due, lead, variable) => {
        const sentOn = new Date(cycleSendAt(due, variable, lead).getTime() - 3 * 3_600_000).toISOString().slice(0, 10);
        expect(isInCycleWindow(due, sentOn)).toBe(true);
      }),
    );
  });
});
