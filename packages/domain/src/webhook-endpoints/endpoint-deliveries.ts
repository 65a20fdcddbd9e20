/**
 * Delivery operations of the panel (SPEC "Webhook endpoints (account level)": ping, manual resend, stats; DESIGN §4
 * "Delivery rows", §5): every one within the seller's own rows.
 *
 * Ping and resend are chains the seller asks for, so their rows are `manual`, and the engine sends a manual chain
 * to a disabled endpoint too (never to a deleted one): a seller who fixed a receiver tests it with a ping, or replays
 * what was missed, before switching the endpoint back on. Automatic deliveries keep skipping disabled endpoints.
 */
import type { EndpointDeliveryFilters, WebhookDelivery, Repositories } from "@lm/db";
import type { UseCaseDeps } from "../deps";
import { notFound } from "../errors";
import { assertEventType, PING_EVENT_TYPE } from "../events/event-types";
import {
  enqueueDeliveries,
  firstDeliveryRow,
  orderedFor,
  recordEvent,
  type DeliveryDestination,
} from "../events/record-event";
import { isId } from "../ids";
import { historyKeptSince } from "../retention/retention-window";
import { dayOf, endOfSaoPauloDay, isoDateOf, saoPauloDate } from "../due-dates/iso-dates";
import type { PageArgs } from "../paging";
import { endpointPingObject, findWebhookEndpoint } from "./find-webhook-endpoints";

/** The window of {@link endpointStats} (SPEC "Limits": stats window, last 7 days). */
export const STATS_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Records a `ping` event of the endpoint's store and mode whose `data.object` is the endpoint's status (DESIGN §4),
 * delivered to this endpoint only, whatever its subscriptions, as a manual chain with the usual retries.
 * @returns attempt 1 of the ping's delivery, as it reads right after enqueueing
 * @throws ApiError `resource_not_found`
 */
export async function pingWebhookEndpoint(deps: UseCaseDeps, sellerId: string, id: string): Promise<WebhookDelivery> {
  const endpoint = await findWebhookEndpoint(deps.repos, sellerId, id);
  const now = deps.now();
  const { deliveryIds } = await deps.repos.transaction((tx) =>
    recordEvent(tx, {
      scope: { storeId: endpoint.store_id, mode: endpoint.mode },
      type: PING_EVENT_TYPE,
      object: endpointPingObject(endpoint),
      target: endpoint,
      now,
    }),
  );
  await enqueueDeliveries(deps, deliveryIds);
  return deps.repos.deliveries.findWebhookDeliveryOrThrow(deliveryIds[0] as string);
}

/**
 * Starts a new chain of the same event to the same destination, from attempt 1, `manual`, with its own retries
 * (DESIGN §4). Any attempt of any chain can be resent, whatever its status; an endpoint's chain goes to the
 * endpoint's current URL, a postback's to the charge's `postback_url`.
 * @returns the new chain's first row
 * @throws ApiError `resource_not_found` when the delivery is malformed, unknown, another seller's, of a deleted
 *   endpoint, or of an event older than `RETENTION_DAYS` (DESIGN §10 "Retention": such an event cannot be resent)
 */
export async function resendDelivery(
  deps: UseCaseDeps,
  sellerId: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  const keptSince = historyKeptSince(deps.config.retentionDays, deps.now());
  const original = isId("delivery", deliveryId)
    ? await deps.repos.deliveries.findSellerWebhookDelivery(sellerId, deliveryId, keptSince)
    : null;
  if (!original || original.endpoint?.deleted_at) throw notFound("webhook delivery");
  const destination: DeliveryDestination =
    original.endpoint_id !== null && original.endpoint !== null
      ? {
          destination_type: "endpoint",
          endpoint_id: original.endpoint_id,
          url: original.endpoint.url,
          ordered: orderedFor(original.endpoint),
        }
      : { destination_type: "postback", transaction_id: original.transaction_id as string, url: original.url };
  const event = { id: original.event_id, type: original.event_type, store_id: original.store_id };
  const resent = await deps.repos.deliveries.insertWebhookDelivery(
    firstDeliveryRow(event, destination, deps.now(), true),
  );
  await enqueueDeliveries(deps, [resent.id]);
  return resent;
}

/** Filters of an endpoint's delivery list. */
export type DeliveryFilters = EndpointDeliveryFilters;

/**
 * One page of the endpoint's delivery rows (every attempt), in the page's order.
 * @throws ApiError `invalid_event_type` (param `event_type`) when `filters.event_type` is no event type (DESIGN §12
 *   "Safer defaults"); `resource_not_found` for an endpoint that is not the seller's or is deleted
 */
export async function listEndpointDeliveries(
  repos: Repositories,
  sellerId: string,
  endpointId: string,
  filters: DeliveryFilters,
  page: PageArgs,
): Promise<WebhookDelivery[]> {
  if (filters.event_type !== undefined) assertEventType(filters.event_type, "event_type", "recorded");
  const endpoint = await findWebhookEndpoint(repos, sellerId, endpointId);
  return repos.deliveries.listEndpointWebhookDeliveriesPage(endpoint.id, filters, page);
}

/** Days of the per-day stats: today in São Paulo and the 6 before, all within the 7-day window. */
export const STATS_DAYS = 7;

/** One São Paulo day of an endpoint's stats (the dashboard's chart, DESIGN §15). */
export interface EndpointDayStats {
  /** `YYYY-MM-DD` in America/Sao_Paulo. */
  date: string;
  /** Attempts that finished that day. */
  totalDeliveries: number;
  /** Succeeded / finished that day, 0..1; null without a finished attempt. */
  successRate: number | null;
}

/** An endpoint's health over the stats window (DESIGN §5 "Stats reply"). */
export interface EndpointStats {
  /** Succeeded attempts / finished attempts, 0..1; null when no attempt finished in the window (not 0). */
  successRate: number | null;
  /** Attempts that finished in the window. */
  totalDeliveries: number;
  /** When the latest ping attempt in the window was made. */
  lastPingAt: Date | null;
  /** Whether that attempt succeeded; null without one. */
  lastPingSucceeded: boolean | null;
  /** The last {@link STATS_DAYS} days of São Paulo, oldest first, today's so far last. */
  days: EndpointDayStats[];
}

/**
 * The endpoint's stats over the last 7 days, and per São Paulo day over today and the 6 days before, in two aggregate
 * statements over its rows whose `attempted_at` (set when an attempt finishes) is in the window: index-only scans of
 * the partial index of finished attempts, no row is loaded (`readWebhookEndpointStats`, `…DailyStats`).
 * @throws ApiError `resource_not_found`
 */
export async function endpointStats(
  repos: Repositories,
  sellerId: string,
  endpointId: string,
  now: Date,
): Promise<EndpointStats> {
  const endpoint = await findWebhookEndpoint(repos, sellerId, endpointId);
  const since = new Date(now.getTime() - STATS_WINDOW_MS);
  const firstDay = dayOf(saoPauloDate(now)) - (STATS_DAYS - 1);
  // The first day's midnight in São Paulo: less than 7 days ago, so every day lies within the window.
  const daysSince = endOfSaoPauloDay(isoDateOf(firstDay - 1));
  const [row, dayRows] = await Promise.all([
    repos.webhookEndpoints.readWebhookEndpointStats(endpoint.id, since, PING_EVENT_TYPE),
    repos.webhookEndpoints.readWebhookEndpointDailyStats(endpoint.id, daysSince),
  ]);
  const byDay = new Map(dayRows.map((day) => [day.day, day]));
  const { finished } = row;
  return {
    successRate: finished === 0 ? null : row.succeeded / finished,
    totalDeliveries: finished,
    lastPingAt: row.last_ping_at ?? null,
    lastPingSucceeded: row.last_ping_status == null ? null : row.last_ping_status === "succeeded",
    days: Array.from({ length: STATS_DAYS }, (_, index) => {
      const date = isoDateOf(firstDay + index);
      const day = byDay.get(date);
      return {
        date,
        totalDeliveries: day?.finished ?? 0,
        successRate: day === undefined || day.finished === 0 ? null : day.succeeded / day.finished,
      };
    }),
  };
}
