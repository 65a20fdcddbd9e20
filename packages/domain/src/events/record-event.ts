/**
 * Use case: record an event and fan it out (DESIGN §1 "Write, then enqueue", SPEC "Events"). Inside the caller's
 * database transaction it writes the event row and the first delivery row (attempt 1, `pending`, due now) of every
 * destination: the charge's `postback_url`, if any, and every enabled, not-deleted account endpoint of the same store
 * and mode subscribed to the type or to `*` (or, for a ping, the one endpoint it is meant for). After commit the
 * caller enqueues the deliveries with {@link enqueueDeliveries}; the reconciler covers a crash in between.
 */
import {
  insertWrite,
  runWrites,
  sql,
  sqlQuery,
  type Event,
  type Prisma,
  type Sql,
  type SqlClient,
  type SqlWrite,
  type WebhookEndpoint,
} from "@lm/db";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { deliveryJob } from "../deliveries/delivery-jobs";
import { newId } from "../ids";
import { enqueueAfterCommit } from "../jobs/enqueue-after-commit";
import { MAX_WEBHOOK_ENDPOINTS_PER_MODE } from "../webhook-endpoints/manage-webhook-endpoints";
import { ALL_EVENT_TYPES, type EventType } from "./event-types";

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
   * ping (DESIGN §4), which the seller asks for, so its delivery is `manual`.
   */
  target?: Pick<WebhookEndpoint, "id" | "url">;
  now: Date;
}

/** Where a delivery chain goes: an account endpoint, or a charge's postback URL. */
export type DeliveryDestination =
  | { destination_type: "endpoint"; endpoint_id: string; url: string }
  | { destination_type: "postback"; transaction_id: string; url: string };

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
): Prisma.WebhookDeliveryCreateManyInput {
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

/** An event row and the first delivery rows of its fan-out. */
export interface FannedOutEvent {
  event: Event;
  deliveries: Prisma.WebhookDeliveryCreateManyInput[];
}

/**
 * The event of `input` and the first delivery rows of its fan-out: to the charge's `postback_url`, if any, and to
 * `endpoints` (the subscribed ones, or `input.target` for a ping). Pure: the caller reads the endpoints.
 */
export function fanOutEvent(input: EventInput, endpoints: Array<Pick<WebhookEndpoint, "id" | "url">>): FannedOutEvent {
  const { scope, type, now } = input;
  const event: Event = {
    id: newId("event", now.getTime()),
    store_id: scope.storeId,
    mode: scope.mode,
    type,
    data: input.object as Prisma.JsonObject,
    created_at: now,
  };
  const deliveries: Prisma.WebhookDeliveryCreateManyInput[] = [];
  if (input.postback?.url) {
    deliveries.push(
      firstDeliveryRow(
        event,
        { destination_type: "postback", url: input.postback.url, transaction_id: input.postback.transactionId },
        now,
      ),
    );
  }
  for (const endpoint of endpoints) {
    deliveries.push(
      firstDeliveryRow(
        event,
        { destination_type: "endpoint", url: endpoint.url, endpoint_id: endpoint.id },
        now,
        input.target !== undefined,
      ),
    );
  }
  return { event, deliveries };
}

/** An event's writes before they run, and how to tell its delivery ids from their outcome. */
export interface PlannedEvent {
  event: Event;
  /** The event row and its first delivery rows, to run with {@link runWrites}. */
  writes: SqlWrite[];
  /**
   * The ids of the delivery rows written, given the row counts `runWrites` returned for {@link PlannedEvent.writes}
   * (in their order): the postback's and the target's are known in advance, the fan-out's depend on how many
   * endpoints it found.
   */
  deliveryIds(rowCounts: number[]): string[];
}

/**
 * The writes of the event and its first delivery rows, for the caller to run (with {@link runWrites}) in the same
 * statement or transaction as the state change they describe. The subscribed endpoints are selected by the fan-out
 * write itself (`INSERT … SELECT`), so recording an event costs no round trip of its own (issue 14: charge creation
 * runs this on every request). Its delivery ids are made here, one per endpoint a store may have
 * (`MAX_WEBHOOK_ENDPOINTS_PER_MODE`) and given out in the endpoints' id order; a store past that limit, which the
 * endpoint routes never let happen, fails the statement (a delivery without an id) rather than skip an endpoint.
 */
export function planEvent(input: EventInput): PlannedEvent {
  // The postback's row, or a ping's: known here. The subscribed endpoints' rows are the fan-out write's.
  const { event, deliveries } = fanOutEvent(input, input.target ? [input.target] : []);
  const writes = [insertWrite("events", [event], { mode: "mode", data: "jsonb" })];
  if (deliveries.length > 0) {
    writes.push(
      insertWrite("webhook_deliveries", deliveries as unknown as Record<string, unknown>[], {
        status: "delivery_status",
        destination_type: "destination_type",
      }),
    );
  }
  const known = deliveries.map((row) => row.id);
  if (input.target) return { event, writes, deliveryIds: () => known };
  const fanOutIds = Array.from({ length: MAX_WEBHOOK_ENDPOINTS_PER_MODE }, () =>
    newId("delivery", event.created_at.getTime()),
  );
  writes.push(fanOutWrite(event, fanOutIds));
  return {
    event,
    writes,
    deliveryIds: (rowCounts) => [...known, ...fanOutIds.slice(0, rowCounts[writes.length - 1] ?? 0)],
  };
}

/**
 * The SQL condition on `webhook_endpoints` of an endpoint that receives an event: enabled, not deleted, subscribed to
 * the type in placeholder `type` or to every type (placeholder `all`, bound to `ALL_EVENT_TYPES`).
 */
function subscribedTo(type: string): Sql {
  return sql`enabled AND deleted_at IS NULL AND (${type} = ANY(events) OR ${ALL_EVENT_TYPES} = ANY(events))`;
}

/**
 * Attempt 1 (`pending`, due at the event's time) of `event` to every enabled, not-deleted endpoint of its store and
 * mode subscribed to its type or to every type (as {@link subscribedEndpoints} selects them), the n-th endpoint by id
 * taking `ids[n]` (see {@link planEvent}).
 */
function fanOutWrite(event: Event, ids: string[]): SqlWrite {
  return {
    sql: sql`INSERT INTO webhook_deliveries (id, chain_id, attempt, status, event_id, event_type, store_id, scheduled_at,
               created_at, manual, destination_type, endpoint_id, url)
             SELECT (${ids}::text[])[e.n], (${ids}::text[])[e.n], 1, 'pending'::delivery_status, ${event.id},
               ${event.type}, ${event.store_id}, ${event.created_at}::timestamptz, ${event.created_at}::timestamptz,
               false, 'endpoint'::destination_type, e.id, e.url
             FROM (SELECT id, url, row_number() OVER (ORDER BY id) AS n FROM webhook_endpoints
                   WHERE store_id = ${event.store_id} AND mode = ${event.mode}::mode AND ${subscribedTo(event.type)}) e`,
  };
}

/**
 * Writes the event and its first delivery rows with `tx`; commit them together with the state change they describe.
 * @returns the event and the delivery ids to enqueue after commit
 */
export async function recordEvent(tx: SqlClient, input: EventInput): Promise<RecordedEvent> {
  const { event, writes, deliveryIds } = planEvent(input);
  return { event, deliveryIds: deliveryIds(await runWrites(tx, writes)) };
}

/** The key of a store's mode in {@link subscribedEndpoints}' map: `<store id>:<mode>`. */
export function scopeKey(scope: MerchantScope): string {
  return `${scope.storeId}:${scope.mode}`;
}

/**
 * The enabled, not-deleted endpoints of `storeIds` (both modes) subscribed to `type` or to every type, in one query.
 * @returns the endpoints by {@link scopeKey}, each list in id order
 */
export async function subscribedEndpoints(
  tx: SqlClient,
  storeIds: string[],
  type: EventType,
): Promise<Map<string, Array<Pick<WebhookEndpoint, "id" | "url">>>> {
  const rows = await sqlQuery<Pick<WebhookEndpoint, "id" | "url" | "store_id" | "mode">>(
    tx,
    sql`SELECT id, url, store_id, mode FROM webhook_endpoints
        WHERE store_id = ANY(${storeIds}::text[]) AND ${subscribedTo(type)}
        ORDER BY id`,
  );
  const byScope = new Map<string, Array<Pick<WebhookEndpoint, "id" | "url">>>();
  for (const { id, url, store_id, mode } of rows) {
    const key = scopeKey({ storeId: store_id, mode });
    byScope.set(key, [...(byScope.get(key) ?? []), { id, url }]);
  }
  return byScope;
}

/**
 * Enqueues the `webhook-delivery` jobs of freshly committed delivery rows ({@link deliveryJob}) with
 * {@link enqueueAfterCommit}: never throws, the reconciler covers a failure.
 */
export async function enqueueDeliveries(
  deps: Pick<UseCaseDeps, "producer" | "logger">,
  deliveryIds: string[],
): Promise<void> {
  await enqueueAfterCommit(
    deps,
    "webhook-delivery",
    deliveryIds.map((deliveryId) => deliveryJob(deliveryId)),
  );
}
