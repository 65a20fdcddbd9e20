/**
 * `webhook-recovery` job (DESIGN §8 "Recover", §10 "Sweeps"): the API recorded a recovery, and the worker walks its
 * window in pages, each page its own transaction (`continueWebhookRecovery`). A run that dies mid-way is run again by
 * BullMQ (a stalled job) or offered again by the reconciler, and resumes at the recovery's cursor.
 */
import { continueWebhookRecovery } from "@lm/domain";
import type { Processor } from ".";

/** Runs recovery `recoveryId` to its end and logs what this run wrote. */
export const processWebhookRecovery: Processor<"webhook-recovery"> = async (deps, { recoveryId }) => {
  const progress = await continueWebhookRecovery(deps, recoveryId);
  deps.logger.info("recovery paged", {
    recovery_id: recoveryId,
    pages: progress.pages,
    deliveries: progress.events,
    completed: progress.completed,
  });
};
