/**
 * Refunds (`refunds`, DESIGN §7), and what a refund does to its charge: the charge's `amount_refunded` that grows
 * with each refund, its lock while a refund settles. A flow that also changes the balance locks the charge row first,
 * then the balance row, to stay free of deadlocks.
 */
import { onPrisma, inUnitOfWork, type Connection } from "../connection";
import type { DbClient } from "../client";
import type { PageArgs } from "../page";
import type { Prisma, Refund, Transaction } from "../generated/client";
import { rowStatusIs, sql, sqlQuery } from "../sql";

/** Whose refunds: a store, in one mode. */
export interface RefundScope {
  storeId: string;
  mode: "live" | "test";
}

/** Refund `id` of `scope`, or null when it is unknown or of another store or mode. */
export function findRefundInStore(db: DbClient, scope: RefundScope, id: string): Promise<Refund | null> {
  return db.refund.findFirst({ where: { id, store_id: scope.storeId, mode: scope.mode } });
}

/**
 * One page of the refunds of charge `transactionId` of `scope`, by id (the cursor bound `page.id`), in
 * `page.orderBy`'s order.
 */
export function listRefundsPage(
  db: DbClient,
  scope: RefundScope,
  transactionId: string,
  page: PageArgs,
): Promise<Refund[]> {
  return db.refund.findMany({
    where: {
      transaction_id: transactionId,
      store_id: scope.storeId,
      mode: scope.mode,
      ...(page.id === undefined ? {} : { id: page.id }),
    },
    orderBy: page.orderBy,
    take: page.take,
  });
}

/** A refund with its charge. */
export type RefundWithCharge = Refund & { transaction: Transaction };

/** Refund `id` with its charge, or null: what its request to the acquirer, its settlement and its events need. */
export function findRefundWithCharge(db: DbClient, id: string): Promise<RefundWithCharge | null> {
  return db.refund.findUnique({ where: { id }, include: { transaction: true } });
}

/** Inserts `refund` and returns it. */
export function insertRefund(db: DbClient, refund: Prisma.RefundUncheckedCreateInput): Promise<Refund> {
  return db.refund.create({ data: refund });
}

/**
 * Centavos of charge `transactionId`'s succeeded refunds. Under the charge row's lock, this sum sees every refund of
 * the charge that succeeded before. The status is compared as text so that the charge's refunds are found by charge,
 * never every succeeded refund by status.
 */
export async function sumSucceededRefundsOfCharge(db: DbClient, transactionId: string): Promise<number> {
  const [refunded] = await sqlQuery<{ amount: number }>(
    db,
    sql`SELECT coalesce(sum(amount), 0)::int AS amount FROM refunds
     WHERE transaction_id = ${transactionId} AND ${rowStatusIs("status", "succeeded")}`,
  );
  return refunded?.amount ?? 0;
}

/**
 * Adds `amount` centavos to paid charge `transactionId`'s `amount_refunded`, in one conditional update that only
 * succeeds while the refund fits in the paid amount less what was refunded and what the payer's bank took back under
 * the MED (`amount_disputed`: that money is the payer's already): inside a transaction the charge row stays locked until it ends,
 * so concurrent refunds queue on it and never refund more than was paid.
 * @returns whether it fit (false as well for an unpaid charge)
 */
export async function addToChargeAmountRefunded(
  db: DbClient,
  transactionId: string,
  amount: number,
  now: Date,
): Promise<boolean> {
  const fits = await db.$executeRaw(sql`
      UPDATE transactions SET amount_refunded = amount_refunded + ${amount}, updated_at = ${now}
      WHERE id = ${transactionId} AND status = 'paid' AND amount_refunded + amount_disputed + ${amount} <= amount`);
  return fits === 1;
}

/**
 * Locks paid charge `transactionId`'s row until the transaction `tx` ends and reads its refundable remainder
 * (`amount - amount_refunded - amount_disputed`) as it stands once the lock is held: a refund committed by another transaction before
 * is counted, one still open waits for `tx`. The lock is the one {@link addToChargeAmountRefunded} takes, so a refund
 * without an amount (DESIGN §11) takes what concurrent refunds left.
 * @returns centavos still refundable, or null when the charge is unknown or not paid
 */
export async function lockChargeRefundableRemainder(
  tx: Prisma.TransactionClient,
  transactionId: string,
): Promise<number | null> {
  const [charge] = await sqlQuery<{ remainder: number }>(
    tx,
    sql`SELECT amount - amount_refunded - amount_disputed AS remainder FROM transactions
     WHERE id = ${transactionId} AND status = 'paid' FOR UPDATE`,
  );
  return charge?.remainder ?? null;
}

/**
 * Locks charge `transactionId`'s row until the transaction `tx` ends, before a refund of it settles: settlements of
 * the charge's refunds queue on it (and take the balance row after it, the ledger's lock order).
 */
export async function lockChargeOfRefund(tx: Prisma.TransactionClient, transactionId: string): Promise<void> {
  await sqlQuery(tx, sql`SELECT id FROM transactions WHERE id = ${transactionId} FOR UPDATE`);
}

/** This repository bound to connection `c` (`createRepositories`): each function without its client. */
export function refundsRepository(c: Connection) {
  return {
    ...onPrisma(c, {
      findRefundInStore,
      listRefundsPage,
      findRefundWithCharge,
      insertRefund,
      sumSucceededRefundsOfCharge,
      addToChargeAmountRefunded,
    }),
    ...inUnitOfWork(c, { lockChargeRefundableRemainder, lockChargeOfRefund }),
  };
}
