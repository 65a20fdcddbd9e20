import { assertPayableOn, effectiveDueDate, isPayableOn, lastPayableDate } from "../../src/due-dates";
import { thrownBy } from "./due-date-terms.factory";

/**
 * The standard's examples of `validadeAposVencimento` (`openapi.yaml` release 2.9, `CobDataDeVencimento`), written as
 * the dates each one accepts and the first it refuses.
 */
const examples: [
  name: string,
  dueDate: string,
  daysAfterDue: number,
  moved: string,
  accepted: string[],
  refused: string,
][] = [
  [
    "A: due Tue 2020-10-20, 4 days; the 4th day is Saturday 10-24, so the last is Monday 10-26",
    "2020-10-20",
    4,
    "2020-10-20",
    ["2020-10-20", "2020-10-21", "2020-10-22", "2020-10-23", "2020-10-24", "2020-10-25", "2020-10-26"],
    "2020-10-27",
  ],
  [
    "B: due Fri 2020-12-25 (Christmas), moved to Mon 12-28, 0 days",
    "2020-12-25",
    0,
    "2020-12-28",
    ["2020-12-25", "2020-12-26", "2020-12-27", "2020-12-28"],
    "2020-12-29",
  ],
  [
    "C: due Fri 2020-12-25, moved to Mon 12-28, 1 day: Tue 12-29",
    "2020-12-25",
    1,
    "2020-12-28",
    ["2020-12-25", "2020-12-28", "2020-12-29"],
    "2020-12-30",
  ],
  [
    "D: due Fri 2020-12-25, moved to Mon 12-28, 3 days: Thu 12-31",
    "2020-12-25",
    3,
    "2020-12-28",
    ["2020-12-25", "2020-12-29", "2020-12-30", "2020-12-31"],
    "2021-01-01",
  ],
  [
    "E: due Fri 2020-12-25, moved to Mon 12-28, 4 days: Fri 2021-01-01 is a holiday, so Mon 01-04",
    "2020-12-25",
    4,
    "2020-12-28",
    ["2020-12-31", "2021-01-01", "2021-01-02", "2021-01-03", "2021-01-04"],
    "2021-01-05",
  ],
  [
    "F: due Fri 2021-08-27, 5 calendar days through the weekend: Wed 09-01",
    "2021-08-27",
    5,
    "2021-08-27",
    ["2021-08-28", "2021-08-29", "2021-09-01"],
    "2021-09-02",
  ],
  [
    "G: due Sat 2021-08-28, moved to Mon 08-30, 5 days: Sat 09-04, so Mon 09-06",
    "2021-08-28",
    5,
    "2021-08-30",
    ["2021-08-28", "2021-09-04", "2021-09-05", "2021-09-06"],
    "2021-09-07",
  ],
];

describe("the payable window (DESIGN §13; the standard's validadeAposVencimento)", () => {
  test.each(examples)("example %s", (_name, dueDate, daysAfterDue, moved, accepted, refused) => {
    const terms = { due_date: dueDate, days_after_due: daysAfterDue };

    expect(effectiveDueDate(terms)).toBe(moved);
    expect(lastPayableDate(terms)).toBe(accepted[accepted.length - 1]);
    for (const date of accepted) expect([date, isPayableOn(terms, date)]).toEqual([date, true]);
    expect(isPayableOn(terms, refused)).toBe(false);
  });

  test("when days_after_due is left out, then the window is 30 calendar days: due Tue 2026-03-10, last Thu 04-09", () => {
    expect(lastPayableDate({ due_date: "2026-03-10" })).toBe("2026-04-09");
    expect(lastPayableDate({ due_date: "2026-03-10", days_after_due: null })).toBe("2026-04-09");
  });

  test("when the due date is Sun 2026-11-15 with 0 days after due, then Mon 11-16 is the last payable date", () => {
    expect(lastPayableDate({ due_date: "2026-11-15", days_after_due: 0 })).toBe("2026-11-16");
  });

  test("when the creation date is given, then a date before it is outside the window and the day itself inside", () => {
    const terms = { due_date: "2026-03-10", days_after_due: 0 };

    expect(isPayableOn(terms, "2026-03-01", { createdOn: "2026-03-02" })).toBe(false);
    expect(isPayableOn(terms, "2026-03-02", { createdOn: "2026-03-02" })).toBe(true);
    expect(isPayableOn(terms, "2026-03-01")).toBe(true);
  });

  test("when the date is not a real date, then it is not payable", () => {
    expect(isPayableOn({ due_date: "2026-03-10" }, "2026-02-29")).toBe(false);
  });

  test("when a date is outside the window, then assertPayableOn throws 400 validation_failed on date giving the window", () => {
    const terms = { due_date: "2026-03-10", days_after_due: 2 };

    expect(() => assertPayableOn(terms, "2026-03-12", { createdOn: "2026-03-01" })).not.toThrow();
    expect(thrownBy(() => assertPayableOn(terms, "2026-03-13", { createdOn: "2026-03-01" }))).toMatchObject({
      code: "validation_failed",
      param: "date",
      message: "The charge is payable from 2026-03-01 to 2026-03-12.",
    });
    expect(thrownBy(() => assertPayableOn(terms, "2026-03-13"))).toMatchObject({
      message: "The charge is payable on or before 2026-03-12.",
    });
    expect(thrownBy(() => assertPayableOn(terms, "13/03/2026"))).toMatchObject({ param: "date" });
  });
});
