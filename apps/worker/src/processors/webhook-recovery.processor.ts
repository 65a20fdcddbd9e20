/**
 * `webhook-recovery` job (DESIGN §8 "Recover"): the API wrote a recovery's delivery rows and handed their enqueueing
 * to the worker, which enqueues them in pages of 1,000, so a 10,000-event recovery costs the API one job.
 */
import { enqueueRecoveredDeliveries } from "../sweepers/due-deliveries";
import type { Processor } from ".";

/** Enqueues the delivery jobs of the recovery whose first row is `firstDeliveryId`. */
export const processWebhookRecovery: Processor<"webhook-recovery"> = async (deps, { firstDeliveryId }) => {
  const enqueued = await enqueueRecoveredDeliveries(deps, firstDeliveryId);
  deps.logger.info("recovery enqueued", { first_delivery_id: firstDeliveryId, deliveries: enqueued });
};
