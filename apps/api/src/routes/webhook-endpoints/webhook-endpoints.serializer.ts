/**
 * Wire forms of webhook endpoints, their deliveries and stats (DESIGN §4 "Delivery rows", §5 "Endpoint object",
 * "Stats reply"). Secrets appear only in the replies of creation and rotation, the one time they are shown.
 */
import type { WebhookDelivery, WebhookEndpoint } from "@lm/db";
import type { EndpointStats, RotatedEndpoint, WebhookRecovery } from "@lm/domain";

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

/**
 * `{id, object: "webhook_endpoint", url, events, mode, description, signature_scheme, secret_prefix, enabled,
 * disabled_reason, …}`.
 */
export function serializeWebhookEndpoint(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    object: "webhook_endpoint" as const,
    url: endpoint.url,
    events: endpoint.events,
    mode: endpoint.mode,
    description: endpoint.description,
    signature_scheme: endpoint.signature_scheme,
    secret_prefix: endpoint.secret_prefix,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabled_reason,
    auto_disabled_at: iso(endpoint.auto_disabled_at),
    created_at: endpoint.created_at.toISOString(),
    updated_at: endpoint.updated_at.toISOString(),
  };
}

/** The creation reply: the endpoint and its `secret`, once. */
export function serializeCreatedEndpoint(endpoint: WebhookEndpoint, secret: string) {
  return { ...serializeWebhookEndpoint(endpoint), secret };
}

/** The rotation reply: the endpoint, the new `secret` once, and when the previous one stops signing. */
export function serializeRotatedEndpoint(rotated: RotatedEndpoint) {
  return {
    ...serializeCreatedEndpoint(rotated.endpoint, rotated.secret),
    previous_secret_expires_at: rotated.previousSecretExpiresAt.toISOString(),
  };
}

/** One attempt (DESIGN §4 "Delivery rows"); a postback's destination names its charge and URL. */
export function serializeDelivery(delivery: WebhookDelivery) {
  return {
    id: delivery.id,
    object: "webhook_delivery" as const,
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    destination:
      delivery.destination_type === "endpoint"
        ? { type: "endpoint" as const, endpoint_id: delivery.endpoint_id }
        : { type: "postback" as const, transaction_id: delivery.transaction_id, url: delivery.url },
    attempt: delivery.attempt,
    status: delivery.status,
    error: delivery.error,
    response_status: delivery.response_status,
    response_body_excerpt: delivery.response_body_excerpt,
    duration_ms: delivery.duration_ms,
    scheduled_at: delivery.scheduled_at.toISOString(),
    attempted_at: iso(delivery.attempted_at),
    next_attempt_at: iso(delivery.next_attempt_at),
    manual: delivery.manual,
  };
}

/** `{success_rate, total_deliveries, last_ping_at, last_ping_succeeded}` over the last 7 days. */
export function serializeEndpointStats(stats: EndpointStats) {
  return {
    success_rate: stats.successRate,
    total_deliveries: stats.totalDeliveries,
    last_ping_at: iso(stats.lastPingAt),
    last_ping_succeeded: stats.lastPingSucceeded,
  };
}

/** `{object: "webhook_recovery", endpoint_id, since, until, events}` (DESIGN §8 "Recover"). */
export function serializeRecovery(recovery: WebhookRecovery) {
  return {
    object: "webhook_recovery" as const,
    endpoint_id: recovery.endpointId,
    since: recovery.since.toISOString(),
    until: recovery.until.toISOString(),
    events: recovery.events,
  };
}
