/**
 * Charges (`transactions`, DESIGN §5). The merchant API's hot paths (creation, read by id) and the batch statements
 * (expiry) are plain SQL on the pool, where Prisma's per-query cost was most of a request's; the rest is Prisma.
 */
import { onSql, onPrisma, inUnitOfWork, type Connection } from "../connection";
import type { DbClient } from "../client";
import { Prisma, type Transaction } from "../generated/client";
import type { PageArgs } from "../page";
import { insertWrite, rawSql, rowStatusIs, sql, sqlQuery, type Sql, type SqlClient, type SqlWrite } from "../sql";
import { changeRowsWithEvents, insertWithEvents, type EventsToWrite } from "./events.repository";
import type { IdempotentReply } from "./idempotency-keys.repository";

/** The columns of a charge, by name (a prepared statement must not select `*`, see `sqlQuery`). */
export const CHARGE_COLUMN_NAMES: readonly string[] = Object.values(Prisma.TransactionScalarFieldEnum);
const CHARGE_COLUMNS = rawSql(CHARGE_COLUMN_NAMES.join(", "));

/** The insert of charge row `charge`, for `runWrites` or `insertWithEvents`, with the casts its columns need. */
export function chargeRowWrite(charge: Transaction): SqlWrite {
  return insertWrite("transactions", [charge], {
    mode: "mode",
    status: "transaction_status",
    type: "transaction_type",
    metadata: "jsonb",
    due_terms: "jsonb",
    payment_components: "jsonb",
  });
}

/**
 * Inserts `charge` with its events (`transaction.created`) and their first deliveries, and `reply` (the request's
 * idempotent reply), in ONE statement: no `BEGIN`/`COMMIT` round trips, the subscribed endpoints selected inside it.
 * @returns the ids of the delivery rows written
 * @throws a unique violation on `external_id` (see `isUniqueViolation`); `reply.takenOver()` when its claim was taken
 *   over (nothing written)
 */
export async function insertCharge(
  client: SqlClient,
  charge: Transaction,
  events: EventsToWrite,
  reply?: IdempotentReply,
): Promise<string[]> {
  return insertWithEvents(client, chargeRowWrite(charge), events, reply);
}

/**
 * Charge `id`, or undefined. By id alone, the caller checks the store and mode: a prepared statement that also named
 * them ran, on its generic plan, through the `(store_id, mode, external_id)` index whenever the statistics expected
 * as few rows for the store as for the id, reading all of the store's charges.
 */
export async function findChargeById(client: SqlClient, id: string): Promise<Transaction | undefined> {
  const [found] = await sqlQuery<Transaction>(client, sql`SELECT ${CHARGE_COLUMNS} FROM transactions WHERE id = ${id}`);
  return found;
}

/**
 * The charges of `ids` found, in no particular order: read where an event's object or a kept reply needs the fields
 * each charge keeps for good (DESIGN §10 "No copies").
 */
export function findChargesByIds(client: SqlClient, ids: string[]): Promise<Transaction[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return sqlQuery<Transaction>(
    client,
    sql`SELECT ${CHARGE_COLUMNS} FROM transactions WHERE id = ANY(${[...new Set(ids)]}::text[])`,
  );
}

/** The charges whose `txid` is one of `txids` (each txid is unique), in no particular order. */
export function findChargesByTxids(client: SqlClient, txids: string[]): Promise<Transaction[]> {
  return sqlQuery<Transaction>(
    client,
    sql`SELECT ${CHARGE_COLUMNS} FROM transactions WHERE txid = ANY(${txids}::text[])`,
  );
}

/**
 * The status filter of a charge list, as reads show the status (`pending` past `expires_at` reads `expired`, except a
 * recurrence's cycle, which never expires: DESIGN §14).
 */
export type ChargeListStatus = "pending" | "paid" | "expired" | "canceled" | "refunded" | "scheduled" | "failed";

function statusWhere(status: ChargeListStatus | undefined, now: Date): Prisma.TransactionWhereInput {
  const cycle: Prisma.TransactionWhereInput = { type: "recurring" };
  if (status === "pending") return { status: "pending", OR: [{ expires_at: { gt: now } }, cycle] };
  if (status === "expired") {
    return { OR: [{ status: "expired" }, { status: "pending", expires_at: { lte: now }, NOT: cycle }] };
  }
  return status === undefined ? {} : { status };
}

/** One page of a store's charges of `mode` matching `filters` as they read at `now`, in the page's order. */
export function listChargesPage(
  db: DbClient,
  scope: { storeId: string; mode: Transaction["mode"] },
  filters: { status?: ChargeListStatus; externalId?: string; recurrenceId?: string },
  page: PageArgs,
  now: Date,
): Promise<Transaction[]> {
  return db.transaction.findMany({
    where: {
      store_id: scope.storeId,
      mode: scope.mode,
      ...statusWhere(filters.status, now),
      ...(filters.externalId === undefined ? {} : { external_id: filters.externalId }),
      ...(filters.recurrenceId === undefined ? {} : { recurrence_id: filters.recurrenceId }),
      ...(page.id === undefined ? {} : { id: page.id }),
    },
    orderBy: page.orderBy,
    take: page.take,
  });
}

/**
 * Locks charge `id` for the rest of `tx` and reads its status, deadline and type, or undefined. By id, the status checked
 * by the caller: a `status = 'pending'` condition would let the planner, on statistics that counted few pending
 * charges, read every pending charge through `(status, expires_at)` (see `rowStatusIs`).
 */
export async function lockChargeStatus(
  tx: Prisma.TransactionClient,
  id: string,
): Promise<Pick<Transaction, "status" | "expires_at" | "type"> | undefined> {
  const [current] = await sqlQuery<Pick<Transaction, "status" | "expires_at" | "type">>(
    tx,
    sql`SELECT status, expires_at, type FROM transactions WHERE id = ${id} FOR UPDATE`,
  );
  return current;
}

/** Marks charge `id` `canceled` at `at` (the caller holds its lock and checked it pending); returns it as written. */
export function markChargeCanceled(db: DbClient, id: string, at: Date): Promise<Transaction> {
  return db.transaction.update({ where: { id }, data: { status: "canceled", canceled_at: at, updated_at: at } });
}

/** Marks charge `id` `refunded` at `at` (its succeeded refunds reached its amount); returns it as written. */
export function markChargeRefunded(db: DbClient, id: string, at: Date): Promise<Transaction> {
  return db.transaction.update({ where: { id }, data: { status: "refunded", updated_at: at } });
}

/** Gives `amount` centavos back to charge `id`'s refundable remainder (a refund of it failed), at `at`. */
export async function subtractFromChargeAmountRefunded(
  db: DbClient,
  id: string,
  amount: number,
  at: Date,
): Promise<void> {
  await db.transaction.update({ where: { id }, data: { amount_refunded: { decrement: amount }, updated_at: at } });
}

/**
 * Brings the deadline of charge `id` forward to `now` when it is still pending and not yet due, so that the expiry
 * sweep expires it on its next tick (the test mode's simulated expiration).
 * @returns the charge as written, or undefined when it was not pending or already due
 */
export async function moveChargeDeadlineTo(client: SqlClient, id: string, now: Date): Promise<Transaction | undefined> {
  const [moved] = await sqlQuery<Transaction>(
    client,
    sql`UPDATE transactions SET expires_at = ${now}, updated_at = ${now}
        WHERE id = ${id} AND status = 'pending' AND expires_at > ${now}
        RETURNING ${CHARGE_COLUMNS}`,
  );
  return moved;
}

/**
 * Up to `limit` charges still `pending` whose `expires_at` is at or before `now`, oldest deadline first. A recurrence's
 * cycle is not one: the recurrence engine ends it (DESIGN §14), and it is found past its deadline only while the
 * engine is behind (a worker down, a test clock not advanced), so the few it adds to the index's range stay few.
 */
export function findDueCharges(client: SqlClient, now: Date, limit: number): Promise<Transaction[]> {
  return sqlQuery<Transaction>(
    client,
    sql`SELECT ${CHARGE_COLUMNS} FROM transactions
        WHERE status = 'pending' AND expires_at <= ${now} AND type <> 'recurring'
        ORDER BY expires_at LIMIT ${limit}`,
  );
}

/**
 * The CTE `locked`: the `id` of each charge of `ids` still `pending`, its row locked in id order (`FOR NO KEY UPDATE`,
 * the lock an update of its non-key columns takes). A batch statement that changes charges joins it, so that it
 * locks them in one order: two batches over the same charges (two settlements, a settlement and the expiry sweep)
 * then queue on the first charge they share instead of each holding a charge the other waits for, which PostgreSQL
 * ends with `deadlock detected`. The batch's own update then finds each row locked by itself and rechecks it as usual.
 */
export function pendingChargesLockedInIdOrder(ids: string[]): Sql {
  return sql`locked AS (
          SELECT id FROM transactions WHERE id = ANY(${ids}::text[]) AND ${rowStatusIs("status", "pending")}
          ORDER BY id FOR NO KEY UPDATE
        )`;
}

/**
 * ONE statement: every charge of `ids` still pending and due at `now` becomes `expired` (at its `expires_at`), with
 * its events of `events` (planned from the charges as they read after the change) and their first deliveries; a
 * charge paid or canceled since it was read is skipped by the conditional update and gets neither.
 * @returns the ids of the charges expired and of the delivery rows written
 */
export async function expireCharges(
  client: SqlClient,
  input: { ids: string[]; now: Date; events: EventsToWrite },
): Promise<{ expiredIds: string[]; deliveryIds: string[] }> {
  const { changedIds, deliveryIds } = await changeRowsWithEvents(client, {
    changes: sql`${pendingChargesLockedInIdOrder(input.ids)}, expired AS (
          UPDATE transactions t
          SET status = 'expired', expired_at = t.expires_at, updated_at = ${input.now}
          FROM locked
          WHERE t.id = locked.id AND ${rowStatusIs("t.status", "pending")} AND t.expires_at <= ${input.now}
          RETURNING t.id
        )`,
    changed: "expired",
    events: input.events,
  });
  return { expiredIds: changedIds, deliveryIds };
}

/** This repository bound to connection `c` (`createRepositories`): each function without its client. */
export function chargesRepository(c: Connection) {
  return {
    ...onSql(c, {
      insertCharge,
      findChargeById,
      findChargesByIds,
      findChargesByTxids,
      moveChargeDeadlineTo,
      findDueCharges,
      expireCharges,
    }),
    ...onPrisma(c, { listChargesPage, markChargeCanceled, markChargeRefunded, subtractFromChargeAmountRefunded }),
    ...inUnitOfWork(c, { lockChargeStatus }),
  };
}
