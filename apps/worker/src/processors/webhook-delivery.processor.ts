/**
 * `webhook-delivery` job: one attempt of one delivery row (SPEC "Delivery request", "Retry schedule"; DESIGN §4).
 * Thin by design: load the row, decide with the domain rules, write the outcome, enqueue the next attempt.
 */
import { decideAttemptOutcome, signatureHeader } from "@lm/domain";
import { recordDeliveryAttempt } from "@lm/metrics";
import type { JobPayloads } from "@lm/queue";
import type { WorkerDeps } from "../deps";
import { deliveryHeaders, type PostOutcome } from "../delivery/http-client";
import type { LoadedDelivery } from "../delivery/delivery-rows";
import { prepareAttempt } from "../delivery/prepare-attempt";
import { recordAttempt, type AttemptResult } from "../delivery/record-attempt";

/**
 * Sends the attempt of `deliveryId` if its row is still `pending`, records the outcome, and for a retried failure with
 * attempts left writes and enqueues the next attempt (`jobId` = its row id). Destinations are independent rows, so
 * each retries on its own; a slow receiver holds one of the worker's concurrent slots for at most 10 s.
 */
export async function processWebhookDelivery(
  deps: WorkerDeps,
  { deliveryId }: JobPayloads["webhook-delivery"],
): Promise<void> {
  const delivery = await deps.deliveryRows.loadPending(deliveryId);
  if (delivery === null) return;

  const attemptedAt = deps.now();
  const result = await attempt(deps, delivery, attemptedAt);
  const decision = decideAttemptOutcome({
    attempt: delivery.attempt,
    error: result.error,
    finishedAt: deps.now(),
    scheduleSeconds: deps.config.retryScheduleSeconds,
  });
  const outcome = {
    status: decision.status,
    error: result.error,
    eventCreatedAt: delivery.event.created_at,
    attemptedAt,
  };
  recordDeliveryAttempt(deps.metrics, { ...outcome, attempt: delivery.attempt, manual: delivery.manual });
  const next = await recordAttempt(deps, delivery, result, decision);
  if (next === null) return;

  try {
    const delayMs = next.scheduled_at.getTime() - deps.now().getTime();
    await deps.producer.enqueue("webhook-delivery", { deliveryId: next.id }, { jobId: next.id, delayMs });
  } catch (err) {
    // The row is committed; the reconciler enqueues it once due.
    deps.logger.warn("next delivery attempt not enqueued; the reconciler will", { delivery_id: next.id, err });
  }
}

/** Prepares and, unless a final error stops it first, sends the attempt, signed with a fresh timestamp. */
async function attempt(deps: WorkerDeps, delivery: LoadedDelivery, attemptedAt: Date): Promise<AttemptResult> {
  const prepared = prepareAttempt(delivery, deps.config.encryptionKey, attemptedAt);
  if (!prepared.send) {
    const nothingSent = { responseStatus: null, responseBodyExcerpt: null, durationMs: null };
    return { ...nothingSent, url: delivery.url, error: prepared.error, attemptedAt };
  }
  const headers = deliveryHeaders({
    // From the event itself, so the headers always equal the body's `id` and `type`.
    eventId: delivery.event.id,
    eventType: delivery.event.type,
    deliveryId: delivery.id,
    attempt: delivery.attempt,
    signature: signatureHeader(prepared.secrets, Math.floor(attemptedAt.getTime() / 1000), prepared.body),
  });
  const outcome: PostOutcome = await deps.webhookClient.post(prepared.url, prepared.body, headers, {
    allowLocal: deps.config.webhookAllowLocalDestinations,
    resolve: (hostname) => deps.resolveHost(hostname),
  });
  return { ...outcome, url: prepared.url, attemptedAt };
}
