/**
 * What follows one delivery attempt (SPEC "Webhook delivery" states, "Delivery error values", "Retry schedule";
 * DESIGN §4 "Delivery rows"): one pure function of the attempt number and its error, so the worker only loads,
 * calls it and writes.
 */

/** Failures retried on the schedule (SPEC "Delivery error values", retried). */
export type RetriedDeliveryError = `http_${number}` | "redirect_not_followed" | "timeout" | "connection_error";

/** Failures that end the chain at once (SPEC "Delivery error values", not retried). */
export type FinalDeliveryError = "endpoint_disabled" | "blocked_destination" | "missing_secret";

/** The `error` of a failed delivery row. */
export type DeliveryError = RetriedDeliveryError | FinalDeliveryError;

/** Most attempts per destination and chain (SPEC "Limits"). */
export const MAX_DELIVERY_ATTEMPTS = 6;

const FINAL_ERRORS: ReadonlySet<string> = new Set<FinalDeliveryError>([
  "endpoint_disabled",
  "blocked_destination",
  "missing_secret",
]);

/** Whether a failure with `error` earns another attempt (when attempts remain). */
export function isRetriedDeliveryError(error: DeliveryError): error is RetriedDeliveryError {
  return !FINAL_ERRORS.has(error);
}

/** The decision after one attempt. */
export interface AttemptDecision {
  /** New status of the attempt's row (DESIGN §4): `failed` also when no retry follows a final error. */
  status: "succeeded" | "failed" | "dead";
  /** When the next attempt's row runs; null when the chain ends with this attempt. */
  nextAttemptAt: Date | null;
  /**
   * How the chain ends with this attempt, or null when it goes on: `succeeded`, `dead` (all attempts failed; counts
   * towards auto-disable) or `stopped` (a final error, which neither counts nor resets).
   */
  chainEnd: "succeeded" | "dead" | "stopped" | null;
}

/**
 * Decides the outcome of attempt `attempt` (1..6).
 * @param input.error - null for a 2xx reply
 * @param input.finishedAt - when the attempt ended; the next one waits from here (SPEC: "1 min after failure")
 * @param input.scheduleSeconds - delays before attempts 2..6 (`config.retryScheduleSeconds`, five numbers)
 * @throws RangeError for an attempt outside 1..6 or a schedule that is not five delays
 */
export function decideAttemptOutcome(input: {
  attempt: number;
  error: DeliveryError | null;
  finishedAt: Date;
  scheduleSeconds: readonly number[];
}): AttemptDecision {
  const { attempt, error, finishedAt, scheduleSeconds } = input;
  if (!Number.isInteger(attempt) || attempt < 1 || attempt > MAX_DELIVERY_ATTEMPTS) {
    throw new RangeError(`delivery attempt must be 1..${MAX_DELIVERY_ATTEMPTS}, got ${attempt}`);
  }
  if (scheduleSeconds.length !== MAX_DELIVERY_ATTEMPTS - 1) {
    throw new RangeError(`retry schedule must have ${MAX_DELIVERY_ATTEMPTS - 1} delays`);
  }
  if (error === null) return { status: "succeeded", nextAttemptAt: null, chainEnd: "succeeded" };
  if (!isRetriedDeliveryError(error)) return { status: "failed", nextAttemptAt: null, chainEnd: "stopped" };
  if (attempt === MAX_DELIVERY_ATTEMPTS) return { status: "dead", nextAttemptAt: null, chainEnd: "dead" };
  const delayMs = (scheduleSeconds[attempt - 1] as number) * 1000;
  return { status: "failed", nextAttemptAt: new Date(finishedAt.getTime() + delayMs), chainEnd: null };
}
