/**
 * The balance ledger's statements (DESIGN §7): `balance_transactions`, the append-only entries per seller and mode,
 * and `balances`, the running total per seller and mode that changes in the same database transaction as each entry.
 *
 * Every debit is one conditional `UPDATE ... WHERE available >= amount`: PostgreSQL locks the balance row for the
 * rest of the transaction, so concurrent debits queue on it and the second one sees the first's result; none can take
 * `available` below zero (a database trigger refuses it too, as a last line).
 */
import { onPrisma, inUnitOfWork, type Connection } from "../connection";
import type { DbClient } from "../client";
import type { PageArgs } from "../page";
import type { BalanceTransaction, Balance, Prisma } from "../generated/client";
import { rawSql, sql, sqlQuery, type Sql } from "../sql";

/** Which mode's balance of which seller. */
export interface LedgerScope {
  sellerId: string;
  mode: "live" | "test";
}

/** A change of a running total: centavos added to `available` and to `reserved` (either signed), at `now`. */
export interface BalanceChange extends LedgerScope {
  /** Signed centavos added to `available`. */
  amount: number;
  /** Signed centavos added to `reserved`. */
  reservedDelta: number;
  now: Date;
}

/**
 * The running total of `scope`, or null when the seller never had a movement in that mode.
 * @param db - the service's client or a transaction of it
 */
export function findBalance(db: DbClient, scope: LedgerScope): Promise<Balance | null> {
  return db.balance.findUnique({ where: { seller_id_mode: { seller_id: scope.sellerId, mode: scope.mode } } });
}

/**
 * One page of `scope`'s balance transactions, by id (the cursor bound `page.id`), in `page.orderBy`'s order.
 */
export function listBalanceTransactionsPage(
  db: DbClient,
  scope: LedgerScope,
  page: PageArgs,
): Promise<BalanceTransaction[]> {
  return db.balanceTransaction.findMany({
    where: { seller_id: scope.sellerId, mode: scope.mode, ...(page.id === undefined ? {} : { id: page.id }) },
    orderBy: page.orderBy,
    take: page.take,
  });
}

/** Balance transaction `id`; throws Prisma's not-found error when there is none. */
export function findBalanceTransactionOrThrow(db: DbClient, id: string): Promise<BalanceTransaction> {
  return db.balanceTransaction.findUniqueOrThrow({ where: { id } });
}

/** A balance transaction (ledger entry) to append. */
export type NewBalanceTransaction = Prisma.BalanceTransactionCreateManyInput;

/** Appends `entry` and returns it; throws a unique violation when its source already has an entry of its type. */
export function insertBalanceTransaction(db: DbClient, entry: NewBalanceTransaction): Promise<BalanceTransaction> {
  return db.balanceTransaction.create({ data: entry });
}

/**
 * Appends `entry` unless its source already has an entry of its type (the ledger's idempotency: settling twice writes
 * one entry).
 * @returns whether it was written
 */
export async function insertBalanceTransactionUnlessExists(
  db: DbClient,
  entry: NewBalanceTransaction,
): Promise<boolean> {
  const { count } = await db.balanceTransaction.createMany({ data: [entry], skipDuplicates: true });
  return count === 1;
}

/**
 * Takes `-change.amount` centavos (`change.amount` is negative) out of `available` and adds `change.reservedDelta` to
 * `reserved`, in one conditional update that only succeeds while `available` covers it. Inside a transaction, the
 * balance row stays locked until it ends.
 * @returns whether the balance was debited (false: `available` is short, or the balance row does not exist)
 */
export async function debitBalance(db: DbClient, change: BalanceChange): Promise<boolean> {
  const { sellerId, mode, amount, reservedDelta, now } = change;
  const debited = await db.$executeRaw(sql`
      UPDATE balances
      SET available = available + ${amount}, reserved = reserved + ${reservedDelta}, updated_at = ${now}
      WHERE seller_id = ${sellerId} AND mode = ${mode}::mode AND available >= ${-amount}`);
  return debited === 1;
}

/**
 * Lets the rest of transaction `tx` take `available` below zero (the `balances_not_negative` trigger reads this
 * setting): only for a dispute's entry, the one debit that may overdraw (DESIGN §11).
 */
export async function allowDisputeOverdraft(tx: Prisma.TransactionClient): Promise<void> {
  await tx.$queryRaw(sql`SELECT set_config('lm.ledger_overdraft', 'dispute', true)`);
}

/**
 * Adds `change.amount` centavos to `available` and `change.reservedDelta` to `reserved`, creating the balance row on
 * a seller's first movement in the mode.
 */
export async function creditBalance(db: DbClient, change: BalanceChange): Promise<void> {
  const { sellerId, mode, amount, reservedDelta, now } = change;
  const credited = await db.$executeRaw(sql`
    UPDATE balances
    SET available = available + ${amount}, reserved = reserved + ${reservedDelta}, updated_at = ${now}
    WHERE seller_id = ${sellerId} AND mode = ${mode}::mode`);
  // A seller's first payment creates the row (a concurrent first payment may have just made it: then add to it).
  if (credited === 0) {
    await db.$executeRaw(sql`
      INSERT INTO balances (seller_id, mode, available, reserved, updated_at)
      VALUES (${sellerId}, ${mode}::mode, ${amount}, ${reservedDelta}, ${now})
      ON CONFLICT (seller_id, mode) DO UPDATE
      SET available = balances.available + EXCLUDED.available,
          reserved = balances.reserved + EXCLUDED.reserved,
          updated_at = EXCLUDED.updated_at`);
  }
}

/**
 * Takes `release.amount` centavos out of `reserved` (a refund or withdrawal succeeded: the money left, its debit
 * entry stays).
 */
export async function releaseReservedBalance(
  db: DbClient,
  release: LedgerScope & { amount: number; now: Date },
): Promise<void> {
  await db.$executeRaw(sql`
    UPDATE balances SET reserved = reserved - ${release.amount}, updated_at = ${release.now}
    WHERE seller_id = ${release.sellerId} AND mode = ${release.mode}::mode`);
}

/** A running total beside the sums it must equal (centavos, bigint as PostgreSQL returns them). */
export interface BalanceReconciliationRow {
  seller_id: string;
  mode: "live" | "test";
  /** `balances.available` (0 without a balance row). */
  available: bigint;
  /** Sum of the balance transactions. */
  entries_sum: bigint;
  /** `balances.reserved` (0 without a balance row). */
  reserved: bigint;
  /** Sum of the amounts of refunds and withdrawals still pending or processing. */
  open_sum: bigint;
}

/**
 * Every running total with the sum of its entries and of its open refunds and withdrawals, and the entries that have no
 * balance row: a scan of the whole ledger for an operator or a bench (DESIGN §7), never a request's or a sweep's work
 * (the sweep's is {@link listRecentBalanceReconciliation}).
 */
export function listBalanceReconciliation(db: DbClient): Promise<BalanceReconciliationRow[]> {
  return sqlQuery<BalanceReconciliationRow>(
    db,
    sql`
    WITH scopes AS (
      SELECT seller_id, mode FROM balances
      UNION
      SELECT DISTINCT seller_id, mode FROM balance_transactions
    )
    SELECT s.seller_id, s.mode,
      COALESCE(b.available, 0) AS available,
      (SELECT COALESCE(SUM(amount), 0)::bigint FROM balance_transactions e WHERE e.seller_id = s.seller_id AND e.mode = s.mode) AS entries_sum,
      COALESCE(b.reserved, 0) AS reserved,
      ${openSum("s")} AS open_sum
    FROM scopes s
    LEFT JOIN balances b ON b.seller_id = s.seller_id AND b.mode = s.mode`,
  );
}

/**
 * The centavos of the refunds and withdrawals still pending or processing of the scope of row `alias`. The statuses
 * are written out as text, exactly the predicate of the partial indexes `refunds_open_seller_idx` and
 * `withdrawals_open_seller_idx`, so only open rows are read.
 */
function openSum(alias: string): Sql {
  const scope = rawSql(alias);
  return sql`(SELECT COALESCE(SUM(amount), 0)::bigint FROM (
      SELECT amount FROM refunds r
      WHERE r.seller_id = ${scope}.seller_id AND r.mode = ${scope}.mode AND r.status IN ('pending', 'processing')
      UNION ALL
      SELECT amount FROM withdrawals w
      WHERE w.seller_id = ${scope}.seller_id AND w.mode = ${scope}.mode AND w.status IN ('pending', 'processing')
    ) o)`;
}

/** What {@link listRecentBalanceReconciliation} checks, and how far it may move the checkpoints. */
export interface RecentReconciliation {
  /** Only the balances whose `updated_at` is at or after this. */
  since: Date;
  /**
   * An entry id below which every entry has committed (made from a time older than any transaction still open): the
   * checkpoints move up to it, never past it, since an entry committed later below a checkpoint would be missed.
   */
  settledBelow: string;
  /**
   * The most entries one statement folds into a balance's checkpoint. A balance further behind (its first check, its
   * whole history to sum) moves its checkpoint this far and is compared on a later check, once it has caught up, so no
   * check sums a history however long.
   */
  maxSettledEntries: number;
  /** The checkpoints' `updated_at`. */
  now: Date;
}

/**
 * The running totals changed since `check.since`, each with the sum of its entries and of its open refunds and
 * withdrawals, for the reconciler's drift check (DESIGN §7, §10 "Sweeps"). The sum of the entries is the balance's
 * checkpoint (`ledger_checkpoints`: the sum of its entries below an id) plus the entries from that id on, read through
 * `(seller_id, mode, id)`; the same statement moves the checkpoint towards `check.settledBelow`, by at most
 * `check.maxSettledEntries` entries. A balance whose checkpoint could not reach `settledBelow` that way is still
 * catching up and is not returned. So a statement's cost follows the activity since the last checks and never the
 * ledger's history: a balance's history is summed once, a bounded part per check. One statement, so the balance row
 * and its entries are read in one snapshot: an entry and its balance change commit together, and a check never sees
 * one without the other.
 */
export function listRecentBalanceReconciliation(
  db: DbClient,
  check: RecentReconciliation,
): Promise<BalanceReconciliationRow[]> {
  const { since, settledBelow, maxSettledEntries, now } = check;
  return sqlQuery<BalanceReconciliationRow>(
    db,
    sql`
    WITH touched AS (
      SELECT b.seller_id, b.mode, b.available, b.reserved,
             COALESCE(c.entry_id, '') AS checked_below, COALESCE(c.entries_sum, 0)::bigint AS checked_sum
      FROM balances b LEFT JOIN ledger_checkpoints c ON c.seller_id = b.seller_id AND c.mode = b.mode
      WHERE b.updated_at >= ${since}::timestamptz
    ), settling AS (
      -- The entries from the checkpoint to settledBelow, at most maxSettledEntries of them, and the id of the next one
      -- if there is one: the checkpoint moves to that id (still behind), or to settledBelow (caught up).
      SELECT t.*, chunk.settled, COALESCE(chunk.next_id, ${settledBelow}::text) AS settled_below
      FROM touched t CROSS JOIN LATERAL (
        SELECT COALESCE(SUM(amount) FILTER (WHERE n <= ${maxSettledEntries}::int), 0)::bigint AS settled,
               MAX(id) FILTER (WHERE n > ${maxSettledEntries}::int) AS next_id
        FROM (
          SELECT e.id, e.amount, row_number() OVER (ORDER BY e.id) AS n
          FROM balance_transactions e
          WHERE e.seller_id = t.seller_id AND e.mode = t.mode
            AND e.id >= t.checked_below AND e.id < ${settledBelow}::text
          ORDER BY e.id
          LIMIT ${maxSettledEntries}::int + 1) e) chunk
    ), advanced AS (
      INSERT INTO ledger_checkpoints (seller_id, mode, entry_id, entries_sum, updated_at)
      SELECT seller_id, mode, settled_below, checked_sum + settled, ${now}::timestamptz
      FROM settling WHERE checked_below < settled_below
      ON CONFLICT (seller_id, mode) DO UPDATE
      SET entry_id = EXCLUDED.entry_id, entries_sum = EXCLUDED.entries_sum, updated_at = EXCLUDED.updated_at
      WHERE ledger_checkpoints.entry_id < EXCLUDED.entry_id
    )
    SELECT s.seller_id, s.mode, s.available, s.checked_sum + s.settled + tail.recent AS entries_sum, s.reserved,
           ${openSum("s")} AS open_sum
    FROM settling s CROSS JOIN LATERAL (
      -- Entries not yet settled, or above a checkpoint another process moved further than this one's settledBelow.
      SELECT COALESCE(SUM(e.amount), 0)::bigint AS recent
      FROM balance_transactions e
      WHERE e.seller_id = s.seller_id AND e.mode = s.mode AND e.id >= GREATEST(s.checked_below, ${settledBelow}::text)
    ) tail
    WHERE s.settled_below = ${settledBelow}::text`,
  );
}

/** This repository bound to connection `c` (`createRepositories`): each function without its client. */
export function ledgerRepository(c: Connection) {
  return {
    ...onPrisma(c, {
      findBalance,
      listBalanceTransactionsPage,
      findBalanceTransactionOrThrow,
      insertBalanceTransaction,
      insertBalanceTransactionUnlessExists,
      debitBalance,
      creditBalance,
      releaseReservedBalance,
      listBalanceReconciliation,
      listRecentBalanceReconciliation,
    }),
    ...inUnitOfWork(c, { allowDisputeOverdraft }),
  };
}
