/**
 * What retention keeps and when it may drop a week (DESIGN §10 "Retention"), as pure functions of the clock: the
 * instant before which history is gone, the weekly partitions' names and id bounds, which weeks to make ahead and
 * which to drop. Ids are `<prefix>_<ULID>` (DESIGN §2) and a ULID starts with its creation time, so a week's bounds
 * are `<prefix>_<the 10 base-32 characters of its Monday 00:00 UTC>`, as migration 20261126190000 made the first ones.
 */
import { decodeTime, encodeTime } from "ulid";
import type { HistoryPartition, HistoryTable } from "@lm/db";

/** One day, ms. */
const DAY_MS = 24 * 60 * 60 * 1000;
/** One week, ms: the span of a history partition. */
export const WEEK_MS = 7 * DAY_MS;
/** Weeks made ahead of the current one, so an insert always finds its week while the job does not run for a month. */
export const WEEKS_AHEAD = 4;
/** How long the short-lived panel rows (sessions, challenges, mailed tokens, trusted devices) stay after they end. */
export const ENDED_ROWS_KEPT_MS = 30 * DAY_MS;

/** The partitioned history tables and the id prefix of their rows. */
export const HISTORY_TABLES: ReadonlyArray<{ table: HistoryTable; prefix: string }> = [
  { table: "events", prefix: "evt" },
  { table: "webhook_deliveries", prefix: "whd" },
  { table: "inbox_items", prefix: "inb" },
];

/**
 * The oldest creation time still kept: events, deliveries and inbox items created before it are gone (an event then
 * answers 404 and cannot be resent).
 * @param retentionDays - `RETENTION_DAYS` (at least 30)
 */
export function historyKeptSince(retentionDays: number, now: Date): Date {
  return new Date(now.getTime() - retentionDays * DAY_MS);
}

/** Monday 00:00 UTC of the week of `ms` (ms since the epoch), in ms. */
export function weekStart(ms: number): number {
  const day = Math.floor(ms / DAY_MS);
  // 1970-01-01 was a Thursday: day 0 is 3 days after a Monday.
  return (day - ((day + 3) % 7)) * DAY_MS;
}

/** The partition bound of instant `ms` for ids of `prefix`: `evt_01M82V7M00`. */
export function partitionBound(prefix: string, ms: number): string {
  return `${prefix}_${encodeTime(ms, 10)}`;
}

/** The instant, in ms, of a bound made by {@link partitionBound}. */
export function boundTime(bound: string): number {
  return decodeTime(`${bound.slice(bound.indexOf("_") + 1)}${"0".repeat(16)}`);
}

/**
 * The partitions to make so that `table` has weeks up to and including the {@link WEEKS_AHEAD}th week after `now`'s:
 * from the end of the newest existing partition (or `now`'s week when there is none) on, one week each.
 */
export function weeksToCreate(
  table: { table: HistoryTable; prefix: string },
  existing: HistoryPartition[],
  now: Date,
): HistoryPartition[] {
  const ends = existing.flatMap(({ to }) => (to === null ? [] : [boundTime(to)]));
  const until = weekStart(now.getTime()) + (WEEKS_AHEAD + 1) * WEEK_MS;
  const weeks: HistoryPartition[] = [];
  for (let start = ends.length > 0 ? Math.max(...ends) : weekStart(now.getTime()); start < until; start += WEEK_MS) {
    const name = `${table.table}_${new Date(start).toISOString().slice(0, 10).replaceAll("-", "")}`;
    weeks.push({ name, from: partitionBound(table.prefix, start), to: partitionBound(table.prefix, start + WEEK_MS) });
  }
  return weeks;
}

/** The partitions among `existing` whose every id was made before `cutoff`: their upper bound is at or before it. */
export function partitionsToDrop(existing: HistoryPartition[], cutoff: Date): HistoryPartition[] {
  return existing.filter(({ to }) => to !== null && boundTime(to) <= cutoff.getTime());
}
