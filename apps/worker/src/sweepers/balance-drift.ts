/**
 * Reconciler check of the ledger (DESIGN §7): every running balance must equal the sum of its balance transactions,
 * and its `reserved` the open refunds and withdrawals. A drift is a bug: it is logged at error level with the figures
 * (never fixed silently), and `lm_ledger_drift_centavos{mode}` is set to the tick's total drift per mode (0 when all
 * agree). Each tick checks the balances changed in the last {@link WINDOW_MS}, so a change is checked on many ticks, and
 * sums only their entries since their checkpoints (`findRecentBalanceDrift`), so the cost follows the activity, never
 * the ledger's history (DESIGN §10 "Sweeps").
 */
import { findRecentBalanceDrift } from "@lm/domain";
import { setLedgerDrift } from "@lm/metrics";
import type { WorkerDeps } from "../deps";

/** How far back a tick looks for changed balances, ms (many reconciler intervals). */
const WINDOW_MS = 10 * 60_000;

/**
 * Logs every drifted balance among those changed recently.
 * @returns how many balances drifted
 */
export async function checkBalanceDrift(
  deps: Pick<WorkerDeps, "repos" | "logger" | "now" | "metrics">,
): Promise<number> {
  const now = deps.now();
  const drifts = await findRecentBalanceDrift(deps.repos, { since: new Date(now.getTime() - WINDOW_MS), now });
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
