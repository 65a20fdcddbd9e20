/**
 * Reading a seller's balance and ledger (DESIGN §7): one row for the balance (the running total), a page of entries by
 * id for the list. Both panel and merchant routes read through here.
 */
import type { BalanceTransaction, Repositories } from "@lm/db";
import { type Balance, serializeBalance } from "@lm/wire";
import type { MerchantScope } from "../deps";
import type { PageArgs } from "../paging";
import type { BalanceScope } from "./ledger";

/** The balance of `scope`, read from its running total (O(1)). */
export async function getBalance(repos: Repositories, scope: BalanceScope): Promise<Balance> {
  return serializeBalance(scope.mode, await repos.ledger.findBalance(scope));
}

/** One page of `scope`'s balance transactions, in the page's order. */
export function listBalanceTransactions(
  repos: Repositories,
  scope: BalanceScope,
  page: PageArgs,
): Promise<BalanceTransaction[]> {
  return repos.ledger.listBalanceTransactionsPage(scope, page);
}

/** The seller and mode an API key acts for (its store's seller, the key's mode): the scope of balances and withdrawals. */
export async function merchantSellerScope(repos: Repositories, scope: MerchantScope): Promise<BalanceScope> {
  const store = await repos.sellers.getStoreById(scope.storeId);
  return { sellerId: store.seller_id, mode: scope.mode };
}
