/**
 * Settling a refund or a withdrawal (DESIGN §7 "The acquirer does the moving"): the acquirer's outcome, read from a
 * stored inbound notification, moves the row from `pending`/`processing` to its success (the amount leaves
 * `reserved`) or to `failed` (the kind's reversal puts the amount back in `available`), each with its event. Each move
 * is a conditional update, so a repeated or late outcome changes nothing and is told apart as `already_settled` or
 * `conflicting_outcome`.
 */
import type { Repositories } from "@lm/db";
import { ACQUIRER_REJECTED, reporterAnomaly, type Reporter } from "../acquirers";
import type { Settlement, TransferStatus } from "../inbound";
import { appendBalanceTransaction, releaseReserved } from "../balance/ledger";
import { PAYOUT_SUBMISSIONS, reloadPayout, type PayoutKind, type PayoutRow } from "./payout-kind";

/** What the acquirer reports of a refund or a withdrawal, as the kind's outcome reader gives it. */
export interface PayoutOutcomeReport {
  /** Integer centavos moved. */
  amount: number;
  status: TransferStatus;
  /** The end-to-end id of the money moved (a refund's return, `rtrId`; a withdrawal's payment). */
  endToEndId: string;
}

/**
 * The outcome of a repeated or late notification for a refund or withdrawal already settled: nothing changes, but an
 * outcome that contradicts the stored one (money moved after we gave up, or the other way round) is an anomaly for
 * operators (`conflicting_outcome: <stored status>`).
 * @param reported - what the acquirer reports now; `stored` - the row's final status
 */
export function alreadySettled<T extends { deliveryIds: string[] }>(
  base: T,
  reported: "succeeded" | "failed",
  stored: string,
): T & Settlement {
  const agrees = reported === "failed" ? stored === "failed" : stored === "succeeded" || stored === "completed";
  return agrees
    ? { ...base, result: "already_settled", error: null }
    : { ...base, result: "conflicting_outcome", error: `conflicting_outcome: ${stored}` };
}

/**
 * Moves `row` of `kind` to `failed` with `failure.reason` (and the end-to-end id, when the acquirer gave one), gives
 * back what its creation took (a `<noun>_reversal` balance transaction) and records `<noun>.failed`, inside `tx`.
 * @returns the deliveries to enqueue, or null when the row was already settled (nothing written)
 */
export async function failPayout<Row extends PayoutRow>(
  tx: Repositories,
  kind: PayoutKind<Row>,
  row: Row,
  failure: { reason: string; endToEndId?: string },
  now: Date,
): Promise<string[] | null> {
  await kind.lockBeforeSettling?.(tx, row);
  const failed = { reason: failure.reason, endToEndId: failure.endToEndId ?? null };
  if (!(await tx.payouts.markOutgoingRowFailed(PAYOUT_SUBMISSIONS[kind.noun].table, row.id, failed, now))) return null;
  await kind.restoreOnFailure?.(tx, row, now);
  await appendBalanceTransaction(tx, {
    sellerId: row.seller_id,
    mode: row.mode,
    type: `${kind.noun}_reversal`,
    amount: row.amount,
    sourceId: row.id,
    reservedDelta: -row.amount,
    now,
  });
  return kind.record(tx, await reloadPayout(tx, kind, row.id), "failed", now);
}

/**
 * Moves `row` of `kind` to its success under `endToEndId`, releases its reserve and records `<noun>.succeeded` (a
 * withdrawal's `.completed`), inside `tx`.
 * @returns the deliveries to enqueue, or null when the row was already settled
 */
async function succeedPayout<Row extends PayoutRow>(
  tx: Repositories,
  kind: PayoutKind<Row>,
  row: Row,
  endToEndId: string,
  now: Date,
): Promise<string[] | null> {
  await kind.lockBeforeSettling?.(tx, row);
  if (!(await tx.payouts.markOutgoingRowSucceeded(PAYOUT_SUBMISSIONS[kind.noun].table, row.id, endToEndId, now)))
    return null;
  await releaseReserved(tx, { sellerId: row.seller_id, mode: row.mode, amount: row.amount, now });
  return kind.record(tx, await reloadPayout(tx, kind, row.id), "succeeded", now);
}

/**
 * Applies the acquirer's `outcome` for `row` of `kind` inside `tx` (the caller writes the inbox item's outcome in
 * it): refused as `mode_mismatch` or `acquirer_mismatch` unless `reporter` holds the row's money
 * ({@link reporterAnomaly}), as `amount_mismatch` unless the amounts agree; `processing` changes nothing; otherwise the
 * row succeeds or fails, or, settled already, is {@link alreadySettled}.
 * @param base - what the settlement names besides its outcome (the refund's charge, the withdrawal)
 * @returns `base` with the outcome: `result` the kind's success status, `failed`, `processing`, `already_settled` or an
 *   anomaly code
 */
export async function settlePayoutOutcome<Row extends PayoutRow, Base extends object>(
  tx: Repositories,
  kind: PayoutKind<Row>,
  row: Row,
  base: Base,
  outcome: PayoutOutcomeReport,
  reporter: Reporter,
  now: Date,
): Promise<Base & Settlement> {
  const settling = { ...base, deliveryIds: [] };
  const refused = reporterAnomaly(reporter, { mode: row.mode, acquirer_id: kind.acquirerIdOf(row) }, kind.noun);
  if (refused !== null) return { ...settling, ...refused };
  if (outcome.amount !== row.amount) {
    return {
      ...settling,
      result: "amount_mismatch",
      error: `amount_mismatch: expected ${row.amount}, received ${outcome.amount}`,
    };
  }
  if (outcome.status === "processing") return { ...settling, result: "processing", error: null };
  const deliveryIds =
    outcome.status === "succeeded"
      ? await succeedPayout(tx, kind, row, outcome.endToEndId, now)
      : await failPayout(tx, kind, row, { reason: ACQUIRER_REJECTED, endToEndId: outcome.endToEndId }, now);
  if (deliveryIds === null) {
    return alreadySettled(settling, outcome.status, (await reloadPayout(tx, kind, row.id)).status);
  }
  const result = outcome.status === "succeeded" ? kind.succeeded : "failed";
  return { ...settling, result, error: null, deliveryIds };
}
