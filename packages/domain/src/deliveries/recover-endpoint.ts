/**
 * Recover (DESIGN §8, §10 "Sweeps"): re-send to an endpoint what it missed in a window, as new manual chains. Every
 * event of the window that the endpoint subscribes to now, of its store and mode, whose latest chain to this endpoint
 * did not succeed (or that never had one: the endpoint was disabled, or failing), gets attempt 1 of a new manual chain,
 * at most {@link MAX_RECOVERED_EVENTS}. The API counts them (one statement, in no transaction), records the recovery and
 * enqueues one `webhook-recovery` job; the worker walks the window in pages of {@link RECOVERY_PAGE_SIZE} events
 * ({@link continueWebhookRecovery}), each page one short transaction that writes its chains and moves the recovery's
 * cursor, and enqueues the page's delivery jobs after it commits. No transaction grows with the window, a worker that
 * dies mid-way leaves the cursor at its last page (the job's next run, or the reconciler's offer of it, resumes there),
 * and a page whose enqueue was lost is due at once, so the reconciler's sweep of due deliveries offers it.
 */
import type { RecoveryCursor } from "@lm/db";
import type { UseCaseDeps } from "../deps";
import { validationFailed } from "../errors";
import { ALL_EVENT_TYPES, PING_EVENT_TYPE } from "../events/event-types";
import { enqueueDeliveries } from "../events/record-event";
import { enqueueAfterCommit } from "../jobs/enqueue-after-commit";
import { idFloor, newId } from "../ids";
import { findWebhookEndpoint } from "../webhook-endpoints/find-webhook-endpoints";

/** How far back a recovery may start (DESIGN §8: 14 days). */
export const RECOVERY_WINDOW_MS = 14 * 24 * 60 * 60 * 1000;
/** Most events one recovery re-sends (DESIGN §8). */
export const MAX_RECOVERED_EVENTS = 10_000;
/** Events of the window examined per page (each page one transaction). */
export const RECOVERY_PAGE_SIZE = 2_000;
/**
 * How long before a window's start its events' deliveries may have been made, ms: deliveries are written with or after
 * their event, so this only covers clocks that differ between processes.
 */
const DELIVERY_CLOCK_MARGIN_MS = 60 * 60_000;

/** The smallest delivery id a delivery of an event made at or after `since` can have. */
function deliveriesFrom(since: Date): string {
  return idFloor("delivery", since.getTime() - DELIVERY_CLOCK_MARGIN_MS);
}

/** What a recovery started (`webhook_recovery` on the wire). */
export interface WebhookRecovery {
  endpointId: string;
  since: Date;
  until: Date;
  /** How many events will be re-sent. */
  events: number;
}

/**
 * Starts a recovery of endpoint `endpointId` of `sellerId` over `[since, until]` (`until` defaults to now): counts
 * the missed events, records the recovery and enqueues its `webhook-recovery` job (job id = the recovery's id).
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
  const endpoint = await findWebhookEndpoint(deps.repos, sellerId, endpointId);
  const subscribed = endpoint.events.includes(ALL_EVENT_TYPES) ? null : endpoint.events;

  const events = await deps.repos.webhookEndpoints.countWebhookEndpointMissedEvents({
    endpoint,
    since,
    until,
    types: subscribed,
    excludedType: PING_EVENT_TYPE,
    deliveriesFrom: deliveriesFrom(since),
    limit: MAX_RECOVERED_EVENTS,
  });
  if (events > 0) {
    const id = newId("webhookRecovery", now.getTime());
    await deps.repos.webhookRecoveries.insertWebhookRecovery({
      id,
      endpointId: endpoint.id,
      since,
      until,
      eventTypes: subscribed ?? [],
      maxEvents: events,
      createdAt: now,
    });
    // The job id is the recovery's: a repeat of this enqueue, or the reconciler's offer, is a no-op while it runs.
    await enqueueAfterCommit(deps, "webhook-recovery", [{ data: { recoveryId: id }, jobId: id }]);
  }
  return { endpointId: endpoint.id, since, until, events };
}

/** What one run of {@link continueWebhookRecovery} did. */
export interface RecoveryProgress {
  /** Pages this run wrote. */
  pages: number;
  /** Chains this run wrote. */
  events: number;
  /** Whether the recovery is complete (false when another run moved it meanwhile, or there is no such recovery). */
  completed: boolean;
}

/**
 * Runs recovery `recoveryId` from its cursor to its end, a page at a time (the `webhook-recovery` job). Each page is one
 * transaction that writes attempt 1 of a manual chain for each missed event of the page (up to what is left of the
 * recovery's `max_events`) and moves the cursor past the page, and the page's delivery jobs are enqueued after it
 * commits. Safe to run again at any point, and at once with itself: a page whose cursor another run moved first is
 * rolled back, and this run stops.
 * @param options.maxPages - stop after this many pages (default: run to the end)
 * @returns what this run did
 */
export async function continueWebhookRecovery(
  deps: UseCaseDeps,
  recoveryId: string,
  options: { maxPages?: number } = {},
): Promise<RecoveryProgress> {
  const progress: RecoveryProgress = { pages: 0, events: 0, completed: false };
  const recovery = await deps.repos.webhookRecoveries.findWebhookRecovery(recoveryId);
  if (recovery === null) return progress;
  if (recovery.completed_at !== null) return { ...progress, completed: true };
  const types = recovery.event_types.length === 0 ? null : recovery.event_types;
  let after: RecoveryCursor | null =
    recovery.cursor_created_at === null || recovery.cursor_event_id === null
      ? null
      : { createdAt: recovery.cursor_created_at, eventId: recovery.cursor_event_id };
  let written = recovery.events;
  while (progress.pages < (options.maxPages ?? Infinity)) {
    const page = await deps.repos.webhookRecoveries.listRecoveryPage({
      endpointId: recovery.endpoint_id,
      storeId: recovery.endpoint.store_id,
      mode: recovery.endpoint.mode,
      since: recovery.since,
      until: recovery.until,
      types,
      excludedType: PING_EVENT_TYPE,
      deliveriesFrom: deliveriesFrom(recovery.since),
      after,
      limit: RECOVERY_PAGE_SIZE,
    });
    const last = page[page.length - 1];
    const now = deps.now();
    if (last === undefined) {
      await deps.repos.webhookRecoveries.completeWebhookRecovery(recoveryId, now);
      return { ...progress, completed: true };
    }
    const eventIds = page
      .filter((event) => event.missed)
      .slice(0, recovery.max_events - written)
      .map((event) => event.id);
    const done = page.length < RECOVERY_PAGE_SIZE || written + eventIds.length >= recovery.max_events;
    const to = { createdAt: last.created_at, eventId: last.id };
    const deliveryIds = eventIds.map(() => newId("delivery", now.getTime()));
    const moved = await deps.repos
      .transaction(async (tx) => {
        if (deliveryIds.length > 0) {
          await tx.deliveries.insertRecoveryDeliveries({
            endpointId: recovery.endpoint_id,
            url: recovery.endpoint.url,
            deliveryIds,
            eventIds,
            now,
          });
        }
        const advance = {
          id: recoveryId,
          from: after,
          to,
          written: deliveryIds.length,
          completedAt: done ? now : null,
        };
        if (await tx.webhookRecoveries.advanceWebhookRecovery(advance)) return true;
        // Another run moved the cursor first: this page's chains are its, roll them back.
        throw new RecoveryMovedOn();
      })
      .catch((err: unknown) => {
        if (err instanceof RecoveryMovedOn) return false;
        throw err;
      });
    if (!moved) return progress;
    await enqueueDeliveries(deps, deliveryIds);
    progress.pages += 1;
    progress.events += deliveryIds.length;
    written += deliveryIds.length;
    if (done) return { ...progress, completed: true };
    after = to;
  }
  return progress;
}

/** Thrown inside a page's transaction to roll it back when another run of the recovery moved its cursor first. */
class RecoveryMovedOn extends Error {}
