/**
 * Reconciler sweep of endpoint recoveries (DESIGN §8 "Recover", §10 "Sweeps"): every recovery not complete and older
 * than {@link GRACE_MS} is offered to the `webhook-recovery` queue with `jobId` = its id, covering a job lost with Redis
 * or given up; a recovery whose job is waiting or running makes the offer a no-op, and a run resumes at the recovery's
 * cursor. Only running recoveries are read, through their partial index.
 */
import type { WorkerDeps } from "../deps";
import { offerRows, putFailedJobsBack } from "./offer-rows";

/** Most recoveries offered per tick, oldest first. */
const BATCH_SIZE = 100;
/** Recoveries younger than this are left to the job enqueued when they were recorded, ms. */
const GRACE_MS = 60_000;

/**
 * Offers the recoveries still running to the `webhook-recovery` queue, after putting its failed jobs back.
 * @returns how many were offered
 */
export async function enqueueRunningRecoveries(deps: WorkerDeps): Promise<number> {
  await putFailedJobsBack(deps, "webhook-recovery");
  const running = await deps.repos.webhookRecoveries.listRunningWebhookRecoveryIds(
    new Date(deps.now().getTime() - GRACE_MS),
    BATCH_SIZE,
  );
  return offerRows(
    deps,
    "webhook-recovery",
    running.map((id) => ({ data: { recoveryId: id }, jobId: id })),
  );
}
