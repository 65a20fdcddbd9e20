/**
 * Use case: one delivery attempt, the whole story (SPEC "Delivery request", "Retry schedule"; DESIGN §4, §16): take the
 * endpoint's turn (its delivery controls), prepare (may it be sent, where, signed with what), send through the HTTP
 * port with a fresh signature timestamp, decide with the retry policy, record the outcome with the next attempt and
 * the endpoint's health, tell the observer, and hand the turn on.
 */
import { decideAttemptOutcome } from "../webhooks/retry-policy";
import type { DeliveryDeps } from "./delivery-deps";
import { signedDeliveryHeaders } from "./delivery-request";
import type { LoadedDelivery } from "./delivery-rows";
import { takeTurn } from "./delivery-turns";
import { prepareAttempt } from "./prepare-attempt";
import { recordAttempt, type AttemptResult } from "./record-attempt";

/** What became of a run of {@link deliverAttempt}. */
export interface AttemptRun {
  /** Whether the attempt was made and recorded (false when its endpoint's controls hold it). */
  attempted: boolean;
  /** When held: look again after this many ms (the job goes back to the queue); absent: the row waits its turn. */
  retryInMs?: number;
}

/**
 * Runs the attempt of `delivery` (a row loaded `pending`) and records it, unless its endpoint's delivery controls hold
 * it ({@link takeTurn}). A final error found before sending (`endpoint_disabled`, `missing_secret`, including a secret
 * that does not decrypt) is recorded without a request.
 * @param options.sent - called once the destination is done with the attempt (it answered, failed or was never
 *   asked), before the outcome is recorded: the worker frees the destination's slot then, so that a destination's
 *   attempts at once count its own time, not our database's
 * @throws whatever the database throws while recording; the job is retried and writes once (conditional writes)
 */
export async function deliverAttempt(
  deps: DeliveryDeps,
  delivery: LoadedDelivery,
  options: { sent?: () => void } = {},
): Promise<AttemptRun> {
  const turn = await takeTurn(deps, delivery);
  if (!turn.go) {
    options.sent?.();
    return { attempted: false, ...(turn.retryInMs === undefined ? {} : { retryInMs: turn.retryInMs }) };
  }
  try {
    await attempt(deps, delivery, options);
  } finally {
    await turn.end();
  }
  return { attempted: true };
}

/** Sends, decides, records and observes the attempt of `delivery` (see {@link deliverAttempt}). */
async function attempt(deps: DeliveryDeps, delivery: LoadedDelivery, options: { sent?: () => void }): Promise<void> {
  const attemptedAt = deps.now();
  let result: AttemptResult;
  try {
    result = await send(deps, delivery, attemptedAt);
  } finally {
    options.sent?.();
  }
  const decision = decideAttemptOutcome({
    attempt: delivery.attempt,
    error: result.error,
    finishedAt: deps.now(),
    scheduleSeconds: deps.config.retryScheduleSeconds,
  });
  const written = await recordAttempt(deps, delivery, result, decision);
  if (written && deps.observer) {
    deps.observer.attemptRecorded({
      deliveryId: delivery.id,
      attempt: delivery.attempt,
      destinationType: delivery.destination_type,
      status: decision.status,
      error: result.error,
      durationMs: result.durationMs,
      manual: delivery.manual,
      eventCreatedAt: delivery.event.created_at,
      attemptedAt,
    });
  }
}

/** Prepares and, unless a final error stops it first, sends the attempt, signed with a fresh timestamp. */
async function send(deps: DeliveryDeps, delivery: LoadedDelivery, attemptedAt: Date): Promise<AttemptResult> {
  const prepared = prepareAttempt(delivery, deps.config.encryptionKey, attemptedAt);
  if (!prepared.send) {
    if (prepared.detail !== undefined) {
      deps.logger.error("delivery stopped: its secret cannot be used", {
        delivery_id: delivery.id,
        reason: prepared.detail,
      });
    }
    return {
      url: delivery.url,
      error: prepared.error,
      responseStatus: null,
      responseBodyExcerpt: null,
      durationMs: null,
      attemptedAt,
    };
  }
  const headers = signedDeliveryHeaders({
    scheme: prepared.scheme,
    secrets: prepared.secrets,
    // From the event itself, so the headers always equal the body's `id` and `type`.
    eventId: delivery.event.id,
    eventType: delivery.event.type,
    deliveryId: delivery.id,
    attempt: delivery.attempt,
    body: prepared.body,
    timestampSeconds: Math.floor(attemptedAt.getTime() / 1000),
    custom: prepared.headers,
  });
  const outcome = await deps.sendAttempt(prepared.url, prepared.body, headers);
  return { ...outcome, url: prepared.url, attemptedAt };
}
