/** Enqueuing stored inbox items for processing (worker queue `inbox-processing`, DESIGN §1 "Write, then enqueue"). */
import type { UseCaseDeps } from "../deps";
import { enqueueAfterCommit } from "../jobs/enqueue-after-commit";

/**
 * Enqueues `inbox-processing` jobs after commit ({@link enqueueAfterCommit}; the reconciler's sweep covers a
 * failure).
 */
export async function enqueueInboxItems(
  deps: Pick<UseCaseDeps, "producer" | "logger">,
  jobs: Array<{ inboxItemId: string; jobId?: string }>,
): Promise<void> {
  await enqueueAfterCommit(
    deps,
    "inbox-processing",
    jobs.map(({ inboxItemId, jobId }) => ({ data: { inboxItemId }, jobId: jobId ?? inboxItemId })),
  );
}
