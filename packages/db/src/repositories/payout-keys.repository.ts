/**
 * Payout keys (`payout_keys`, DESIGN §7): a seller's own Pix keys that withdrawals are paid to. A deleted key keeps
 * its row (`deleted_at`), so the withdrawals made to it keep naming it; every read here but the withdrawals' own skips
 * deleted keys.
 */
import { onPrisma, inUnitOfWork, type Connection } from "../connection";
import type { DbClient } from "../client";
import type { PageArgs } from "../page";
import type { PayoutKey, Prisma } from "../generated/client";
import { sql, sqlQuery } from "../sql";

/**
 * Locks seller `sellerId`'s row until the transaction `tx` ends, before its payout keys are counted and one added:
 * concurrent adds queue on it, so they cannot pass the limit or the duplicate check together.
 */
export async function lockSellerForPayoutKeys(tx: Prisma.TransactionClient, sellerId: string): Promise<void> {
  await sqlQuery(tx, sql`SELECT id FROM sellers WHERE id = ${sellerId} FOR UPDATE`);
}

/** Every payout key of seller `sellerId` that is not deleted, in no particular order. */
export function listActivePayoutKeysOfSeller(db: DbClient, sellerId: string): Promise<PayoutKey[]> {
  return db.payoutKey.findMany({ where: { seller_id: sellerId, deleted_at: null } });
}

/**
 * One page of seller `sellerId`'s payout keys that are not deleted, by id (the cursor bound `page.id`), in
 * `page.orderBy`'s order.
 */
export function listPayoutKeysPage(db: DbClient, sellerId: string, page: PageArgs): Promise<PayoutKey[]> {
  return db.payoutKey.findMany({
    where: { seller_id: sellerId, deleted_at: null, ...(page.id === undefined ? {} : { id: page.id }) },
    orderBy: page.orderBy,
    take: page.take,
  });
}

/** Payout key `id` of seller `sellerId`, or null when it is unknown, deleted or another seller's. */
export function findActivePayoutKeyOfSeller(db: DbClient, sellerId: string, id: string): Promise<PayoutKey | null> {
  return db.payoutKey.findFirst({ where: { id, seller_id: sellerId, deleted_at: null } });
}

/** Inserts `key` and returns it. */
export function insertPayoutKey(db: DbClient, key: Prisma.PayoutKeyUncheckedCreateInput): Promise<PayoutKey> {
  return db.payoutKey.create({ data: key });
}

/**
 * Deletes payout key `id` at `now`, softly (its row stays for the withdrawals made to it), unless it was deleted
 * already.
 * @returns whether this call deleted it
 */
export async function softDeletePayoutKey(db: DbClient, id: string, now: Date): Promise<boolean> {
  const { count } = await db.payoutKey.updateMany({ where: { id, deleted_at: null }, data: { deleted_at: now } });
  return count === 1;
}

/** This repository bound to connection `c` (`createRepositories`): each function without its client. */
export function payoutKeysRepository(c: Connection) {
  return {
    ...onPrisma(c, {
      listActivePayoutKeysOfSeller,
      listPayoutKeysPage,
      findActivePayoutKeyOfSeller,
      insertPayoutKey,
      softDeletePayoutKey,
    }),
    ...inUnitOfWork(c, { lockSellerForPayoutKeys }),
  };
}
