/**
 * Reading withdrawals: the seller's in the panel and with an API key (always within one seller and mode, so another's
 * id reads like an unknown one), and the operators' view of stuck ones (DESIGN §7).
 */
import {
  findWithdrawalOfSeller,
  listStuckWithdrawalIdsOfSeller,
  listWithdrawalsPage,
  listWithdrawalsPageForOps,
  type DbClient,
} from "@lm/db";
import { notFound } from "../errors";
import { isId } from "../ids";
import type { PageArgs } from "../paging";
import type { WithdrawalWithKey } from "./withdrawal.serializer";

/** A withdrawal's status. */
export type WithdrawalStatus = WithdrawalWithKey["status"];

/** Whose withdrawals, in which mode. */
export interface WithdrawalScope {
  sellerId: string;
  mode: "live" | "test";
}

/** A withdrawal left `pending` or `processing` for longer than this is stuck (the sandbox answers in seconds), ms. */
export const WITHDRAWAL_STUCK_AFTER_MS = 10 * 60_000;

/**
 * Withdrawal `id` of `scope` (of any mode when `scope.mode` is not given: the panel reads a withdrawal by its id).
 * @throws ApiError `resource_not_found` when it is malformed, unknown, or another seller's or mode's
 */
export async function findWithdrawal(
  db: DbClient,
  scope: { sellerId: string; mode?: "live" | "test" },
  id: string,
): Promise<WithdrawalWithKey> {
  const found = isId("withdrawal", id) ? await findWithdrawalOfSeller(db, scope, id) : null;
  if (!found) throw notFound("withdrawal");
  return found;
}

/** One page of `scope`'s withdrawals, optionally of one status, in the page's order. */
export function listWithdrawals(
  db: DbClient,
  scope: WithdrawalScope,
  filters: { status?: WithdrawalStatus },
  page: PageArgs,
): Promise<WithdrawalWithKey[]> {
  return listWithdrawalsPage(db, scope, filters, page);
}

/** The moment before which a withdrawal still `pending` or `processing` and untouched since is stuck at `now`. */
function stuckSince(now: Date): Date {
  return new Date(now.getTime() - WITHDRAWAL_STUCK_AFTER_MS);
}

/**
 * Operators' list: withdrawals of any seller and mode (or of `filters.sellerId`), only the stuck ones when
 * `filters.stuck`, in the page's order.
 */
export function listWithdrawalsForOps(
  db: DbClient,
  filters: { sellerId?: string; stuck?: boolean; now: Date },
  page: PageArgs,
): Promise<WithdrawalWithKey[]> {
  return listWithdrawalsPageForOps(
    db,
    { sellerId: filters.sellerId, stuckSince: filters.stuck ? stuckSince(filters.now) : undefined },
    page,
  );
}

/** The ids of seller `sellerId`'s withdrawals stuck at `now` (see {@link WITHDRAWAL_STUCK_AFTER_MS}). */
export async function findStuckWithdrawalIds(db: DbClient, sellerId: string, now: Date): Promise<Set<string>> {
  return new Set(await listStuckWithdrawalIdsOfSeller(db, sellerId, stuckSince(now)));
}
