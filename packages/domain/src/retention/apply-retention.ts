/**
 * Use case: apply retention now (DESIGN §10 "Retention"), as the worker's hourly `retention` job and the operators'
 * `retention:run` do. Per history table (events, webhook deliveries, inbox items, partitioned by week of id) it makes
 * the weeks ahead first, then drops every week past retention whole, so its cost is a few catalog changes and one
 * count per dropped week, whatever the table holds. Then it deletes, in batches through their `expires_at` indexes,
 * the idempotency keys past their 24 h and the sessions, 2FA challenges, mailed tokens and trusted devices 30 days
 * after they ended. Balance transactions, charges, reusable QR codes (which name the charges of their payments),
 * refunds and withdrawals are never touched.
 */
import type { EndedRowsTable, HistoryTable } from "@lm/db";
import type { UseCaseDeps } from "../deps";
import {
  ENDED_ROWS_KEPT_MS,
  HISTORY_TABLES,
  historyKeptSince,
  partitionsToDrop,
  weeksToCreate,
} from "./retention-window";

/** Tables retention removes rows from. */
export type RetentionTable = HistoryTable | "idempotency_keys" | EndedRowsTable;

/** What one run did. */
export interface RetentionReport {
  /** Rows removed per table, every table named (0 when none). */
  removed: Record<RetentionTable, number>;
  /** Partitions made ahead, `lm_partitions.<name>`. */
  partitionsCreated: string[];
  /** Partitions dropped. */
  partitionsDropped: string[];
}

/**
 * Rows per batched delete: about 0.2 s each (bench/scale/retention.ts: 26,000 expired idempotency keys a second), so
 * an hour of keys at the API's peak (1,000 a second) takes the hourly run about 2.5 minutes.
 */
const DELETE_BATCH = 5_000;

/** The short-lived tables, deleted 30 days after `expires_at`. */
const ENDED_ROWS_TABLES: readonly EndedRowsTable[] = [
  "sessions",
  "two_factor_challenges",
  "mailed_tokens",
  "trusted_devices",
];

/**
 * Applies retention as of `now`. An event's week is kept past RETENTION_DAYS for as long as the longest delivery
 * chain lasts (the retry schedule's sum), so that a chain started on the event's last day (a resend) never finds it
 * gone; the API already answers 404 for it from RETENTION_DAYS on.
 * @returns rows removed per table and partitions made and dropped
 * @throws the driver's error, such as a `lock_timeout` on a busy table: what was done stays done, the next run goes on
 */
export async function applyRetention(deps: Pick<UseCaseDeps, "repos" | "config">, now: Date): Promise<RetentionReport> {
  const { repos, config } = deps;
  const keptSince = historyKeptSince(config.retentionDays, now);
  const chainMs = config.retryScheduleSeconds.reduce((sum, seconds) => sum + seconds * 1000, 0);
  const report: RetentionReport = { removed: emptyCounts(), partitionsCreated: [], partitionsDropped: [] };

  for (const history of HISTORY_TABLES) {
    const existing = await repos.retention.listHistoryPartitions(history.table);
    for (const week of weeksToCreate(history, existing, now)) {
      if (await repos.retention.createHistoryPartition(history.table, week)) report.partitionsCreated.push(week.name);
    }
    const cutoff = history.table === "events" ? new Date(keptSince.getTime() - chainMs) : keptSince;
    for (const old of partitionsToDrop(await repos.retention.listHistoryPartitions(history.table), cutoff)) {
      const rows = await repos.retention.dropHistoryPartition(history.table, old.name);
      if (rows === null) continue;
      report.removed[history.table] += rows;
      report.partitionsDropped.push(old.name);
    }
  }

  report.removed.idempotency_keys = await inBatches((limit) =>
    repos.idempotencyKeys.purgeExpiredIdempotencyKeyRows(now, limit),
  );
  const endedBy = new Date(now.getTime() - ENDED_ROWS_KEPT_MS);
  for (const table of ENDED_ROWS_TABLES) {
    report.removed[table] = await inBatches((limit) => repos.retention.deleteEndedRows(table, endedBy, limit));
  }
  return report;
}

/** Runs `deleteBatch` until a batch deletes fewer than {@link DELETE_BATCH} rows; returns the rows deleted. */
async function inBatches(deleteBatch: (limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch(DELETE_BATCH);
    total += deleted;
    if (deleted < DELETE_BATCH) return total;
  }
}

/** Every table of {@link RetentionTable} at 0. */
function emptyCounts(): Record<RetentionTable, number> {
  const tables: RetentionTable[] = [
    ...HISTORY_TABLES.map(({ table }) => table),
    "idempotency_keys",
    ...ENDED_ROWS_TABLES,
  ];
  return Object.fromEntries(tables.map((table) => [table, 0])) as Record<RetentionTable, number>;
}
