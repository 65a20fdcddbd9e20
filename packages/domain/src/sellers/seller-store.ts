/**
 * The store a seller's panel and operators act on: the seller's first store (`seller:create` makes exactly one).
 */
import type { Store, Repositories } from "@lm/db";
import { notFound } from "../errors";

/**
 * The seller's store, the oldest if there were ever several.
 * @throws ApiError `resource_not_found` ("seller") when the seller has no store (or does not exist)
 */
export async function findSellerStore(repos: Repositories, sellerId: string): Promise<Store> {
  const store = await repos.sellers.findOldestStoreOfSeller(sellerId);
  if (!store) throw notFound("seller");
  return store;
}
