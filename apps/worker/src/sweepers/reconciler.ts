/**
 * The reconciler (DESIGN §1): a repeatable job, every 30 s, that enqueues every due row that has no job, covering a
 * crash between commit and enqueue and a Redis flush, and checks balances against their ledger (rows past their life
 * are retention's, `retention.processor.ts`). Each sweep is a function of
 * the database alone, so running it twice enqueues nothing twice (job ids are row ids), and it reads only its due rows
 * through an index built for them, so a tick costs the same whatever the history (DESIGN §10 "Sweeps"). Ticks never
 * overlap, across every worker (`sweep-schedule.ts`).
 */
import type { WorkerDeps } from "../deps";
import { sweepOrderedDeliveries } from "@lm/domain";
import { enqueueDueDeliveries } from "./due-deliveries";
import { enqueueStrandedInboxItems } from "./stranded-inbox-items";
import { enqueueStrandedPayouts } from "./acquirer-submissions";
import { checkBalanceDrift } from "./balance-drift";
import { enqueueRunningRecoveries } from "./running-recoveries";
import { enqueueProcessingBatches } from "./processing-batches";
import { enqueueAdvancingTestClocks } from "./due-recurrences";

/** The sweeps run on every reconciler tick. */
const SWEEPS: Array<{ name: string; run: (deps: WorkerDeps) => Promise<number> }> = [
  { name: "due-deliveries", run: enqueueDueDeliveries },
  { name: "ordered-deliveries", run: sweepOrderedDeliveries },
  { name: "running-recoveries", run: enqueueRunningRecoveries },
  { name: "processing-batches", run: enqueueProcessingBatches },
  { name: "advancing-test-clocks", run: enqueueAdvancingTestClocks },
  { name: "stranded-inbox-items", run: enqueueStrandedInboxItems },
  { name: "stranded-refunds", run: (deps) => enqueueStrandedPayouts(deps, "refund") },
  { name: "stranded-withdrawals", run: (deps) => enqueueStrandedPayouts(deps, "withdrawal") },
  { name: "balance-drift", run: checkBalanceDrift },
];

/**
 * Runs every sweep and logs how many rows each offered to a queue.
 * @returns total rows swept
 */
export async function reconcile(deps: WorkerDeps): Promise<number> {
  let total = 0;
  for (const sweep of SWEEPS) {
    const rows = await sweep.run(deps);
    if (rows > 0) deps.logger.info("reconciler swept", { sweep: sweep.name, rows });
    total += rows;
  }
  return total;
}
