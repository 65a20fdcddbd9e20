/**
 * The shape of an `inbox-processing` job, shared by its producers (the receipt, the reconciler, a reprocess) and the
 * worker: it names one item by its id (the job's id too, or a variant for a reprocess) and, from a receipt, the items
 * received with it (`enqueueReceivedInboxItems`).
 */
import type { JobPayloads } from "@lm/queue";
import type { AfterCommitJob } from "./enqueue-after-commit";

/** The job of inbox items `ids` (at least one), named by the first. */
export function inboxJob([inboxItemId, ...moreInboxItemIds]: [
  string,
  ...string[],
]): AfterCommitJob<"inbox-processing"> {
  return {
    data: moreInboxItemIds.length === 0 ? { inboxItemId } : { inboxItemId, moreInboxItemIds },
    jobId: inboxItemId,
  };
}

/** The items job payload `data` of queue `inbox-processing` names, its own first. */
export function inboxItemIdsOfJob(data: JobPayloads["inbox-processing"]): string[] {
  return [data.inboxItemId, ...(data.moreInboxItemIds ?? [])];
}
