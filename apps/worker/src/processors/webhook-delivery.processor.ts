/**
 * `webhook-delivery` job: one attempt of one delivery row (SPEC "Delivery request", "Retry schedule"; DESIGN §4, §8).
 * The story of one attempt: load the row (batched), take a slot of its destination or go back to the queue until the
 * destination has room (isolation), and let the domain send, decide and record; the slot is freed as soon as the
 * destination is done, before the recording.
 */
import { deliverAttempt, deliveryIdOfJob, destinationKey } from "@lm/domain";
import type { Processor } from ".";

/**
 * Runs the attempt of the job's delivery (the job id names it) if its row is still `pending`. A destination at its
 * limit of attempts at once sends the job back to the queue, delayed, without using a slot (see
 * `destination-slots.ts`).
 */
export const processWebhookDelivery: Processor<"webhook-delivery"> = async (deps, _data, job) => {
  const delivery = await deps.deliveryRows.loadPending(deliveryIdOfJob(job.id));
  if (delivery === null) return;

  const destination = destinationKey(delivery);
  const slot = deps.destinationSlots.tryAcquire(destination);
  if (slot === null) return job.defer(deps.destinationSlots.deferralMs(destination));
  try {
    await deliverAttempt(deps, delivery, { sent: () => slot.release() });
  } finally {
    slot.release();
  }
};
