/**
 * Reading withdrawals: the seller's in the panel and with an API key (always within one seller and mode, so another's
 * id reads like an unknown one), and the operators' view of stuck ones (DESIGN §7, issue "Ops").
 */
import type { DbClient, Prisma } from "@lm/db";
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
  const found = isId("withdrawal", id)
    ? await db.withdrawal.findFirst({
        where: { id, seller_id: scope.sellerId, ...(scope.mode === undefined ? {} : { mode: scope.mode }) },
        include: { payout_key: true },
      })
    : null;
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
  return db.withdrawal.findMany({
    where: {
      seller_id: scope.sellerId,
      mode: scope.mode,
      ...(filters.status === undefined ? {} : { status: filters.status }),
      ...(page.id === undefined ? {} : { id: page.id }),
    },
    include: { payout_key: true },
    orderBy: page.orderBy,
    take: page.take,
  });
}

/** The `where` of withdrawals still `pending` or `processing` and untouched since `WITHDRAWAL_STUCK_AFTER_MS`. */
export function stuckWithdrawalsWhere(now: Date): Prisma.WithdrawalWhereInput {
  return {
    status: { in: ["pending", "processing"] },
    updated_at: { lte: new Date(now.getTime() - WITHDRAWAL_STUCK_AFTER_MS) },
  };
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
  return db.withdrawal.findMany({
    where: {
      ...(filters.sellerId === undefined ? {} : { seller_id: filters.sellerId }),
      ...(filters.stuck ? stuckWithdrawalsWhere(filters.now) : {}),
      ...(page.id === undefined ? {} : { id: page.id }),
    },
    include: { payout_key: true },
    orderBy: page.orderBy,
    take: page.take,
  });
}
