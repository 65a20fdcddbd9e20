/**
 * Acquirers (`acquirers`, the payment providers that notify us): who they are, which one serves each mode, their bank
 * connections and what their reconciliation reads back.
 */
import { onSql, onPrisma, type Connection } from "../connection";
import type { DbClient } from "../client";
import { inTransaction } from "../transaction";
import { Prisma, type Acquirer } from "../generated/client";
import { rawSql, sql, sqlQuery, type SqlClient } from "../sql";

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
  /** The receiving account Pix Automático's cycle charges name (`cobr` `recebedor`), when given. */
  account_branch?: string | null;
  account_number?: string | null;
  /** The standard's `tipoConta`: `CORRENTE`, `POUPANCA` or `PAGAMENTO`. */
  account_type?: string | null;
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
  db: DbClient,
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

/** This repository bound to connection `c` (`createRepositories`): each function without its client. */
export function acquirersRepository(c: Connection) {
  return {
    ...onSql(c, { findAcquirerBySlug, findAcquirerById, findActiveAcquirer, listServingBankAcquirers }),
    ...onPrisma(c, {
      findAcquirerBySlugOrThrow,
      insertAcquirer,
      updateAcquirerConnection,
      activateAcquirerForMode,
      advanceReconciliationWatermark,
      listRefundsInFlight,
      listWithdrawalsInFlight,
    }),
  };
}
