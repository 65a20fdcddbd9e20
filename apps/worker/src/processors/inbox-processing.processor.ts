/**
 * `inbox-processing` jobs: settle one stored inbound payment notification, or record why it cannot (DESIGN §5).
 */
import { processInboxItem } from "@lm/domain";
import type { Processor } from ".";

/** Processes `inboxItemId`; a repeat changes nothing. */
export const inboxProcessingProcessor: Processor<"inbox-processing"> = async (deps, data) => {
  deps.metrics.inboxItemsProcessed.inc({ outcome: await processInboxItem(deps, data.inboxItemId) });
};
