/**
 * `transaction-batch` job (DESIGN §13 "Batches"): the API wrote a batch and its items, and the worker makes each pending
 * item's charge and completes the batch (`continueTransactionBatch`). A run that dies mid-way is run again by BullMQ (a
 * stalled job) or offered again by the reconciler, and resumes at the first pending item without making any charge
 * twice.
 */
import { continueTransactionBatch } from "@lm/domain";
import type { Processor } from ".";

/** Runs batch `batchId` to its end and logs what this run recorded. */
export const processTransactionBatch: Processor<"transaction-batch"> = async (deps, { batchId }) => {
  const progress = await continueTransactionBatch(deps, batchId);
  deps.logger.info("batch run", {
    batch_id: batchId,
    succeeded: progress.succeeded,
    failed: progress.failed,
    completed: progress.completed,
  });
};
