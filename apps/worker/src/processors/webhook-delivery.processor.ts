/**
 * `webhook-delivery` job: the attempts of its rows (SPEC "Delivery request", "Retry schedule"; DESIGN §4, §8, §10
 * "Redis"): one delivery, or the first attempts of an event's fan-out that its data lists (`deliveryJob` in
 * packages/domain), those still `pending`. The story of one attempt: load the row (batched), take a slot of its
 * destination, and let the domain send, decide and record; the slot is freed as soon as the destination is done, before
 * the recording. A row whose destination has no room waits: once the job's other attempts are recorded, the job goes
 * back to the queue, delayed, without using a slot (isolation, see `destination-slots.ts`), and its next run finds only
 * what is left pending. A row its endpoint's delivery controls hold (DESIGN §16) either waits for its turn, which
 * another job brings, or asks to be looked at again: the job then goes back to the queue likewise.
 */
import { deliverAttempt, deliveryIdsOfJob, destinationKey } from "@lm/domain";
import type { Processor } from ".";

/**
 * Runs the attempts of the job's rows still `pending`, at once within the process's limit (`WORKER_CONCURRENCY`
 * attempts, see `deps.ts`). When a destination is at its limit of attempts at once, the job goes back to the queue
 * after the others, delayed by that destination's wait (the first one found full, when several are).
 * @throws the first error of an attempt, once every attempt has ended (the job is retried; what was recorded stays)
 */
export const processWebhookDelivery: Processor<"webhook-delivery"> = async (deps, data, job) => {
  const loaded = await Promise.all(deliveryIdsOfJob(job.id, data).map((id) => deps.deliveryRows.loadPending(id)));
  const pending = loaded.filter((delivery) => delivery !== null);
  let full: string | null = null;
  let retryInMs: number | null = null;
  const attempts = await Promise.allSettled(
    pending.map((delivery) =>
      // The process's attempts first, then the destination's: a slot is held only while its attempt runs.
      deps.attempts.run(async () => {
        const destination = destinationKey(delivery);
        const slot = deps.destinationSlots.tryAcquire(destination);
        if (slot === null) return void (full ??= destination);
        try {
          const run = await deliverAttempt(deps, delivery, { sent: () => slot.release() });
          if (run.retryInMs !== undefined) retryInMs = Math.min(retryInMs ?? Infinity, run.retryInMs);
        } finally {
          slot.release();
        }
      }),
    ),
  );
  const failed = attempts.find((attempt) => attempt.status === "rejected");
  if (failed) throw failed.reason;
  // One deferral a job, as the destination's pacing counts them (see `destination-slots.ts`).
  if (full !== null) return job.defer(deps.destinationSlots.deferralMs(full));
  if (retryInMs !== null) return job.defer(retryInMs);
};
