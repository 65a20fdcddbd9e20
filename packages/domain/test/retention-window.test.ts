import {
  boundTime,
  historyKeptSince,
  partitionBound,
  partitionsToDrop,
  WEEK_MS,
  WEEKS_AHEAD,
  weeksToCreate,
  weekStart,
} from "../src/retention/retention-window";
import { newId } from "../src/ids";

const events = { table: "events" as const, prefix: "evt" };
const monday = Date.UTC(2026, 10, 23);

describe('retention window (DESIGN §10 "Retention")', () => {
  test("when any instant of a week is given, then its week starts on Monday 00:00 UTC", () => {
    expect(weekStart(monday)).toBe(monday);
    expect(weekStart(Date.UTC(2026, 10, 26, 16, 30))).toBe(monday);
    expect(weekStart(Date.UTC(2026, 10, 29, 23, 59, 59, 999))).toBe(monday);
    expect(weekStart(Date.UTC(2026, 10, 30))).toBe(monday + WEEK_MS);
  });

  test("when a week's bound is made, then it is the ULID time of its Monday, as the migration writes it, and every id of the week sorts inside", () => {
    const from = partitionBound("evt", monday);
    const to = partitionBound("evt", monday + WEEK_MS);
    const first = newId("event", monday);
    const last = newId("event", monday + WEEK_MS - 1);

    expect(from).toBe("evt_01M82V7M00");
    expect(boundTime(from)).toBe(monday);
    expect([from < first, first < last, last < to]).toEqual([true, true, true]);
    expect(newId("event", monday - 1) < from).toBe(true);
  });

  test("when partitions end at the current week, then the weeks up to the fourth ahead are made, one each", () => {
    const now = new Date(monday + 3 * 86_400_000);
    const existing = [
      { name: "events_20261123", from: partitionBound("evt", monday), to: partitionBound("evt", monday + WEEK_MS) },
    ];

    const weeks = weeksToCreate(events, existing, now);

    expect(weeks.map((w) => w.name)).toEqual([
      "events_20261130",
      "events_20261207",
      "events_20261214",
      "events_20261221",
    ]);
    expect(weeks).toHaveLength(WEEKS_AHEAD);
    expect(weeks[0]?.from).toBe(existing[0]?.to);
    expect(weeksToCreate(events, [...existing, ...weeks], now)).toEqual([]);
  });

  test("when the cutoff falls inside a week, then only the weeks that end at or before it are dropped, the one before every week included", () => {
    const bound = (weeks: number) => partitionBound("evt", monday + weeks * WEEK_MS);
    const partitions = [
      { name: "events_before", from: null, to: bound(0) },
      { name: "events_20261123", from: bound(0), to: bound(1) },
      { name: "events_20261130", from: bound(1), to: bound(2) },
    ];

    const dropped = partitionsToDrop(partitions, new Date(monday + WEEK_MS + 1000));

    expect(dropped.map((p) => p.name)).toEqual(["events_before", "events_20261123"]);
  });

  test("when RETENTION_DAYS is 90, then history is kept from 90 days before now", () => {
    const now = new Date(monday);
    expect(historyKeptSince(90, now).getTime()).toBe(monday - 90 * 86_400_000);
  });
});
