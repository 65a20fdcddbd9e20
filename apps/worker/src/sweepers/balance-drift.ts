/**
 * Reconciler check of the ledger (DESIGN §7): every running balance must equal the sum of its balance transactions,
 * and its `reserved` the open refunds and withdrawals. A drift is a bug: it is logged at error level with the figures
 * (never fixed silently); {@link findBalanceDrift} returns the same list for a metric.
 */
import { findBalanceDrift } from "@lm/domain";
import type { WorkerDeps } from "../deps";

/**
 * Logs every drifted balance.
 * @returns how many balances drifted
 */
export async function checkBalanceDrift(deps: WorkerDeps): Promise<number> {
  const drifts = await findBalanceDrift(deps.db);
  for (const drift of drifts) {
    deps.logger.error("balance drift", {
      seller_id: drift.sellerId,
      mode: drift.mode,
      available: drift.available,
      entries_sum: drift.entriesSum,
      reserved: drift.reserved,
      open_sum: drift.openSum,
    });
  }
  return drifts.length;
}
