import { isBusinessDay, nationalHolidays } from "../../src/due-dates";

/** Federal national holidays as the law fixes them, with Good Friday; written out by hand for each year. */
const expected: Record<number, string[]> = {
  2025: ["01-01", "04-18", "04-21", "05-01", "09-07", "10-12", "11-02", "11-15", "11-20", "12-25"],
  2026: ["01-01", "04-03", "04-21", "05-01", "09-07", "10-12", "11-02", "11-15", "11-20", "12-25"],
  2027: ["01-01", "03-26", "04-21", "05-01", "09-07", "10-12", "11-02", "11-15", "11-20", "12-25"],
  2028: ["01-01", "04-14", "04-21", "05-01", "09-07", "10-12", "11-02", "11-15", "11-20", "12-25"],
  2029: ["01-01", "03-30", "04-21", "05-01", "09-07", "10-12", "11-02", "11-15", "11-20", "12-25"],
  2030: ["01-01", "04-19", "04-21", "05-01", "09-07", "10-12", "11-02", "11-15", "11-20", "12-25"],
};

describe("business days (DESIGN §13: weekends and national holidays fixed by federal law)", () => {
  test.each(Object.entries(expected))(
    "in %s, the holidays are the federal ones and Good Friday, without election days or Carnival",
    (year, days) => {
      expect(nationalHolidays(Number(year))).toEqual(days.map((day) => `${year}-${day}`));
    },
  );

  test("when the year is before 2024, then 20 November is not a national holiday (Lei 14.759/2023)", () => {
    expect(nationalHolidays(2023)).not.toContain("2023-11-20");
    expect(isBusinessDay("2023-11-20")).toBe(true);
  });

  test("when a day is a weekend, a holiday or an optional day, then only the optional day is a business day", () => {
    expect(isBusinessDay("2026-03-14")).toBe(false); // Saturday
    expect(isBusinessDay("2026-03-15")).toBe(false); // Sunday
    expect(isBusinessDay("2026-04-03")).toBe(false); // Good Friday
    expect(isBusinessDay("2026-11-20")).toBe(false); // Consciência Negra, a Friday
    expect(isBusinessDay("2026-02-16")).toBe(true); // Carnival Monday
    expect(isBusinessDay("2026-02-17")).toBe(true); // Carnival Tuesday
    expect(isBusinessDay("2026-06-04")).toBe(true); // Corpus Christi
    expect(isBusinessDay("2026-03-16")).toBe(true); // an ordinary Monday
  });

  test("when the date is not a real date, then RangeError", () => {
    expect(() => isBusinessDay("2026-13-01")).toThrow(RangeError);
  });
});
