/**
 * Withdrawals (`withdrawals`, DESIGN §7): money sent from a seller's balance to one of its payout keys by the
 * acquirer. Reads come with the payout key, which every reply shows masked.
 */
import { onPrisma, inUnitOfWork, type Connection } from "../connection";
import type { DbClient } from "../client";
import type { PageArgs } from "../page";
import type { PayoutKey, Prisma, Withdrawal } from "../generated/client";
import { sql, sqlQuery } from "../sql";

/** A withdrawal with its payout key. */
export type WithdrawalWithPayoutKey = Withdrawal & { payout_key: PayoutKey };

/** The `where` of withdrawals still `pending` or `processing` and untouched since `untouchedSince`: stuck ones. */
function stuckWithdrawalsWhere(untouchedSince: Date): Prisma.WithdrawalWhereInput {
  return { status: { in: ["pending", "processing"] }, updated_at: { lte: untouchedSince } };
}

/**
 * Withdrawal `id` of seller `scope.sellerId` (in `scope.mode`, or of any mode when it is not given), with its payout
 * key, or null when it is unknown or another seller's or mode's.
 */
export function findWithdrawalOfSeller(
  db: DbClient,
  scope: { sellerId: string; mode?: "live" | "test" },
  id: string,
): Promise<WithdrawalWithPayoutKey | null> {
  return db.withdrawal.findFirst({
    where: { id, seller_id: scope.sellerId, ...(scope.mode === undefined ? {} : { mode: scope.mode }) },
    include: { payout_key: true },
  });
}

/**
 * One page of seller `scope.sellerId`'s withdrawals in `scope.mode`, of status `filters.status` when given, with their
 * payout keys, by id (the cursor bound `page.id`) in `page.orderBy`'s order.
 */
export function listWithdrawalsPage(
  db: DbClient,
  scope: { sellerId: string; mode: "live" | "test" },
  filters: { status?: Withdrawal["status"] },
  page: PageArgs,
): Promise<WithdrawalWithPayoutKey[]> {
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

/**
 * Operators' page: withdrawals of any seller and mode (or of `filters.sellerId`), with their payout keys, only the
 * stuck ones (still `pending` or `processing`, untouched since `filters.stuckSince`) when `stuckSince` is given.
 */
export function listWithdrawalsPageForOps(
  db: DbClient,
  filters: { sellerId?: string; stuckSince?: Date },
  page: PageArgs,
): Promise<WithdrawalWithPayoutKey[]> {
  return db.withdrawal.findMany({
    where: {
      ...(filters.sellerId === undefined ? {} : { seller_id: filters.sellerId }),
      ...(filters.stuckSince === undefined ? {} : stuckWithdrawalsWhere(filters.stuckSince)),
      ...(page.id === undefined ? {} : { id: page.id }),
    },
    include: { payout_key: true },
    orderBy: page.orderBy,
    take: page.take,
  });
}

/** Ids of seller `sellerId`'s stuck withdrawals: still `pending` or `processing`, untouched since `stuckSince`. */
export async function listStuckWithdrawalIdsOfSeller(
  db: DbClient,
  sellerId: string,
  stuckSince: Date,
): Promise<string[]> {
  const rows = await db.withdrawal.findMany({
    where: { seller_id: sellerId, ...stuckWithdrawalsWhere(stuckSince) },
    select: { id: true },
  });
  return rows.map((row) => row.id);
}

/** Withdrawal `id` with its payout key, or null. */
export function findWithdrawalWithPayoutKey(db: DbClient, id: string): Promise<WithdrawalWithPayoutKey | null> {
  return db.withdrawal.findUnique({ where: { id }, include: { payout_key: true } });
}

/**
 * What a withdrawal request checks of seller `sellerId`, read under a share lock of its row that lasts until the
 * transaction `tx` ends: a 2FA recovery (which locks withdrawals) or a KYC decision cannot slip between the check and
 * the debit.
 * @returns undefined for an unknown seller
 */
export async function lockSellerForWithdrawal(
  tx: Prisma.TransactionClient,
  sellerId: string,
): Promise<{ withdrawals_locked_until: Date | null; kyc_status: string } | undefined> {
  const [seller] = await sqlQuery<{ withdrawals_locked_until: Date | null; kyc_status: string }>(
    tx,
    sql`
      SELECT withdrawals_locked_until, kyc_status FROM sellers WHERE id = ${sellerId} FOR SHARE`,
  );
  return seller;
}

/** Inserts `withdrawal` and returns it. */
export function insertWithdrawal(db: DbClient, withdrawal: Prisma.WithdrawalUncheckedCreateInput): Promise<Withdrawal> {
  return db.withdrawal.create({ data: withdrawal });
}

/** This repository bound to connection `c` (`createRepositories`): each function without its client. */
export function withdrawalsRepository(c: Connection) {
  return {
    ...onPrisma(c, {
      findWithdrawalOfSeller,
      listWithdrawalsPage,
      listWithdrawalsPageForOps,
      listStuckWithdrawalIdsOfSeller,
      findWithdrawalWithPayoutKey,
      insertWithdrawal,
    }),
    ...inUnitOfWork(c, { lockSellerForWithdrawal }),
  };
}
