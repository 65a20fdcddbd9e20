/**
 * The reconciler (DESIGN §1): a repeatable job, every 30 s, that enqueues every due row that has no job, covering a
 * crash between commit and enqueue and a Redis flush. Each sweep is a function of the database alone, so running it
 * twice, or on several workers at once, enqueues nothing twice (job ids are row ids).
 */
import type { WorkerDeps } from "../deps";
import { enqueueDueDeliveries } from "./due-deliveries";
import { enqueueOverdueCharges } from "./overdue-charges";
import { enqueueStrandedInboxItems } from "./stranded-inbox-items";

/** The sweeps run on every reconciler tick; later issues add theirs here. */
const SWEEPS: Array<{ name: string; run: (deps: WorkerDeps) => Promise<number> }> = [
  { name: "due-deliveries", run: enqueueDueDeliveries },
  { name: "overdue-charges", run: enqueueOverdueCharges },
  { name: "stranded-inbox-items", run: enqueueStrandedInboxItems },
];

/**
 * Runs every sweep and logs how many jobs each enqueued.
 * @returns total jobs enqueued
 */
export async function reconcile(deps: WorkerDeps): Promise<number> {
  let total = 0;
  for (const sweep of SWEEPS) {
    const enqueued = await sweep.run(deps);
    if (enqueued > 0) deps.logger.info("reconciler enqueued", { sweep: sweep.name, enqueued });
    total += enqueued;
  }
  return total;
}
