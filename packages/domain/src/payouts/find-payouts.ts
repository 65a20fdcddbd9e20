/**
 * Reading refunds and withdrawals (DESIGN §7): a store's refunds for the merchant API (always within the caller's
 * store and mode, so another store's or mode's id reads like an unknown one, 404); a seller's withdrawals in the panel
 * and with an API key (always within one seller and mode, likewise), and the operators' view of stuck ones.
 */
import type { Refund, Repositories } from "@lm/db";
import type { MerchantScope } from "../deps";
import { notFound } from "../errors";
import { isId } from "../ids";
import type { PageArgs } from "../paging";
import type { PayoutKindName } from "./payout-kind";
import type { WithdrawalWithPayoutKey } from "@lm/db";

/**
 * What `read` finds of the `kind` id `id`, never read when `id` is malformed.
 * @throws ApiError `resource_not_found` when it is malformed or `read` finds nothing
 */
async function foundOrNotFound<T>(kind: PayoutKindName, id: string, read: () => Promise<T | null>): Promise<T> {
  const found = isId(kind, id) ? await read() : null;
  if (!found) throw notFound(kind);
  return found;
}

/**
 * Refund `id` of `scope`.
 * @throws ApiError `resource_not_found` when it is malformed, unknown, or of another store or mode
 */
export function findRefund(repos: Repositories, scope: MerchantScope, id: string): Promise<Refund> {
  return foundOrNotFound("refund", id, () => repos.refunds.findRefundInStore(scope, id));
}

/** One page of the refunds of charge `transactionId` (already checked to be `scope`'s), in the page's order. */
export function listRefunds(
  repos: Repositories,
  scope: MerchantScope,
  transactionId: string,
  page: PageArgs,
): Promise<Refund[]> {
  return repos.refunds.listRefundsPage(scope, transactionId, page);
}

/** A withdrawal's status. */
export type WithdrawalStatus = WithdrawalWithPayoutKey["status"];

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
export function findWithdrawal(
  repos: Repositories,
  scope: { sellerId: string; mode?: "live" | "test" },
  id: string,
): Promise<WithdrawalWithPayoutKey> {
  return foundOrNotFound("withdrawal", id, () => repos.withdrawals.findWithdrawalOfSeller(scope, id));
}

/** One page of `scope`'s withdrawals, optionally of one status, in the page's order. */
export function listWithdrawals(
  repos: Repositories,
  scope: WithdrawalScope,
  filters: { status?: WithdrawalStatus },
  page: PageArgs,
): Promise<WithdrawalWithPayoutKey[]> {
  return repos.withdrawals.listWithdrawalsPage(scope, filters, page);
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
  repos: Repositories,
  filters: { sellerId?: string; stuck?: boolean; now: Date },
  page: PageArgs,
): Promise<WithdrawalWithPayoutKey[]> {
  return repos.withdrawals.listWithdrawalsPageForOps(
    { sellerId: filters.sellerId, stuckSince: filters.stuck ? stuckSince(filters.now) : undefined },
    page,
  );
}

/** The ids of seller `sellerId`'s withdrawals stuck at `now` (see {@link WITHDRAWAL_STUCK_AFTER_MS}). */
export async function findStuckWithdrawalIds(repos: Repositories, sellerId: string, now: Date): Promise<Set<string>> {
  return new Set(await repos.withdrawals.listStuckWithdrawalIdsOfSeller(sellerId, stuckSince(now)));
}
