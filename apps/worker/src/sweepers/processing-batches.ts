/**
 * Reconciler sweep of batches of charges (DESIGN §13 "Batches", §1): every batch still `processing` and older than
 * {@link GRACE_MS} is offered to the `transaction-batch` queue with `jobId` = its id, covering a job lost with Redis or
 * given up; a batch whose job is waiting or running makes the offer a no-op, and a run resumes at its first pending
 * item. Only processing batches are read, through their partial index.
 */
import type { WorkerDeps } from "../deps";
import { offerRows, putFailedJobsBack } from "./offer-rows";

/** Most batches offered per tick, oldest first. */
const BATCH_SIZE = 100;
/** Batches younger than this are left to the job enqueued when they were written, ms. */
const GRACE_MS = 60_000;

/**
 * Offers the batches still processing to the `transaction-batch` queue, after putting its failed jobs back.
 * @returns how many were offered
 */
export async function enqueueProcessingBatches(deps: WorkerDeps): Promise<number> {
  await putFailedJobsBack(deps, "transaction-batch");
  const processing = await deps.repos.transactionBatches.listProcessingTransactionBatchIds(
    new Date(deps.now().getTime() - GRACE_MS),
    BATCH_SIZE,
  );
  return offerRows(
    deps,
    "transaction-batch",
    processing.map((id) => ({ data: { batchId: id }, jobId: id })),
  );
}
