/**
 * Conditions on one refund or withdrawal named by id (DESIGN §7), checked only on the row that id finds: still open,
 * not yet accepted by the acquirer, unchanged since read.
 *
 * Both tables have a `(status, updated_at)` index (the reconciler's sweep) and a unique index of `end_to_end_id`, where
 * every request the acquirer has not accepted yet is a null. Statistics gathered while few rows were open (most of them
 * settled, with their end-to-end ids) make PostgreSQL expect one row for `status = 'processing'` or for
 * `end_to_end_id IS NULL`, and it then reads every open row through either index, the id a mere filter: after an
 * acquirer outage, each retry read the whole backlog twice, to claim the request and to record the accepted id (6,001
 * rows for one refund among 3,000 waiting, `batch-statements.int.test.ts`), so the backlog drained in quadratic time,
 * just when it mattered. A settlement's `status IN ('pending', 'processing')` was still found by id (two status
 * values cost the planner more than one id), but is written the same way so that it stays so. Written as below, no
 * index can answer these conditions.
 */
import { rowStatusIs, type DbClient } from "@lm/db";

/** The tables of refunds and withdrawals, which share their submission columns. */
export type OutgoingTable = "refunds" | "withdrawals";

/** SQL true while the row is `pending` or `processing`, i.e. not settled (see `rowStatusIs` in `@lm/db`). */
export const STILL_OPEN = `(${rowStatusIs("status", "pending").text} OR ${rowStatusIs("status", "processing").text})`;

/** SQL true while the acquirer has not accepted the row; through `coalesce` (no end-to-end id is empty), no index. */
const NOT_ACCEPTED = "coalesce(end_to_end_id, '') = ''";

/**
 * Claims the next request to the acquirer for `row` of `table`, as the caller read it: counts the attempt and moves
 * the row to `processing` (`updated_at` = `now`), unless it changed since (another worker claimed it, the acquirer
 * accepted it, or it was settled), so two workers never send at once.
 * @param db - the service's client or a transaction of it
 * @returns whether this caller claimed it
 */
export async function claimAcquirerRequest(
  db: DbClient,
  table: OutgoingTable,
  row: { id: string; status: "pending" | "processing"; submit_attempts: number },
  now: Date,
): Promise<boolean> {
  const claimed = await db.$executeRawUnsafe(
    `UPDATE ${table} SET status = 'processing', submit_attempts = submit_attempts + 1, updated_at = $3
     WHERE id = $1 AND ${rowStatusIs("status", row.status).text} AND ${NOT_ACCEPTED} AND submit_attempts = $2`,
    row.id,
    row.submit_attempts,
    now,
  );
  return claimed === 1;
}

/**
 * Records the end-to-end id `endToEndId` the acquirer accepted row `id` of `table` under, and clears its last error,
 * unless an outcome recorded it first (the sandbox answers at once; the outcome then carries the same id).
 */
export async function recordAcceptedRequest(
  db: DbClient,
  table: OutgoingTable,
  id: string,
  endToEndId: string,
): Promise<void> {
  await db.$executeRawUnsafe(
    `UPDATE ${table} SET end_to_end_id = $2, submit_error = NULL WHERE id = $1 AND ${NOT_ACCEPTED}`,
    id,
    endToEndId,
  );
}
