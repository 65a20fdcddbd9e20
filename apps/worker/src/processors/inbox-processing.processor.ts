/**
 * `inbox-processing` jobs: settle stored inbound notifications, or record why one cannot (DESIGN §5). A job names one
 * item or, from a receipt, the items received with it (`inboxItemIdsOfJob`); they are processed at once. A plain
 * payment is settled with the other payments of the moment in one batch (`inbox/payment-settlement.ts`); a bank's Pix
 * Automático report through the recurrences' own processing (DESIGN §14 "Live"); everything else, one by one.
 */
import { inboxItemIdsOfJob, processInboxItem, processRecurrenceNotice } from "@lm/domain";
import type { WorkerDeps } from "../deps";
import type { Processor } from ".";

/**
 * Processes the job's items; a repeat changes nothing.
 * @throws the first item's failure, once every item has been processed (each failure is recorded on its item): the
 *   job's retry processes again only the items still unprocessed
 */
export const inboxProcessingProcessor: Processor<"inbox-processing"> = async (deps, data) => {
  const results = await Promise.allSettled(inboxItemIdsOfJob(data).map((id) => processItem(deps, id)));
  const failure = results.find((result) => result.status === "rejected");
  if (failure !== undefined) throw failure.reason;
};

async function processItem(deps: WorkerDeps, inboxItemId: string): Promise<void> {
  const outcome =
    (await deps.settlePayment(inboxItemId)) ??
    (await processRecurrenceNotice(deps, inboxItemId)) ??
    (await processInboxItem(deps, inboxItemId));
  deps.metrics.inboxItemsProcessed.inc({ outcome });
}
