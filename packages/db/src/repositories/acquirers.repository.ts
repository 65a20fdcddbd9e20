/**
 * Acquirers (`acquirers`, the payment providers that notify us), and the statements that refunds and withdrawals
 * share as requests to an acquirer ("outgoing rows", DESIGN §7): claiming the next request, recording the id the
 * acquirer accepted it under, and the condition of their settlement.
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
import type { Db, DbClient } from "../client";
import { inTransaction } from "../transaction";
import { Prisma, type Acquirer } from "../generated/client";
import { rawSql, rowStatusIs, sql, sqlQuery, type Sql, type SqlClient } from "../sql";

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

/** The columns of an acquirer, named (a prepared statement must not select `*`, see {@link sqlQuery}). */
const ACQUIRER_COLUMNS = rawSql(Object.values(Prisma.AcquirerScalarFieldEnum).join(", "));
/** The same columns of the acquirer aliased `a`. */
const ACQUIRER_COLUMNS_OF_A = Object.values(Prisma.AcquirerScalarFieldEnum)
  .map((column) => `a.${column}`)
  .join(", ");

/**
 * Acquirer `slug`, or undefined. Read in plain SQL, prepared on a `pg` pool: every inbound notification reads it, and
 * Prisma's per-query cost would be most of the receipt's.
 */
export async function findAcquirerBySlug(db: SqlClient, slug: string): Promise<Acquirer | undefined> {
  const [found] = await sqlQuery<Acquirer>(db, sql`SELECT ${ACQUIRER_COLUMNS} FROM acquirers WHERE slug = ${slug}`);
  return found;
}

/** Acquirer `slug`; throws Prisma's not-found error when there is none. */
export function findAcquirerBySlugOrThrow(db: DbClient, slug: string): Promise<Acquirer> {
  return db.acquirer.findUniqueOrThrow({ where: { slug } });
}

/**
 * Inserts an acquirer and returns it.
 * @param acquirer.secret_ciphertext - its notification secret, already encrypted
 * @throws a unique violation (see `isUniqueViolation`) when `slug` exists
 */
export function insertAcquirer(
  db: DbClient,
  acquirer: { id: string; slug: string; secret_ciphertext: string },
): Promise<Acquirer> {
  return db.acquirer.create({ data: acquirer });
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

/** Acquirer `id`, or undefined. */
export async function findAcquirerById(db: SqlClient, id: string): Promise<Acquirer | undefined> {
  const [found] = await sqlQuery<Acquirer>(db, sql`SELECT ${ACQUIRER_COLUMNS} FROM acquirers WHERE id = ${id}`);
  return found;
}

/** A bank's connection through the API Pix standard (DESIGN §9), as `acquirer:configure` writes it. */
export interface AcquirerConnection {
  profile: string;
  api_url: string;
  token_url: string;
  client_id: string;
  /** The encrypted credentials envelope, bound to the acquirer's id. */
  credentials_ciphertext: string;
  pix_key: string;
}

/** Writes acquirer `id`'s bank connection. */
export async function updateAcquirerConnection(
  db: DbClient,
  id: string,
  connection: AcquirerConnection,
): Promise<Acquirer> {
  return db.acquirer.update({ where: { id }, data: connection });
}

/**
 * Makes acquirer `acquirer.id` the one of `mode` (`active_acquirers`), fixing its mode on first activation, in one
 * transaction.
 * @returns false (nothing written) when the acquirer already serves the other mode
 */
export async function activateAcquirerForMode(
  db: Db,
  acquirerId: string,
  mode: "live" | "test",
  now: Date,
): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const fixed = await tx.acquirer.updateMany({
      where: { id: acquirerId, OR: [{ mode: null }, { mode }] },
      data: { mode },
    });
    if (fixed.count === 0) return false;
    await tx.activeAcquirer.upsert({
      where: { mode },
      create: { mode, acquirer_id: acquirerId, activated_at: now },
      update: { acquirer_id: acquirerId, activated_at: now },
    });
    return true;
  });
}

/** The acquirer active for `mode`, or undefined (DESIGN §9: the sandbox serves `test` then, nobody `live`). */
export async function findActiveAcquirer(db: SqlClient, mode: "live" | "test"): Promise<Acquirer | undefined> {
  const [found] = await sqlQuery<Acquirer>(
    db,
    sql`SELECT ${rawSql(ACQUIRER_COLUMNS_OF_A)} FROM active_acquirers m JOIN acquirers a ON a.id = m.acquirer_id
        WHERE m.mode = ${mode}::mode`,
  );
  return found;
}

/**
 * The banks (acquirers reached through the API Pix standard) that have served a mode, active now or not: the
 * reconciliation's. A bank replaced by another still has charges payable there and refunds or payouts in flight.
 */
export async function listServingBankAcquirers(db: SqlClient): Promise<Acquirer[]> {
  return sqlQuery<Acquirer>(
    db,
    sql`SELECT ${ACQUIRER_COLUMNS} FROM acquirers WHERE profile IS NOT NULL AND mode IS NOT NULL ORDER BY slug`,
  );
}

/** Moves acquirer `id`'s reconciliation watermark forward to `until` (never back). */
export async function advanceReconciliationWatermark(db: DbClient, id: string, until: Date): Promise<void> {
  await db.acquirer.updateMany({
    where: { id, OR: [{ reconciled_until: null }, { reconciled_until: { lt: until } }] },
    data: { reconciled_until: until },
  });
}

/** Most in-flight rows one reconciliation reads back per table. */
const IN_FLIGHT_PAGE = 500;

/**
 * Refunds bank `acquirerId` accepted (it refunds the payments of the charges it registered) and has not settled,
 * untouched since `untouchedSince`, oldest first, with the refunded payment's end-to-end id: the reconciliation
 * reads each back (DESIGN §9).
 */
export async function listRefundsInFlight(
  db: DbClient,
  acquirerId: string,
  untouchedSince: Date,
): Promise<Array<{ id: string; paymentEndToEndId: string }>> {
  const rows = await db.refund.findMany({
    where: {
      status: "processing",
      end_to_end_id: { not: null },
      updated_at: { lte: untouchedSince },
      transaction: { acquirer_id: acquirerId },
    },
    select: { id: true, transaction: { select: { payment_end_to_end_id: true } } },
    orderBy: { updated_at: "asc" },
    take: IN_FLIGHT_PAGE,
  });
  return rows.flatMap((row) =>
    row.transaction.payment_end_to_end_id === null
      ? []
      : [{ id: row.id, paymentEndToEndId: row.transaction.payment_end_to_end_id }],
  );
}

/** Withdrawals bank `acquirerId` accepted and has not settled, untouched since `untouchedSince`, oldest first. */
export async function listWithdrawalsInFlight(
  db: DbClient,
  acquirerId: string,
  untouchedSince: Date,
): Promise<string[]> {
  const rows = await db.withdrawal.findMany({
    where: {
      status: "processing",
      end_to_end_id: { not: null },
      updated_at: { lte: untouchedSince },
      acquirer_id: acquirerId,
    },
    select: { id: true },
    orderBy: { updated_at: "asc" },
    take: IN_FLIGHT_PAGE,
  });
  return rows.map((row) => row.id);
}
