/**
 * Reconciler check of the ledger (DESIGN §7): every running balance must equal the sum of its balance transactions,
 * and its `reserved` the open refunds and withdrawals. A drift is a bug: it is logged at error level with the figures
 * (never fixed silently), and `lm_ledger_drift_centavos{mode}` is set to the tick's total drift per mode (0 when all
 * agree). Each tick checks the balances changed in the last {@link WINDOW_MS}, so a change is checked on many ticks and
 * the cost follows the activity.
 */
import { findBalanceDrift } from "@lm/domain";
import { setLedgerDrift } from "@lm/metrics";
import type { WorkerDeps } from "../deps";

/** How far back a tick looks for changed balances, ms (many reconciler intervals). */
const WINDOW_MS = 10 * 60_000;

/**
 * Logs every drifted balance among those changed recently.
 * @returns how many balances drifted
 */
export async function checkBalanceDrift(deps: Pick<WorkerDeps, "db" | "logger" | "now" | "metrics">): Promise<number> {
  const drifts = await findBalanceDrift(deps.db, { since: new Date(deps.now().getTime() - WINDOW_MS) });
  const total = { live: 0, test: 0 };
  for (const drift of drifts) {
    total[drift.mode] += Math.abs(drift.available - drift.entriesSum) + Math.abs(drift.reserved - drift.openSum);
    deps.logger.error("balance drift", {
      seller_id: drift.sellerId,
      mode: drift.mode,
      available: drift.available,
      entries_sum: drift.entriesSum,
      reserved: drift.reserved,
      open_sum: drift.openSum,
    });
  }
  setLedgerDrift(deps.metrics, "live", total.live);
  setLedgerDrift(deps.metrics, "test", total.test);
  return drifts.length;
}
