/**
 * Recover (DESIGN §8): re-send to an endpoint what it missed in a window, as new manual chains. Every event of the
 * window that the endpoint subscribes to now, of its store and mode, whose latest chain to this endpoint did not
 * succeed (or that never had one: the endpoint was disabled, or failing), gets attempt 1 of a new manual chain. One
 * statement writes them all (at most {@link MAX_RECOVERED_EVENTS}); after commit one `webhook-recovery` job hands
 * their enqueueing to the worker, which enqueues them in pages. The rows are due at once, so if that job is lost the
 * reconciler's sweep of due deliveries offers them.
 */
import { inTransaction, insertRecoveryDeliveries, listWebhookEndpointMissedEventIds } from "@lm/db";
import type { UseCaseDeps } from "../deps";
import { validationFailed } from "../errors";
import { ALL_EVENT_TYPES, PING_EVENT_TYPE } from "../events/event-types";
import { enqueueAfterCommit } from "../jobs/enqueue-after-commit";
import { newId } from "../ids";
import { findWebhookEndpoint } from "../webhook-endpoints/find-webhook-endpoints";

/** How far back a recovery may start (DESIGN §8: 14 days). */
export const RECOVERY_WINDOW_MS = 14 * 24 * 60 * 60 * 1000;
/** Most events one recovery re-sends (DESIGN §8). */
export const MAX_RECOVERED_EVENTS = 10_000;

/** What a recovery started (`webhook_recovery` on the wire). */
export interface WebhookRecovery {
  endpointId: string;
  since: Date;
  until: Date;
  /** How many events will be re-sent. */
  events: number;
}

/**
 * Starts a recovery of endpoint `endpointId` of `sellerId` over `[since, until]` (`until` defaults to now).
 * @throws ApiError `validation_failed` (param `since`) when `since` is more than 14 days back or after `until`;
 *   `resource_not_found` for an endpoint that is not the seller's or is deleted
 */
export async function recoverWebhookEndpoint(
  deps: UseCaseDeps,
  sellerId: string,
  endpointId: string,
  window: { since: Date; until?: Date },
): Promise<WebhookRecovery> {
  const now = deps.now();
  const until = window.until ?? now;
  const { since } = window;
  if (since.getTime() < now.getTime() - RECOVERY_WINDOW_MS)
    throw validationFailed("since must be within the last 14 days", "since");
  if (since > until) throw validationFailed("since must not be after until", "since");
  const endpoint = await findWebhookEndpoint(deps.db, sellerId, endpointId);
  const subscribed = endpoint.events.includes(ALL_EVENT_TYPES) ? null : endpoint.events;

  const ids = await inTransaction(deps.db, async (tx) => {
    const eventIds = await listWebhookEndpointMissedEventIds(tx, {
      endpoint,
      since,
      until,
      types: subscribed,
      excludedType: PING_EVENT_TYPE,
      limit: MAX_RECOVERED_EVENTS,
    });
    const deliveryIds = eventIds.map(() => newId("delivery", now.getTime()));
    if (eventIds.length > 0) {
      await insertRecoveryDeliveries(tx, { endpointId: endpoint.id, url: endpoint.url, deliveryIds, eventIds, now });
    }
    return deliveryIds;
  });
  const first = ids.reduce<string | null>((min, id) => (min === null || id < min ? id : min), null);
  if (first !== null) {
    // The job id is the recovery's first row: a repeat of this enqueue is a no-op.
    await enqueueAfterCommit(deps, "webhook-recovery", [{ data: { firstDeliveryId: first }, jobId: first }]);
  }
  return { endpointId: endpoint.id, since, until, events: ids.length };
}
