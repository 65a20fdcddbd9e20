/**
 * Refunds and withdrawals as requests to an acquirer ("outgoing rows", DESIGN §7), the statements their two tables
 * share: claiming the next request, recording the id the acquirer accepted it under or the error it answered, the
 * rows the reconciler offers again, and the conditional updates that settle a row.
 *
 * The outgoing-row conditions hold on one refund or withdrawal named by id, checked only on the row that id finds:
 * still open, not yet accepted by the acquirer, unchanged since read. Both tables have a `(status, updated_at)` index
 * (the reconciler's sweep) and a unique index of `end_to_end_id`, where every request the acquirer has not accepted
 * yet is a null. Statistics gathered while few rows were open (most of them settled, with their end-to-end ids) make
 * PostgreSQL expect one row for `status = 'processing'` or for `end_to_end_id IS NULL`, and it then reads every open
 * row through either index, the id a mere filter: after an acquirer outage, each retry read the whole backlog twice,
 * to claim the request and to record the accepted id (6,001 rows for one refund among 3,000 waiting,
 * `batch-statements.int.test.ts`), so the backlog drained in quadratic time, just when it mattered. A settlement's
 * `status IN ('pending', 'processing')` was still found by id (two status values cost the planner more than one id),
 * but is written the same way so that it stays so. Written as below, no index can answer these conditions.
 */
import { onPrisma, type Connection } from "../connection";
import type { DbClient } from "../client";
import { emptySql, rawSql, rowStatusIs, sql, type Sql } from "../sql";

/** The tables of refunds and withdrawals, which share their submission columns. */
export type OutgoingTable = "refunds" | "withdrawals";

/**
 * SQL true while the outgoing row is `pending` or `processing`, i.e. not settled, checked on the row its id found
 * (see {@link rowStatusIs}): the condition of every settlement of a refund or withdrawal.
 */
export const OUTGOING_ROW_STILL_OPEN: Sql = sql`(${rowStatusIs("status", "pending")} OR ${rowStatusIs("status", "processing")})`;

/** SQL true while the acquirer has not accepted the row; through `coalesce` (no end-to-end id is empty), no index. */
const NOT_ACCEPTED = rawSql("coalesce(end_to_end_id, '') = ''");

/**
 * Claims the next request to the acquirer for `row` of `table`, as the caller read it: counts the attempt and moves
 * the row to `processing` (`updated_at` = `now`), unless it changed since (another worker claimed it, the acquirer
 * accepted it, or it was settled), so two workers never send at once.
 * @param db - the service's client or a transaction of it
 * @returns whether this caller claimed it
 */
export async function claimOutgoingRowRequest(
  db: DbClient,
  table: OutgoingTable,
  row: { id: string; status: "pending" | "processing"; submit_attempts: number },
  now: Date,
): Promise<boolean> {
  const claimed = await db.$executeRaw(
    sql`UPDATE ${rawSql(table)} SET status = 'processing', submit_attempts = submit_attempts + 1, updated_at = ${now}
     WHERE id = ${row.id} AND ${rowStatusIs("status", row.status)} AND ${NOT_ACCEPTED} AND submit_attempts = ${row.submit_attempts}`,
  );
  return claimed === 1;
}

/**
 * Records the end-to-end id `endToEndId` the acquirer accepted row `id` of `table` under, and clears its last error,
 * unless an outcome recorded it first (the sandbox answers at once; the outcome then carries the same id).
 */
export async function recordOutgoingRowAccepted(
  db: DbClient,
  table: OutgoingTable,
  id: string,
  endToEndId: string,
): Promise<void> {
  await db.$executeRaw(
    sql`UPDATE ${rawSql(table)} SET end_to_end_id = ${endToEndId}, submit_error = NULL WHERE id = ${id} AND ${NOT_ACCEPTED}`,
  );
}

/**
 * Records `message`, the last request's error, on row `id` of `table` for operators.
 * @throws Prisma's not-found error when there is no such row
 */
export async function recordOutgoingRowSubmitError(
  db: DbClient,
  table: OutgoingTable,
  id: string,
  message: string,
): Promise<void> {
  const data = { submit_error: message };
  if (table === "refunds") await db.refund.update({ where: { id }, data });
  else await db.withdrawal.update({ where: { id }, data });
}

/**
 * Ids of the rows of `table` that wait for the acquirer to accept them (still `pending` or `processing`, no
 * `end_to_end_id`, fewer than `waiting.maxAttempts` requests made) and were left alone since `waiting.untouchedSince`,
 * oldest first: the reconciler offers them to their submission queue again.
 * @param waiting.limit - most ids returned
 */
export async function listOutgoingRowsWaitingForAcquirer(
  db: DbClient,
  table: OutgoingTable,
  waiting: { maxAttempts: number; untouchedSince: Date; limit: number },
): Promise<string[]> {
  const args = {
    where: {
      status: { in: ["pending" as const, "processing" as const] },
      end_to_end_id: null,
      submit_attempts: { lt: waiting.maxAttempts },
      updated_at: { lte: waiting.untouchedSince },
    },
    select: { id: true },
    orderBy: { updated_at: "asc" as const },
    take: waiting.limit,
  };
  const rows = table === "refunds" ? await db.refund.findMany(args) : await db.withdrawal.findMany(args);
  return rows.map((row) => row.id);
}

/**
 * The columns a withdrawal stamps when it settles (`completed_at` or `failed_at`, set to the settlement's time); a
 * refund has none, only `updated_at`.
 */
function settledAt(table: OutgoingTable, column: "completed_at" | "failed_at", now: Date): Sql {
  return table === "withdrawals" ? sql`${rawSql(column)} = ${now}, ` : emptySql;
}

/**
 * Moves row `id` of `table` to its success (a refund `succeeded`, a withdrawal `completed`, stamped) under the
 * end-to-end id `endToEndId` of the money moved, unless it was settled already.
 * @returns whether it moved
 */
export async function markOutgoingRowSucceeded(
  db: DbClient,
  table: OutgoingTable,
  id: string,
  endToEndId: string,
  now: Date,
): Promise<boolean> {
  const status = rawSql(table === "refunds" ? "'succeeded'" : "'completed'");
  const changed = await db.$executeRaw(
    sql`UPDATE ${rawSql(table)} SET status = ${status}, end_to_end_id = ${endToEndId}, ${settledAt(table, "completed_at", now)}updated_at = ${now}
       WHERE id = ${id} AND ${OUTGOING_ROW_STILL_OPEN}`,
  );
  return changed === 1;
}

/**
 * Moves row `id` of `table` to `failed` with `failure.reason` (and the end-to-end id, when the acquirer gave one; a
 * withdrawal stamped) unless it was settled already.
 * @returns whether it moved
 */
export async function markOutgoingRowFailed(
  db: DbClient,
  table: OutgoingTable,
  id: string,
  failure: { reason: string; endToEndId: string | null },
  now: Date,
): Promise<boolean> {
  const changed = await db.$executeRaw(sql`UPDATE ${rawSql(table)}
     SET status = 'failed', failure_reason = ${failure.reason}, ${settledAt(table, "failed_at", now)}updated_at = ${now},
         end_to_end_id = coalesce(${failure.endToEndId}, end_to_end_id)
     WHERE id = ${id} AND ${OUTGOING_ROW_STILL_OPEN}`);
  return changed === 1;
}

/** This repository bound to connection `c` (`createRepositories`): each function without its client. */
export function payoutsRepository(c: Connection) {
  return {
    ...onPrisma(c, {
      claimOutgoingRowRequest,
      recordOutgoingRowAccepted,
      recordOutgoingRowSubmitError,
      listOutgoingRowsWaitingForAcquirer,
      markOutgoingRowSucceeded,
      markOutgoingRowFailed,
    }),
  };
}
