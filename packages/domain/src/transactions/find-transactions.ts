/**
 * Reading charges for the merchant API: always within the caller's store and mode, so another store's or another
 * mode's id reads exactly like an unknown one (404).
 */
import type { ChargeListStatus, Transaction, Repositories } from "@lm/db";
import type { MerchantScope } from "../deps";
import { notFound } from "../errors";
import { isId } from "../ids";
import type { PageArgs } from "../paging";

/**
 * The charge `id` of `scope`.
 * @throws ApiError `resource_not_found` when it is malformed, unknown, or of another store or mode
 */
export async function findTransaction(repos: Repositories, scope: MerchantScope, id: string): Promise<Transaction> {
  const found = await findStoreTransaction(repos, scope.storeId, id);
  if (found.mode !== scope.mode) throw notFound("transaction");
  return found;
}

/**
 * The charge `id` of store `storeId`, of either mode: the panel reads a charge by its id alone (DESIGN §15), as it
 * reads a withdrawal.
 * @throws ApiError `resource_not_found` when it is malformed, unknown, or of another store
 */
export async function findStoreTransaction(repos: Repositories, storeId: string, id: string): Promise<Transaction> {
  // By id alone (the charges repository says why), the store checked here.
  const found = isId("transaction", id) ? await repos.charges.findChargeById(id) : undefined;
  if (found?.store_id !== storeId) throw notFound("transaction");
  return found;
}

/** Filters of the transaction list. */
export interface TransactionFilters {
  /** The status as reads show it: `pending` excludes charges past `expires_at`, `expired` includes them. */
  status?: ChargeListStatus;
  external_id?: string;
  /** A recurrence's charges only (DESIGN §14). */
  recurrence_id?: string;
}

/** One page of `scope`'s charges matching `filters`, in the page's order. */
export function listTransactions(
  repos: Repositories,
  scope: MerchantScope,
  filters: TransactionFilters,
  page: PageArgs,
  now: Date,
): Promise<Transaction[]> {
  return repos.charges.listChargesPage(
    scope,
    { status: filters.status, externalId: filters.external_id, recurrenceId: filters.recurrence_id },
    page,
    now,
  );
}
