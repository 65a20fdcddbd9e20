/**
 * Enqueuing stored inbox items for processing (worker queue `inbox-processing`, DESIGN §1 "Write, then enqueue", §5).
 * An item offered again (the reconciler's sweep, an operator's reprocess) has a job of its own (`inboxJob`). The items
 * stored by a receipt, or by a reconciliation with a bank (DESIGN §9), share jobs: those stored by one process within
 * {@link RECEIPT_JOB_LINGER_MS} of each other go in one job, named by the first item's id and listing the others. A
 * paid charge's notification then costs a share of a job's life in Redis and in the worker instead of a whole one
 * (`bench:queue`: a job's life at 500 a second costs the machine about 0.9 ms of CPU), and the worker settles the
 * job's payments in one statement. Processing is idempotent, so an item the reconciler offers while its shared job
 * waits is processed once and skipped once.
 */
import type { UseCaseDeps } from "../deps";
import { createBatcher } from "../jobs/batcher";
import { enqueueAfterCommit } from "../jobs/enqueue-after-commit";
import { inboxJob } from "../jobs/inbox-jobs";

/**
 * How long a received item waits for others to share its job, ms: a few payments at 500 a second, and nothing beside
 * the time a notification takes to be stored.
 */
export const RECEIPT_JOB_LINGER_MS = 5;

/** Most items in one job (its payload stays within a few kilobytes). */
const MAX_ITEMS_PER_JOB = 100;

/** An item handed to the receipt's batcher, with the logger of the request that stored it. */
type ReceivedItem = { inboxItemId: string; logger: UseCaseDeps["logger"] };

/** The receipt's batcher of each producer (one per process). */
const receiptJobs = new WeakMap<UseCaseDeps["producer"], (item: ReceivedItem) => Promise<boolean>>();

/**
 * Enqueues freshly received items `inboxItemIds` after commit, sharing jobs with the items this process receives
 * within {@link RECEIPT_JOB_LINGER_MS} (see the module comment). Resolves once their job is enqueued, or its failure
 * logged (the reconciler's sweep covers it) with the logger of the job's first item's caller; never throws.
 */
export async function enqueueReceivedInboxItems(
  deps: Pick<UseCaseDeps, "producer" | "logger">,
  inboxItemIds: string[],
): Promise<void> {
  if (inboxItemIds.length === 0) return;
  const { producer } = deps;
  let enqueue = receiptJobs.get(producer);
  if (enqueue === undefined) {
    enqueue = createBatcher(
      async (items: ReceivedItem[]) => {
        const ids = items.map((item) => item.inboxItemId) as [string, ...string[]];
        const logger = items[0]!.logger;
        const enqueued = await enqueueAfterCommit({ producer, logger }, "inbox-processing", [inboxJob(ids)]);
        return items.map(() => enqueued);
      },
      { maxSize: MAX_ITEMS_PER_JOB, lingerMs: RECEIPT_JOB_LINGER_MS },
    );
    receiptJobs.set(producer, enqueue);
  }
  await Promise.all(inboxItemIds.map((inboxItemId) => enqueue({ inboxItemId, logger: deps.logger })));
}
