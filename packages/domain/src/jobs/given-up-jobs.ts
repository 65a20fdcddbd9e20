/**
 * A job the worker gave up for good (it threw on every try, revivals included) is written on the row it was for, so an
 * operator finds it there and not only in a log line. Which rows say it:
 * - a delivery: `job_given_up_at` and `job_error` on its `pending` row (on each of them, for a fan-out's job); the
 *   reconciler no longer offers it, and a recover or a resend (new chains) is how the event goes out once the cause
 *   is fixed;
 * - an inbox item: `error` = `job_given_up: <reason>` (on each item of the job still unprocessed), so it is listed as
 *   `failed` by the ops inbox and a reprocess (which clears the outcome) runs it again.
 * The other queues' rows have no such field: a refund or withdrawal keeps its own bounded `submit_attempts`, and the
 * repeatable sweeps (charge expiry, key revocation, the reconciler) run again at their next tick; those give-ups are
 * logged only.
 */
import type { Repositories } from "@lm/db";
import type { JobPayloads, QueueName } from "@lm/queue";
import { deliveryIdsOfJob } from "./delivery-jobs";
import { inboxItemIdsOfJob } from "./inbox-jobs";
import { toStorableText } from "../text/storable-text";

/** The code an inbox item's `error` starts with when its job was given up. */
export const JOB_GIVEN_UP_ERROR = "job_given_up";

/** Longest reason kept on a row, characters. */
const MAX_REASON_LENGTH = 300;

/** A job given up: its queue, id and payload, and the error of its last try. */
export type GivenUpJob = {
  [N in QueueName]: { queue: N; jobId: string; data: JobPayloads[N]; error: unknown };
}[QueueName];

/**
 * Writes `job`'s give-up on its row (see above); a row that has moved on meanwhile (attempted, processed) is left
 * alone.
 * @returns whether a row was marked (false for queues whose rows have no such field)
 */
export async function recordGivenUpJob(
  deps: { repos: Repositories; now: () => Date },
  job: GivenUpJob,
): Promise<boolean> {
  const reason = reasonOf(job.error);
  switch (job.queue) {
    case "webhook-delivery":
      return deps.repos.deliveries.markDeliveriesGivenUp(deliveryIdsOfJob(job.jobId, job.data), reason, deps.now());
    case "inbox-processing":
      return deps.repos.inbox.markInboxItemsGivenUp(inboxItemIdsOfJob(job.data), `${JOB_GIVEN_UP_ERROR}: ${reason}`);
    default:
      return false;
  }
}

/** The first line of an error's message, storable and at most {@link MAX_REASON_LENGTH} characters. */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? (error.message.trim().split("\n")[0] ?? "") : String(error);
  return toStorableText(message.slice(0, MAX_REASON_LENGTH)) || "unknown error";
}
