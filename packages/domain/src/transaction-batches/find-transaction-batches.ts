/**
 * Reading batches for the merchant API (DESIGN §13 "Batches"): always within the caller's store and mode, so another
 * store's or mode's batch reads exactly like an unknown one (404).
 */
import type { BatchItemsPage, Repositories, Transaction, TransactionBatch, TransactionBatchItem } from "@lm/db";
import type { MerchantScope } from "../deps";
import { notFound } from "../errors";
import { isId } from "../ids";
import type { PageArgs } from "../paging";

/**
 * Batch `id` of `scope`.
 * @throws ApiError `resource_not_found` when it is malformed, unknown, or of another store or mode
 */
export async function findTransactionBatch(
  repos: Repositories,
  scope: MerchantScope,
  id: string,
): Promise<TransactionBatch> {
  const found = isId("transactionBatch", id) ? await repos.transactionBatches.findTransactionBatchById(id) : null;
  if (found?.store_id !== scope.storeId || found.mode !== scope.mode) throw notFound("transaction batch");
  return found;
}

/** One page of `scope`'s batches, in the page's order. */
export function listTransactionBatches(
  repos: Repositories,
  scope: MerchantScope,
  page: PageArgs,
): Promise<TransactionBatch[]> {
  return repos.transactionBatches.listTransactionBatchesPage(scope, page);
}

/** An item of a batch with its charge, once made. */
export interface TransactionBatchItemWithCharge {
  item: TransactionBatchItem;
  /** The item's charge as it reads now, for a `succeeded` item; null otherwise. */
  charge: Transaction | null;
}

/**
 * One page of the items of batch `batchId` of `scope`, each with its charge.
 * @throws ApiError `resource_not_found` for a batch that is not `scope`'s (see {@link findTransactionBatch})
 */
export async function listTransactionBatchItems(
  repos: Repositories,
  scope: MerchantScope,
  batchId: string,
  page: BatchItemsPage,
): Promise<TransactionBatchItemWithCharge[]> {
  await findTransactionBatch(repos, scope, batchId);
  const items = await repos.transactionBatches.listTransactionBatchItemsPage(batchId, page);
  const chargeIds = items.flatMap((item) =>
    item.status === "succeeded" && item.transaction_id !== null ? [item.transaction_id] : [],
  );
  const charges = new Map((await repos.charges.findChargesByIds(chargeIds)).map((charge) => [charge.id, charge]));
  return items.map((item) => ({
    item,
    charge: item.transaction_id === null ? null : (charges.get(item.transaction_id) ?? null),
  }));
}
