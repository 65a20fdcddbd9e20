/**
 * The seller profile (DESIGN §7 "Seller"): its wire form (the document always masked), reads, the owner's changes
 * (`trade_name`, `email`) and the record every change leaves, an operator's KYC decision included: `seller.updated`
 * for both modes' endpoints of every store of the seller, and an item in the seller's feed, in the change's database
 * transaction.
 */
import type { Seller, Repositories, SellerProfileUpdate } from "@lm/db";
import { serializeSeller } from "@lm/wire";
import type { UseCaseDeps } from "../deps";
import { isEmailAddress, normalizeEmail } from "../email";
import { notFound, validationFailed } from "../errors";
import { enqueueDeliveries, recordEvent } from "../events/record-event";
import { notifySeller } from "../notifications/notifications";

/**
 * Seller `sellerId`.
 * @throws ApiError `resource_not_found` when it does not exist
 */
export async function findSeller(repos: Repositories, sellerId: string): Promise<Seller> {
  const seller = await repos.sellers.findSellerById(sellerId);
  if (!seller) throw notFound("seller");
  return seller;
}

/** The seller owning store `storeId` (the merchant API's `GET /v1/seller`). */
export async function findStoreSeller(repos: Repositories, storeId: string): Promise<Seller> {
  const store = await repos.sellers.getStoreWithSeller(storeId);
  return store.seller;
}

/**
 * Records a change of `seller` (already written with `tx`): `seller.updated` for every store and mode, and a feed item.
 * @returns the deliveries to enqueue after commit
 */
export async function recordSellerUpdated(
  tx: Repositories,
  seller: Seller,
  feed: { title: string; message: string; data: Record<string, string> },
  now: Date,
): Promise<string[]> {
  const stores = await tx.sellers.listStoreIdsOfSeller(seller.id);
  const object = serializeSeller(seller) as unknown as Record<string, unknown>;
  const deliveryIds: string[] = [];
  for (const store of stores) {
    for (const mode of ["live", "test"] as const) {
      const recorded = await recordEvent(tx, {
        scope: { storeId: store.id, mode },
        type: "seller.updated",
        object,
        now,
      });
      deliveryIds.push(...recorded.deliveryIds);
    }
  }
  await notifySeller(tx, { sellerId: seller.id, type: "seller.updated", ...feed });
  return deliveryIds;
}

/** What an owner may change (legal name and document change only through operators). */
export interface SellerProfileChanges {
  /** 1 to 200 characters; null clears it. */
  trade_name?: string | null;
  email?: string;
}

/**
 * Applies `changes` to seller `sellerId` by user `userId`; a request that changes nothing writes nothing.
 * @returns the seller after the change
 * @throws ApiError `validation_failed` (param `email`) for an address that is not valid
 */
export async function updateSellerProfile(
  deps: UseCaseDeps,
  actor: { sellerId: string; userId: string },
  changes: SellerProfileChanges,
): Promise<Seller> {
  const email = changes.email === undefined ? undefined : normalizeEmail(changes.email);
  if (email !== undefined && !isEmailAddress(email)) throw validationFailed("Email is not a valid address.", "email");
  const current = await findSeller(deps.repos, actor.sellerId);
  const data: SellerProfileUpdate = {};
  if (changes.trade_name !== undefined && changes.trade_name !== current.trade_name)
    data.trade_name = changes.trade_name;
  if (email !== undefined && email !== current.email) data.email = email;
  const fields = Object.keys(data);
  if (fields.length === 0) return current;
  const now = deps.now();
  const { seller, deliveryIds } = await deps.repos.transaction(async (tx) => {
    const updated = await tx.sellers.updateSellerProfileFields(actor.sellerId, data, now);
    const ids = await recordSellerUpdated(
      tx,
      updated,
      {
        title: "Seller profile updated",
        message: `The seller profile's ${fields.join(" and ")} changed.`,
        data: { fields: fields.join(","), user_id: actor.userId },
      },
      now,
    );
    return { seller: updated, deliveryIds: ids };
  });
  await enqueueDeliveries(deps, deliveryIds);
  return seller;
}
