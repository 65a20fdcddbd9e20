/**
 * Writes the outcome of one delivery attempt (DESIGN §4 "Delivery rows", "Auto-disable"): the attempt's row, the next
 * attempt's row when a retry follows, and the endpoint's bookkeeping, all conditional on the row still being
 * `pending`, so a job that runs twice (a stalled job, a reconciler race) writes once.
 */
import { inTransaction, type Prisma, type WebhookDelivery } from "@lm/db";
import {
  mailEndpointAutoDisabled,
  newId,
  notifyEndpointAutoDisabled,
  shouldAutoDisableEndpoint,
  type AttemptDecision,
} from "@lm/domain";
import type { WorkerDeps } from "../deps";
import { writeAttemptRows, type AttemptRow, type LoadedDelivery } from "./delivery-rows";

/** What the attempt produced, as stored on its row. */
export type AttemptResult = Omit<AttemptRow, "id" | "status" | "nextAttemptAt">;

/**
 * `last_succeeded_at` is refreshed at most this often on a run of successes: the auto-disable rule reads it in days,
 * and skipping the write keeps thousands of deliveries a second to one endpoint from queueing on its row lock.
 */
const LAST_SUCCESS_PRECISION_MS = 60_000;

/**
 * Records the attempt and returns the next attempt's row, if one was written (the caller enqueues it after commit).
 * @returns null when no retry follows, or when another run already recorded this attempt
 */
export async function recordAttempt(
  deps: WorkerDeps,
  delivery: LoadedDelivery,
  result: AttemptResult,
  decision: AttemptDecision,
): Promise<WebhookDelivery | null> {
  const row: AttemptRow = { ...result, id: delivery.id, status: decision.status, nextAttemptAt: decision.nextAttemptAt };

  if (decision.nextAttemptAt === null && decision.chainEnd !== "dead") {
    const written = await deps.deliveryRows.write(row);
    if (written && decision.chainEnd === "succeeded") await noteEndpointSuccess(deps, delivery);
    return null;
  }

  const outcome = await inTransaction(deps.db, async (tx) => {
    const written = await writeAttemptRows(tx, [row]);
    if (!written.has(row.id)) return { next: null, disabledEndpoint: false };
    const disabledEndpoint =
      decision.chainEnd === "dead" && delivery.endpoint_id !== null && (await countDeadChain(tx, delivery.endpoint_id, deps.now()));
    const next =
      decision.nextAttemptAt === null ? null : await tx.webhookDelivery.create({ data: nextAttemptRow(delivery, row.url, decision.nextAttemptAt) });
    return { next, disabledEndpoint };
  });
  if (outcome.disabledEndpoint && delivery.endpoint_id !== null) await onEndpointAutoDisabled(deps, delivery.endpoint_id);
  return outcome.next;
}

/**
 * The next attempt of the same chain: same event and destination, the URL this attempt used (an endpoint's attempt
 * re-reads its endpoint's URL when it runs), attempt + 1, waiting for the decided time.
 */
function nextAttemptRow(delivery: LoadedDelivery, url: string, scheduledAt: Date): Prisma.WebhookDeliveryUncheckedCreateInput {
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
  };
}

/**
 * A success resets the endpoint's dead-chain counter and refreshes `last_succeeded_at` (at most once a minute, see
 * {@link LAST_SUCCESS_PRECISION_MS}; the condition is re-checked in SQL so a stale read never skips a needed reset).
 */
async function noteEndpointSuccess(deps: WorkerDeps, delivery: LoadedDelivery): Promise<void> {
  const endpoint = delivery.endpoint;
  if (endpoint === null) return;
  const now = deps.now();
  const stale = new Date(now.getTime() - LAST_SUCCESS_PRECISION_MS);
  const fresh = endpoint.consecutive_dead_chains === 0 && endpoint.last_succeeded_at !== null && endpoint.last_succeeded_at > stale;
  if (fresh) return;
  await deps.db.webhookEndpoint.updateMany({
    where: {
      id: endpoint.id,
      OR: [{ consecutive_dead_chains: { not: 0 } }, { last_succeeded_at: null }, { last_succeeded_at: { lt: stale } }],
    },
    data: { consecutive_dead_chains: 0, last_succeeded_at: now },
  });
}

/**
 * Counts a chain that ended `dead` (an atomic increment) and disables the endpoint when the rule says so, with the
 * seller's feed item in the same transaction.
 * @returns whether this call disabled the endpoint
 */
async function countDeadChain(tx: Prisma.TransactionClient, endpointId: string, now: Date): Promise<boolean> {
  const endpoint = await tx.webhookEndpoint.update({
    where: { id: endpointId },
    data: { consecutive_dead_chains: { increment: 1 } },
    select: {
      enabled: true,
      consecutive_dead_chains: true,
      last_succeeded_at: true,
      id: true,
      url: true,
      mode: true,
      store: { select: { seller_id: true } },
    },
  });
  const disable = shouldAutoDisableEndpoint(
    { enabled: endpoint.enabled, consecutiveDeadChains: endpoint.consecutive_dead_chains, lastSucceededAt: endpoint.last_succeeded_at },
    now,
  );
  if (!disable) return false;
  const { count } = await tx.webhookEndpoint.updateMany({
    where: { id: endpointId, enabled: true },
    data: { enabled: false, disabled_reason: "auto", auto_disabled_at: now },
  });
  if (count === 1) await notifyEndpointAutoDisabled(tx, endpoint.store.seller_id, endpoint);
  return count === 1;
}

/**
 * Called once, after commit, when an endpoint was disabled automatically: the seller's owners get an email (DESIGN §4
 * "Auto-disable"; the feed item committed with the disabling). A failure is logged, never thrown: the attempt is
 * recorded, and failing the job would not run this again (a re-run finds the row no longer pending).
 */
async function onEndpointAutoDisabled(deps: WorkerDeps, endpointId: string): Promise<void> {
  deps.logger.warn("webhook endpoint auto-disabled", { endpoint_id: endpointId });
  try {
    await mailEndpointAutoDisabled(deps, endpointId);
  } catch (err) {
    deps.logger.error("auto-disable mail not sent", { endpoint_id: endpointId, err });
  }
}
