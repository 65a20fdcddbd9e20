/**
 * Reading charges for the merchant API: always within the caller's store and mode, so another store's or another
 * mode's id reads exactly like an unknown one (404).
 */
import { Prisma, sqlQuery, type Db, type DbClient, type Transaction } from "@lm/db";
import type { MerchantScope } from "../deps";
import { notFound } from "../errors";
import { isId } from "../ids";
import type { PageArgs } from "../paging";

/** The columns of a charge, named (a prepared statement must not select `*`, see `sqlQuery`). */
export const TRANSACTION_COLUMNS = Object.values(Prisma.TransactionScalarFieldEnum).join(", ");

/**
 * The charge `id` of `scope`.
 * @throws ApiError `resource_not_found` when it is malformed, unknown, or of another store or mode
 */
export async function findTransaction(db: Db, scope: MerchantScope, id: string): Promise<Transaction> {
  // Plain SQL: the polling safety net's hot path (issue 14). By id alone, the scope checked here: a prepared
  // statement that also named the store and mode ran, on its generic plan, through the (store_id, mode, external_id)
  // index whenever the statistics expected as few rows for the store as for the id, reading all of its charges.
  const [found] = isId("transaction", id)
    ? await sqlQuery<Transaction>(db.pool, `SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE id = $1`, [id])
    : [];
  if (found?.store_id !== scope.storeId || found.mode !== scope.mode) throw notFound("transaction");
  return found;
}

/** Filters of the transaction list. */
export interface TransactionFilters {
  /** The status as reads show it: `pending` excludes charges past `expires_at`, `expired` includes them. */
  status?: "pending" | "paid" | "expired" | "canceled" | "refunded";
  external_id?: string;
}

function statusWhere(status: TransactionFilters["status"], now: Date): Prisma.TransactionWhereInput {
  if (status === "pending") return { status: "pending", expires_at: { gt: now } };
  if (status === "expired") return { OR: [{ status: "expired" }, { status: "pending", expires_at: { lte: now } }] };
  return status === undefined ? {} : { status };
}

/** One page of `scope`'s charges matching `filters`, in the page's order. */
export function listTransactions(
  db: DbClient,
  scope: MerchantScope,
  filters: TransactionFilters,
  page: PageArgs,
  now: Date,
): Promise<Transaction[]> {
  return db.transaction.findMany({
    where: {
      store_id: scope.storeId,
      mode: scope.mode,
      ...statusWhere(filters.status, now),
      ...(filters.external_id === undefined ? {} : { external_id: filters.external_id }),
      ...(page.id === undefined ? {} : { id: page.id }),
    },
    orderBy: page.orderBy,
    take: page.take,
  });
}
