/**
 * The store of a panel seller. A seller has one store today (created with it by `seller:create`); panel actions that
 * create rows of the store (webhook endpoints) go through here.
 */
import { Prisma } from "@lm/db";
import { notFound } from "../errors";

/**
 * The id of `sellerId`'s store (its first, should it ever have several), locked `FOR UPDATE` until `tx` ends, so that
 * a limit counted on the store holds: concurrent creations queue on the lock instead of both passing the count.
 * @throws ApiError `resource_not_found` when the seller has no store
 */
export async function lockSellerStore(tx: Prisma.TransactionClient, sellerId: string): Promise<string> {
  const [store] = await tx.$queryRaw<Array<{ id: string }>>(Prisma.sql`
    SELECT id FROM stores WHERE seller_id = ${sellerId} ORDER BY id LIMIT 1 FOR UPDATE`);
  if (!store) throw notFound("store");
  return store.id;
}
