/**
 * `inbox-processing` jobs: settle one stored inbound notification, or record why it cannot (DESIGN §5). A plain
 * payment is settled with the other jobs' payments of the moment in one batch (`inbox/payment-settlement.ts`); a
 * bank's Pix Automático report through the recurrences' own processing (DESIGN §14 "Live"); everything else, one by
 * one.
 */
import { processInboxItem, processRecurrenceNotice } from "@lm/domain";
import type { Processor } from ".";

/** Processes `inboxItemId`; a repeat changes nothing. */
export const inboxProcessingProcessor: Processor<"inbox-processing"> = async (deps, data) => {
  const outcome =
    (await deps.settlePayment(data.inboxItemId)) ??
    (await processRecurrenceNotice(deps, data.inboxItemId)) ??
    (await processInboxItem(deps, data.inboxItemId));
  deps.metrics.inboxItemsProcessed.inc({ outcome });
};
