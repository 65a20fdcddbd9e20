/**
 * Reconciler check of the ledger (DESIGN §7): every running balance must equal the sum of its balance transactions,
 * and its `reserved` the open refunds and withdrawals. A drift is a bug: it is logged at error level with the figures
 * (never fixed silently); {@link findBalanceDrift} returns the same list for a metric. Each tick checks the balances
 * changed in the last {@link WINDOW_MS}, so a change is checked on many ticks and the cost follows the activity.
 */
import { findBalanceDrift } from "@lm/domain";
import type { WorkerDeps } from "../deps";

/** How far back a tick looks for changed balances, ms (many reconciler intervals). */
const WINDOW_MS = 10 * 60_000;

/**
 * Logs every drifted balance among those changed recently.
 * @returns how many balances drifted
 */
export async function checkBalanceDrift(deps: Pick<WorkerDeps, "db" | "logger" | "now">): Promise<number> {
  const drifts = await findBalanceDrift(deps.db, { since: new Date(deps.now().getTime() - WINDOW_MS) });
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
