/**
 * Reading refunds for the merchant API: always within the caller's store and mode, so another store's or mode's id
 * reads like an unknown one (404).
 */
import { findRefundInStore, listRefundsPage, type DbClient, type Refund } from "@lm/db";
import type { MerchantScope } from "../deps";
import { notFound } from "../errors";
import { isId } from "../ids";
import type { PageArgs } from "../paging";

/**
 * Refund `id` of `scope`.
 * @throws ApiError `resource_not_found` when it is malformed, unknown, or of another store or mode
 */
export async function findRefund(db: DbClient, scope: MerchantScope, id: string): Promise<Refund> {
  const found = isId("refund", id) ? await findRefundInStore(db, scope, id) : null;
  if (!found) throw notFound("refund");
  return found;
}

/** One page of the refunds of charge `transactionId` (already checked to be `scope`'s), in the page's order. */
export function listRefunds(
  db: DbClient,
  scope: MerchantScope,
  transactionId: string,
  page: PageArgs,
): Promise<Refund[]> {
  return listRefundsPage(db, scope, transactionId, page);
}
