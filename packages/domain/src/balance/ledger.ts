/**
 * The balance ledger (DESIGN §7): an append-only table of balance transactions per seller and mode, and a running
 * total per seller and mode (`balances`) changed in the same database transaction as each entry, so a balance read is
 * one row, never a sum over history. Every debit is one conditional `UPDATE ... WHERE available >= amount`: PostgreSQL
 * locks the balance row for the rest of the transaction, so concurrent debits queue on it and the second one sees the
 * first's result; none can take `available` below zero (a database trigger refuses it too, as a last line).
 *
 * Lock order, to stay free of deadlocks: a flow that also changes a charge locks the charge row first, then the
 * balance row (payment, refund creation and settlement all do so).
 */
import type {
  BalanceReconciliationRow,
  BalanceTransaction,
  LedgerScope,
  Repositories,
  NewBalanceTransaction,
  RecentReconciliation,
} from "@lm/db";
import { ApiError } from "../errors";
import { idFloor, newId } from "../ids";

/** Kind of a balance transaction (DESIGN §7). */
export type BalanceTransactionType = BalanceTransaction["type"];

/** Which mode's balance of which seller. */
export type BalanceScope = LedgerScope;

/** One movement to append. */
export interface BalanceMovement extends BalanceScope {
  type: BalanceTransactionType;
  /** Signed centavos: positive credits `available`, negative debits it. */
  amount: number;
  /** The charge, refund or withdrawal that causes it; one entry per source and type. */
  sourceId: string;
  /**
   * Centavos added to `reserved` in the same statement: `+amount` when a refund or withdrawal is created (its amount
   * waits there until settled), `-amount` for the reversal of a failed one. Default 0.
   */
  reservedDelta?: number;
  now: Date;
}

/**
 * Appends `movement` and moves the running totals, inside the caller's database transaction. A credit whose entry
 * exists already (same source and type) changes nothing, so settling twice is harmless; so does a dispute's, the one
 * debit that may take `available` below zero (DESIGN §11).
 * @returns the entry written, or null when it existed already (credits and disputes)
 * @throws ApiError `insufficient_funds` when a debit other than a dispute exceeds `available`
 */
export async function appendBalanceTransaction(
  tx: Repositories,
  movement: BalanceMovement,
): Promise<BalanceTransaction | null> {
  const { sellerId, mode, amount, now } = movement;
  const reservedDelta = movement.reservedDelta ?? 0;
  const entry: NewBalanceTransaction = {
    id: newId("balanceTransaction", now.getTime()),
    seller_id: sellerId,
    mode,
    type: movement.type,
    amount,
    source_id: movement.sourceId,
    created_at: now,
  };
  if (amount < 0 && movement.type !== "dispute") {
    if (!(await tx.ledger.debitBalance({ sellerId, mode, amount, reservedDelta, now })))
      throw new ApiError("insufficient_funds", "The available balance is lower than the amount.");
    return tx.ledger.insertBalanceTransaction(entry);
  }
  if (!(await tx.ledger.insertBalanceTransactionUnlessExists(entry))) return null;
  // The bank has already taken a dispute's money: its entry is written whatever `available` is (DESIGN §11).
  if (movement.type === "dispute") await tx.ledger.allowDisputeOverdraft();
  await tx.ledger.creditBalance({ sellerId, mode, amount, reservedDelta, now });
  return tx.ledger.findBalanceTransactionOrThrow(entry.id as string);
}

/**
 * Takes `amount` centavos out of `reserved` when a refund or withdrawal succeeds (its debit entry stays: the money
 * left). Inside the database transaction that settles it.
 */
export async function releaseReserved(
  tx: Repositories,
  scope: BalanceScope & { amount: number; now: Date },
): Promise<void> {
  await tx.ledger.releaseReservedBalance(scope);
}

/** A running total that disagrees with what it summarises. */
export interface BalanceDrift extends BalanceScope {
  /** `balances.available`, centavos. */
  available: number;
  /** Sum of the balance transactions, centavos. */
  entriesSum: number;
  /** `balances.reserved`, centavos. */
  reserved: number;
  /** Sum of the amounts of refunds and withdrawals still pending or processing, centavos. */
  openSum: number;
}

/**
 * How old a balance transaction must be before the drift check folds it into its balance's checkpoint, ms: longer than
 * any database transaction lasts and any clock between processes is off, so that no entry still to commit can sort
 * below a checkpoint (ids carry their writer's clock).
 */
export const LEDGER_SETTLE_MS = 5 * 60_000;

/**
 * The most entries one drift check folds into a balance's checkpoint (DESIGN §10 "Sweeps": a tick's cost never follows
 * the history). A balance's first check, with its whole history to sum, takes as many checks as its history has
 * chunks of this size, and is compared once caught up. It must exceed the entries the busiest balance gains between two
 * checks (100,000 in a 30 s tick is 3,333 a second), or that balance would never catch up.
 */
export const LEDGER_MAX_SETTLED_ENTRIES = 100_000;

/** Maps reconciliation rows (bigint centavos) to the balances that drifted. */
function drifted(rows: BalanceReconciliationRow[]): BalanceDrift[] {
  return rows
    .map((row) => ({
      sellerId: row.seller_id,
      mode: row.mode,
      available: Number(row.available),
      entriesSum: Number(row.entries_sum),
      reserved: Number(row.reserved),
      openSum: Number(row.open_sum),
    }))
    .filter((row) => row.available !== row.entriesSum || row.reserved !== row.openSum);
}

/**
 * Compares every running total with the sum of all its entries (and `reserved` with its open refunds and withdrawals),
 * entries without a balance row included: a scan of the whole ledger, for operators and benches (DESIGN §7), never a
 * sweep's work (see {@link findRecentBalanceDrift}).
 * @returns the balances that drifted (empty when all agree)
 */
export async function findBalanceDrift(repos: Repositories): Promise<BalanceDrift[]> {
  return drifted(await repos.ledger.listBalanceReconciliation());
}

/**
 * The reconciler's drift check (DESIGN §7, §10 "Sweeps"): compares the running totals changed since `check.since` with
 * the sum of their entries (and `reserved` with their open refunds and withdrawals). The sum is kept per balance as a
 * checkpoint over the entries older than {@link LEDGER_SETTLE_MS} plus the entries after it, and the check moves the
 * checkpoint, at most {@link LEDGER_MAX_SETTLED_ENTRIES} entries a check, so a tick's cost follows the activity since the
 * last ticks, not the ledger's size. A balance still catching up (its first checks, over a long history) is compared
 * once its checkpoint has caught up.
 * @param check.since - only the balances whose `updated_at` is at or after it
 * @param check.now - the current time: entries made before `now - LEDGER_SETTLE_MS` enter the checkpoints
 * @returns the balances that drifted (empty when all agree)
 */
export async function findRecentBalanceDrift(
  repos: Repositories,
  check: { since: Date; now: Date },
): Promise<BalanceDrift[]> {
  return drifted(await repos.ledger.listRecentBalanceReconciliation(recentReconciliation(check)));
}

/**
 * What the drift check of the balances changed since `check.since`, run at `check.now`, asks of the ledger: the
 * checkpoints may move up to the entries older than {@link LEDGER_SETTLE_MS}, by at most
 * {@link LEDGER_MAX_SETTLED_ENTRIES} entries each.
 */
export function recentReconciliation(check: { since: Date; now: Date }): RecentReconciliation {
  return {
    since: check.since,
    settledBelow: idFloor("balanceTransaction", check.now.getTime() - LEDGER_SETTLE_MS),
    maxSettledEntries: LEDGER_MAX_SETTLED_ENTRIES,
    now: check.now,
  };
}
