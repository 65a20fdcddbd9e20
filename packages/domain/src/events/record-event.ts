/**
 * Use case: record events and fan them out (DESIGN §1 "Write, then enqueue", SPEC "Events"). With the caller's
 * change, in the same statement or database transaction, it writes each event row and the first delivery row
 * (attempt 1, `pending`, due now) of every destination: the charge's `postback_url`, if any, and every enabled,
 * not-deleted account endpoint of the same store and mode subscribed to the type or to `*` (or, for a ping, the one
 * endpoint it is meant for). One event or a batch, every event goes through {@link planEvents} and the events
 * repository's one fan-out statement. After commit the caller enqueues the deliveries with
 * {@link enqueueDeliveries}; the reconciler covers a crash in between.
 */
import type { Event, EventsToWrite, WebhookEndpoint, Repositories, NewWebhookDelivery } from "@lm/db";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { deliveryJobsOf } from "../jobs/delivery-jobs";
import { newId } from "../ids";
import { enqueueAfterCommit } from "../jobs/enqueue-after-commit";
import { ALL_EVENT_TYPES, type EventType } from "./event-types";

/**
 * Not-deleted endpoints a store may have per mode (SPEC "Limits": the sixth is 409 `invalid_state`); a fan-out
 * reserves a delivery slot for each.
 */
export const MAX_WEBHOOK_ENDPOINTS_PER_MODE = 5;

/** What to record. */
export interface EventInput {
  scope: MerchantScope;
  /** e.g. `transaction.paid`. */
  type: EventType;
  /** `data.object`: the resource exactly as its read operation returns it now. */
  object: Record<string, unknown>;
  /** The charge whose `postback_url` also receives the event (SPEC: "only events of that charge"). */
  postback?: { transactionId: string; url: string | null };
  /**
   * Deliver to this endpoint only, whatever it subscribes to and whether it is enabled, instead of fanning out: a
   * ping (DESIGN §4), which the seller asks for, so its delivery is `manual`; it waits its turn as the endpoint's
   * other deliveries do (DESIGN §16).
   */
  target?: Pick<WebhookEndpoint, "id" | "url" | "paused" | "ordering">;
  now: Date;
}

/** Where a delivery chain goes: an account endpoint (with its row's `ordered`, DESIGN §16), or a postback URL. */
export type DeliveryDestination =
  | { destination_type: "endpoint"; endpoint_id: string; url: string; ordered: true | null }
  | { destination_type: "postback"; transaction_id: string; url: string };

/**
 * The `ordered` of a delivery row written now for `endpoint` (DESIGN §16): true while it is FIFO or paused (the row
 * waits its turn in the endpoint's order), else null. The fan-out's statement decides it the same way.
 */
export function orderedFor(endpoint: Pick<WebhookEndpoint, "paused" | "ordering">): true | null {
  return endpoint.paused || endpoint.ordering === "fifo" ? true : null;
}

/**
 * Attempt 1 of a new chain of `event` to `destination`, `pending` and due `now` (DESIGN §4 "Delivery rows"): the
 * fan-out's rows, a ping's and a manual resend's.
 * @param manual - the seller asked for this chain (ping, resend) rather than the event's fan-out
 */
export function firstDeliveryRow(
  event: Pick<Event, "id" | "type" | "store_id">,
  destination: DeliveryDestination,
  now: Date,
  manual = false,
): NewWebhookDelivery {
  const id = newId("delivery", now.getTime());
  return {
    id,
    chain_id: id,
    attempt: 1,
    status: "pending",
    event_id: event.id,
    event_type: event.type,
    store_id: event.store_id,
    scheduled_at: now,
    created_at: now,
    manual,
    ...destination,
  };
}

/** The stored event and the ids of the first delivery rows it fanned out to. */
export interface RecordedEvent {
  event: Event;
  deliveryIds: string[];
}

/**
 * The events of `inputs` and their first deliveries, ready for the events repository (`insertEvents`, or
 * `eventWrites` inside the caller's statement). Pure: the subscribed endpoints are selected by the statement itself.
 * Delivery ids are made here in the order the statement gives them out: each event's postback or ping target, then
 * one per endpoint its store may have (`MAX_WEBHOOK_ENDPOINTS_PER_MODE`); a store past that limit, which the
 * endpoint routes never let happen, fails the statement (a delivery without an id) rather than skip an endpoint.
 * @param inputs - each with `subjectId`, the id of the row whose change it describes (see `eventWrites`' `changed`)
 * @returns the batch to write, its events in the order of `inputs`
 */
export function planEvents(inputs: Array<EventInput & { subjectId?: string }>): EventsToWrite {
  const deliveryIds: string[] = [];
  const toWrite = inputs.map((input) => {
    const { scope, type, now } = input;
    const event: Event = {
      id: newId("event", now.getTime()),
      store_id: scope.storeId,
      mode: scope.mode,
      type,
      data: input.object as Event["data"],
      created_at: now,
    };
    const known = [
      ...(input.postback?.url
        ? [
            {
              destination_type: "postback" as const,
              endpoint_id: null,
              transaction_id: input.postback.transactionId,
              url: input.postback.url,
              manual: false,
              ordered: null,
            },
          ]
        : []),
      ...(input.target
        ? [
            {
              destination_type: "endpoint" as const,
              endpoint_id: input.target.id,
              transaction_id: null,
              url: input.target.url,
              manual: true,
              ordered: orderedFor(input.target),
            },
          ]
        : []),
    ];
    const fanOut = input.target === undefined;
    const slots = known.length + (fanOut ? MAX_WEBHOOK_ENDPOINTS_PER_MODE : 0);
    for (let i = 0; i < slots; i++) deliveryIds.push(newId("delivery", now.getTime()));
    return { event, subjectId: input.subjectId ?? event.id, known, fanOut };
  });
  return { events: toWrite, deliveryIds, everyType: ALL_EVENT_TYPES };
}

/**
 * Writes the event of `input` and its first delivery rows with `tx`; commit them together with the state change they
 * describe.
 * @returns the event and the delivery ids to enqueue after commit
 */
export async function recordEvent(tx: Repositories, input: EventInput): Promise<RecordedEvent> {
  const batch = planEvents([input]);
  return { event: batch.events[0]!.event, deliveryIds: await tx.events.insertEvents(batch) };
}

/**
 * Enqueues the `webhook-delivery` jobs of freshly committed delivery rows ({@link deliveryJobsOf}: each in its
 * destination's shard) with {@link enqueueAfterCommit}: never throws, the reconciler covers a failure.
 */
export async function enqueueDeliveries(
  deps: Pick<UseCaseDeps, "repos" | "producer" | "logger">,
  deliveryIds: string[],
): Promise<void> {
  await enqueueAfterCommit(deps, "webhook-delivery", () => deliveryJobsOf(deps.repos, deliveryIds));
}
