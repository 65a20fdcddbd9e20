/**
 * Disputes (`disputes`, DESIGN §11): devoluções the payer's bank made under the MED without our asking, and what one
 * does to its charge (`amount_disputed`). Written under the charge row's lock, like a refund's settlement, so a
 * dispute and a refund of one charge never interleave.
 */
import { onPrisma, inUnitOfWork, type Connection } from "../connection";
import type { DbClient } from "../client";
import type { Dispute, Prisma, Transaction } from "../generated/client";
import type { PageArgs } from "../page";
import { sql, sqlQuery } from "../sql";

/** Whose disputes: a store or a seller, in one mode. */
export type DisputeScope = { mode: "live" | "test" } & ({ storeId: string } | { sellerId: string });

function scopeWhere(scope: DisputeScope): Prisma.DisputeWhereInput {
  return "storeId" in scope
    ? { store_id: scope.storeId, mode: scope.mode }
    : { seller_id: scope.sellerId, mode: scope.mode };
}

/** The charge paid by the Pix of end-to-end id `endToEndId`, locked for the rest of `tx`, or undefined. */
export async function lockChargeOfPayment(
  tx: Prisma.TransactionClient,
  endToEndId: string,
): Promise<Transaction | undefined> {
  const [locked] = await sqlQuery<{ id: string }>(
    tx,
    sql`SELECT id FROM transactions WHERE payment_end_to_end_id = ${endToEndId} FOR UPDATE`,
  );
  return locked === undefined ? undefined : tx.transaction.findUniqueOrThrow({ where: { id: locked.id } });
}

/**
 * Inserts `dispute` unless one exists for its devolução (`end_to_end_id`).
 * @returns the dispute written, or null when it existed already
 */
export async function insertDisputeUnlessExists(
  tx: Prisma.TransactionClient,
  dispute: Prisma.DisputeUncheckedCreateInput,
): Promise<Dispute | null> {
  const written = await tx.dispute.createMany({ data: [dispute], skipDuplicates: true });
  return written.count === 1 ? tx.dispute.findUniqueOrThrow({ where: { id: dispute.id } }) : null;
}

/** Adds `amount` centavos to charge `transactionId`'s `amount_disputed`; returns the charge. */
export function addToChargeAmountDisputed(
  tx: Prisma.TransactionClient,
  transactionId: string,
  amount: number,
  now: Date,
): Promise<Transaction> {
  return tx.transaction.update({
    where: { id: transactionId },
    data: { amount_disputed: { increment: amount }, updated_at: now },
  });
}

/** The dispute of devolução `endToEndId` (its `rtrId`), or null. */
export function findDisputeByEndToEndId(db: DbClient, endToEndId: string): Promise<Dispute | null> {
  return db.dispute.findUnique({ where: { end_to_end_id: endToEndId } });
}

/** Dispute `id` of `scope`, or null when it is unknown or another store's, seller's or mode's. */
export function findDisputeInScope(db: DbClient, scope: DisputeScope, id: string): Promise<Dispute | null> {
  return db.dispute.findFirst({ where: { id, ...scopeWhere(scope) } });
}

/** One page of `scope`'s disputes, by id (the cursor bound `page.id`), in `page.orderBy`'s order. */
export function listDisputesPage(db: DbClient, scope: DisputeScope, page: PageArgs): Promise<Dispute[]> {
  return db.dispute.findMany({
    where: { ...scopeWhere(scope), ...(page.id === undefined ? {} : { id: page.id }) },
    orderBy: page.orderBy,
    take: page.take,
  });
}

/** This repository bound to connection `c` (`createRepositories`): each function without its client. */
export function disputesRepository(c: Connection) {
  return {
    ...onPrisma(c, { findDisputeByEndToEndId, findDisputeInScope, listDisputesPage }),
    ...inUnitOfWork(c, { lockChargeOfPayment, insertDisputeUnlessExists, addToChargeAmountDisputed }),
  };
}
