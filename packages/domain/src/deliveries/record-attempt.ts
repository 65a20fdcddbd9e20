/**
 * Writes the outcome of one delivery attempt (DESIGN §4 "Delivery rows", "Auto-disable", §8 "Early warning"): the
 * attempt's row, the next attempt's row when a retry follows, and the endpoint's health, all conditional on the row
 * still being `pending`, so a job that runs twice (a stalled job, a reconciler race) writes once. The next attempt is
 * enqueued after commit; a chain that ended without a retry is told (DESIGN §16 "no silent endings").
 */
import type { NewWebhookDelivery } from "@lm/db";
import { newId } from "../ids";
import { enqueueAfterCommit } from "../jobs/enqueue-after-commit";
import { isRetriedDeliveryError, type AttemptDecision } from "../webhooks/retry-policy";
import type { DeliveryDeps } from "./delivery-deps";
import { deliveryJob } from "../jobs/delivery-jobs";
import type { AttemptRow, LoadedDelivery } from "./delivery-rows";
import { countDeadChain, mailDeadChainOutcome, type DeadChainOutcome } from "./endpoint-health";
import { noteStoppedDelivery } from "./stopped-chains";

/** What the attempt produced, as stored on its row. */
export type AttemptResult = Omit<AttemptRow, "id" | "status" | "nextAttemptAt">;

/**
 * Records the attempt; for a retried failure with attempts left, writes the next attempt's row in the same
 * transaction and enqueues it after commit, delayed to its `scheduled_at`.
 * @returns whether this call wrote the row (false when another run already recorded this attempt)
 */
export async function recordAttempt(
  deps: DeliveryDeps,
  delivery: LoadedDelivery,
  result: AttemptResult,
  decision: AttemptDecision,
): Promise<boolean> {
  const row: AttemptRow = {
    ...result,
    id: delivery.id,
    status: decision.status,
    nextAttemptAt: decision.nextAttemptAt,
  };

  if (decision.nextAttemptAt === null && decision.chainEnd !== "dead") {
    // The common case (a success, a final error) is one batched statement, shared with concurrent jobs; it also
    // resets a succeeded endpoint's run of dead chains.
    const written = await deps.deliveryRows.write(row);
    if (written && decision.chainEnd === "stopped" && result.error !== null && !isRetriedDeliveryError(result.error)) {
      await noteStoppedDelivery(deps, delivery, result.error);
    }
    return written;
  }

  const outcome = await deps.repos.transaction(async (tx) => {
    const written = await tx.deliveries.writeDeliveryAttempts([row]);
    if (!written.has(row.id)) return null;
    const health: DeadChainOutcome =
      decision.chainEnd === "dead" && delivery.endpoint_id !== null
        ? await countDeadChain(tx, delivery.endpoint_id, deps.now())
        : "none";
    const next =
      decision.nextAttemptAt === null
        ? null
        : await tx.deliveries.insertWebhookDelivery(nextAttemptRow(delivery, row.url, decision.nextAttemptAt));
    return { next, health };
  });
  if (outcome === null) return false;
  if (delivery.endpoint_id !== null) await mailDeadChainOutcome(deps, delivery.endpoint_id, outcome.health);
  if (outcome.next !== null) {
    const delayMs = outcome.next.scheduled_at.getTime() - deps.now().getTime();
    await enqueueAfterCommit(deps, "webhook-delivery", [deliveryJob(outcome.next, delayMs)]);
  }
  return true;
}

/**
 * The next attempt of the same chain: same event and destination, the URL this attempt used (an endpoint's attempt
 * re-reads its endpoint's URL when it runs), attempt + 1, waiting for the decided time. A FIFO endpoint's next attempt
 * is ordered, so it keeps its place at the head (DESIGN §16: a failing event holds the ones behind it through its
 * retries); a pause holds it only once it is due, so that it never holds a resumed endpoint's backlog.
 */
function nextAttemptRow(delivery: LoadedDelivery, url: string, scheduledAt: Date): NewWebhookDelivery {
  return {
    id: newId("delivery"),
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    store_id: delivery.store_id,
    destination_type: delivery.destination_type,
    endpoint_id: delivery.endpoint_id,
    transaction_id: delivery.transaction_id,
    url,
    attempt: delivery.attempt + 1,
    chain_id: delivery.chain_id,
    status: "pending",
    scheduled_at: scheduledAt,
    manual: delivery.manual,
    ordered: delivery.endpoint?.ordering === "fifo" ? true : null,
  };
}
