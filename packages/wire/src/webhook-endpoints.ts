import { Type, type Static } from "@sinclair/typebox";
import type { WebhookDelivery as WebhookDeliveryRow, WebhookEndpoint as WebhookEndpointRow } from "@lm/db";
import { Nullable, StringEnum, StringMap, Timestamp, listOf, wireObject, iso } from "./schema";
import { Mode } from "./common";

/** `whsec_` + 43 characters (32 random bytes): base64url for a `stripe` endpoint (and the postback secret), unpadded standard base64 for a `standard_webhooks` endpoint (its libraries decode it). Shown once. See the `webhooks` section for how each scheme signs. */
export const WebhookSecret = wireObject(
  "WebhookSecret",
  Type.String({
    description:
      "`whsec_` + 43 characters (32 random bytes): base64url for a `stripe` endpoint (and the postback secret), unpadded standard base64 for a `standard_webhooks` endpoint (its libraries decode it). Shown once. See the `webhooks` section for how each scheme signs.",
    pattern: "^whsec_[A-Za-z0-9_+/-]{43}$",
  }),
);
/** WebhookSecret as sent. */
export type WebhookSecret = Static<typeof WebhookSecret>;

/** How deliveries to the endpoint are signed (DESIGN §4, §12, §16). `stripe` (the default): `X-Signature: t=<unix>,v1=<hex>`, HMAC-SHA256 keyed with the whole `whsec_…` string as UTF-8; Stripe's libraries verify it unchanged. `standard_webhooks`: `webhook-id`, `webhook-timestamp` and `webhook-signature: v1,<base64>` of the Standard Webhooks specification, keyed with the base64-decoded bytes after `whsec_`; its official libraries verify it unchanged. `standard_webhooks_ed25519`: the same headers with `webhook-signature: v1a,<base64>`, an Ed25519 signature of `<webhook-id>.<webhook-timestamp>.<body>` (the specification's asymmetric form), verified with the endpoint's `public_key`; the private key never leaves the service. Fixed at creation. Postbacks are always `stripe`. */
export const SignatureScheme = wireObject(
  "SignatureScheme",
  StringEnum(["stripe", "standard_webhooks", "standard_webhooks_ed25519"], {
    description:
      "How deliveries to the endpoint are signed (DESIGN §4, §12, §16). `stripe` (the default): `X-Signature: t=<unix>,v1=<hex>`, HMAC-SHA256 keyed with the whole `whsec_…` string as UTF-8; Stripe's libraries verify it unchanged. `standard_webhooks`: `webhook-id`, `webhook-timestamp` and `webhook-signature: v1,<base64>` of the Standard Webhooks specification, keyed with the base64-decoded bytes after `whsec_`; its official libraries verify it unchanged. `standard_webhooks_ed25519`: the same headers with `webhook-signature: v1a,<base64>`, an Ed25519 signature of `<webhook-id>.<webhook-timestamp>.<body>` (the specification's asymmetric form), verified with the endpoint's `public_key`; the private key never leaves the service. Fixed at creation. Postbacks are always `stripe`.",
    default: "stripe",
  }),
);
/** SignatureScheme as sent. */
export type SignatureScheme = Static<typeof SignatureScheme>;

/** An account-level webhook endpoint (SPEC, DESIGN §5 "Endpoint object"). `secret` only on creation and rotation. */
export const WebhookEndpoint = wireObject(
  "WebhookEndpoint",
  Type.Object(
    {
      id: Type.String({ pattern: "^we_[0-9A-HJKMNP-TV-Z]{26}$" }),
      object: Type.Literal("webhook_endpoint"),
      url: Type.String(),
      events: Type.Array(Type.String(), {
        description: 'Event types from the catalog, or `["*"]` for all; never `ping`.',
      }),
      mode: Mode,
      description: Nullable(Type.String()),
      signature_scheme: SignatureScheme,
      secret_prefix: Type.String({
        minLength: 6,
        maxLength: 6,
        description: "6 characters after `whsec_` of the secret, or after `whpk_` of the public key.",
      }),
      public_key: Nullable(Type.String({ pattern: "^whpk_[A-Za-z0-9+/]{43}=$" }), {
        description:
          "`standard_webhooks_ed25519` only (else null): `whpk_` + base64 of the raw 32-byte Ed25519 public key that verifies the `v1a` signatures; during a rotation's 24 h grace the previous key signs too.",
      }),
      enabled: Type.Boolean(),
      disabled_reason: Nullable(StringEnum(["auto", "manual"])),
      auto_disabled_at: Nullable(Timestamp),
      paused: Type.Boolean({
        description:
          "While true, deliveries wait instead of going out (up to 14 days, then `dead` with `paused_too_long`) and are delivered in order on resume; unlike `enabled: false`, nothing is dropped (DESIGN §16).",
      }),
      ordering: StringEnum(["none", "fifo"], {
        description:
          "`fifo`: one attempt at a time, events in `created_at` order; a failing event holds the ones behind it through its own retries (SPEC schedule), and once it is `dead` the next one goes. `none` (the default): attempts run independently (DESIGN §16).",
      }),
      rate_limit: Nullable(Type.Integer({ minimum: 1, maximum: 1000 }), {
        description:
          "At most this many attempts start in any wall-clock second, evenly spaced, with no burst; excess attempts wait and are never dropped. Null: unlimited (DESIGN §16).",
      }),
      headers: StringMap(Type.String(), {
        description:
          "Custom headers sent with every delivery (at most 10), names as given, values masked: `****` and the last 4 characters of a value of 16 or more. Stored encrypted (DESIGN §16).",
      }),
      created_at: Timestamp,
      updated_at: Timestamp,
    },
    {
      description:
        'An account-level webhook endpoint (SPEC, DESIGN §5 "Endpoint object"). `secret` only on creation and rotation.',
    },
  ),
);
/** WebhookEndpoint as sent. */
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

/** A page of WebhookEndpoint objects. */
export const WebhookEndpointList = listOf("WebhookEndpointList", WebhookEndpoint);
/** WebhookEndpointList as sent. */
export type WebhookEndpointList = Static<typeof WebhookEndpointList>;

/** The one-time `secret` of a reply: absent for a `standard_webhooks_ed25519` endpoint (see `public_key`). */
const OneTimeSecret = Type.Optional(WebhookSecret);

/**
 * The creation reply: `secret` shown this once; a `standard_webhooks_ed25519` endpoint has none (its receiver verifies
 * with `public_key`, and its private key is never shown).
 */
export const CreatedWebhookEndpoint = wireObject(
  "CreatedWebhookEndpoint",
  Type.Composite(
    [
      WebhookEndpoint,
      Type.Object({
        secret: OneTimeSecret,
      }),
    ],
    {
      description:
        "The creation reply: `secret` shown this once; a `standard_webhooks_ed25519` endpoint has none (its receiver verifies with `public_key`, and its private key is never shown).",
    },
  ),
);
/** CreatedWebhookEndpoint as sent. */
export type CreatedWebhookEndpoint = Static<typeof CreatedWebhookEndpoint>;

/** RotatedWebhookEndpoint */
export const RotatedWebhookEndpoint = wireObject(
  "RotatedWebhookEndpoint",
  Type.Composite([
    WebhookEndpoint,
    Type.Object({
      secret: OneTimeSecret,
      previous_secret_expires_at: Type.String({
        description: "24 h after the rotation; the previous secret (or private key) signs until then.",
        format: "date-time",
      }),
    }),
  ]),
);
/** RotatedWebhookEndpoint as sent. */
export type RotatedWebhookEndpoint = Static<typeof RotatedWebhookEndpoint>;

/** Over the last 7 days. */
export const WebhookEndpointStats = wireObject(
  "WebhookEndpointStats",
  Type.Object(
    {
      success_rate: Nullable(Type.Number({ minimum: 0, maximum: 1 }), {
        description: "Null, not 0, when there were no deliveries.",
      }),
      total_deliveries: Type.Integer({ minimum: 0 }),
      last_ping_at: Nullable(Timestamp),
      last_ping_succeeded: Nullable(Type.Boolean()),
      days: Type.Array(
        Type.Object({
          date: Type.String({ format: "date", description: "A day in America/Sao_Paulo." }),
          total_deliveries: Type.Integer({ minimum: 0, description: "Attempts that finished that day." }),
          success_rate: Nullable(Type.Number({ minimum: 0, maximum: 1 }), {
            description: "Null, not 0, when no attempt finished that day.",
          }),
        }),
        {
          minItems: 7,
          maxItems: 7,
          description: "Today in São Paulo (so far) and the 6 days before, oldest first: the dashboard's chart.",
        },
      ),
    },
    { description: "Over the last 7 days." },
  ),
);
/** WebhookEndpointStats as sent. */
export type WebhookEndpointStats = Static<typeof WebhookEndpointStats>;

/** One delivery attempt (DESIGN §4 "Delivery rows"); `id` is also `X-Delivery-Id`. */
export const WebhookDelivery = wireObject(
  "WebhookDelivery",
  Type.Object(
    {
      id: Type.String({ pattern: "^whd_[0-9A-HJKMNP-TV-Z]{26}$" }),
      object: Type.Literal("webhook_delivery"),
      event_id: Type.String({ pattern: "^evt_[0-9A-HJKMNP-TV-Z]{26}$" }),
      event_type: Type.String(),
      destination: Type.Union([
        Type.Object({
          type: Type.Literal("endpoint"),
          endpoint_id: Type.String({ pattern: "^we_[0-9A-HJKMNP-TV-Z]{26}$" }),
        }),
        Type.Object({
          type: Type.Literal("postback"),
          transaction_id: Type.String({ pattern: "^txn_[0-9A-HJKMNP-TV-Z]{26}$" }),
          url: Type.String(),
        }),
      ]),
      attempt: Type.Integer({ description: "Also `X-Attempt`.", minimum: 1, maximum: 6 }),
      status: StringEnum(["pending", "succeeded", "failed", "dead"]),
      error: Nullable(Type.String(), {
        description:
          "`http_<status>`, `redirect_not_followed`, `timeout`, `connection_error` (retried); `endpoint_disabled`, `blocked_destination`, `missing_secret` (not retried); `paused_too_long` (`dead`: it waited 14 days while its endpoint was paused, DESIGN §16).",
      }),
      response_status: Nullable(Type.Integer()),
      response_body_excerpt: Nullable(Type.String(), {
        description: "First 1 KB of the receiver's body; never interpreted.",
      }),
      duration_ms: Nullable(Type.Integer()),
      scheduled_at: Timestamp,
      attempted_at: Nullable(Timestamp),
      next_attempt_at: Nullable(Timestamp, { description: "When the next attempt runs; null when none follows." }),
      manual: Type.Boolean({ description: "Part of a chain started by a ping or a manual resend." }),
    },
    { description: 'One delivery attempt (DESIGN §4 "Delivery rows"); `id` is also `X-Delivery-Id`.' },
  ),
);
/** WebhookDelivery as sent. */
export type WebhookDelivery = Static<typeof WebhookDelivery>;

/** A page of WebhookDelivery objects. */
export const WebhookDeliveryList = listOf("WebhookDeliveryList", WebhookDelivery);
/** WebhookDeliveryList as sent. */
export type WebhookDeliveryList = Static<typeof WebhookDeliveryList>;

/** One attempt with the request it sent (DESIGN §15: what the dashboard shows a receiver's developer). */
export const WebhookDeliveryDetail = wireObject(
  "WebhookDeliveryDetail",
  Type.Composite(
    [
      WebhookDelivery,
      Type.Object({
        request: Type.Object(
          {
            url: Type.String({ description: "Where it was sent." }),
            headers: Type.Record(Type.String(), Type.String(), {
              description:
                "The headers sent, names in lower case. Signatures are not kept: their values read `…` (`x-signature: t=…,v1=…`).",
            }),
            body: Type.String({ description: "The exact body sent: the event envelope as JSON." }),
          },
          { description: "The request of this attempt (or of the coming one, while `pending`)." },
        ),
      }),
    ],
    { description: "A delivery attempt with the request it sent and, in its fields, the answer it got." },
  ),
);
/** WebhookDeliveryDetail as sent. */
export type WebhookDeliveryDetail = Static<typeof WebhookDeliveryDetail>;

/** WebhookRecovery */
export const WebhookRecovery = wireObject(
  "WebhookRecovery",
  Type.Object({
    object: Type.Literal("webhook_recovery"),
    endpoint_id: Type.String({ description: "`we_…`" }),
    since: Timestamp,
    until: Timestamp,
    events: Type.Integer({ description: "How many events will be re-sent.", minimum: 0, maximum: 10000 }),
  }),
);
/** WebhookRecovery as sent. */
export type WebhookRecovery = Static<typeof WebhookRecovery>;

/** `data.object` of a `ping`: the endpoint it was sent to. */
export const EndpointPing = wireObject(
  "EndpointPing",
  Type.Object(
    {
      id: Type.String({ pattern: "^we_[0-9A-HJKMNP-TV-Z]{26}$" }),
      object: Type.Literal("webhook_endpoint"),
      status: StringEnum(["enabled", "disabled"]),
    },
    { description: "`data.object` of a `ping`: the endpoint it was sent to." },
  ),
);
/** EndpointPing as sent. */
export type EndpointPing = Static<typeof EndpointPing>;

/** An endpoint row as replies show it: with its custom headers decrypted and masked (the domain's `endpointView`). */
export type WebhookEndpointView = WebhookEndpointRow & { maskedHeaders: Record<string, string> };

/** Serializes `endpoint`: its secret never, only the secret's first characters; custom header values masked. */
export function serializeWebhookEndpoint(endpoint: WebhookEndpointView): WebhookEndpoint {
  return {
    id: endpoint.id,
    object: "webhook_endpoint",
    url: endpoint.url,
    events: endpoint.events,
    mode: endpoint.mode,
    description: endpoint.description,
    signature_scheme: endpoint.signature_scheme,
    secret_prefix: endpoint.secret_prefix,
    public_key: endpoint.public_key,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabled_reason as WebhookEndpoint["disabled_reason"],
    auto_disabled_at: iso(endpoint.auto_disabled_at),
    paused: endpoint.paused,
    ordering: endpoint.ordering,
    rate_limit: endpoint.rate_limit,
    headers: endpoint.maskedHeaders,
    created_at: endpoint.created_at.toISOString(),
    updated_at: endpoint.updated_at.toISOString(),
  };
}

/** The creation reply: `endpoint` with its `secret` (`whsec_…`) shown this once, when it has one to show. */
export function serializeCreatedEndpoint(endpoint: WebhookEndpointView, secret: string | null): CreatedWebhookEndpoint {
  return { ...serializeWebhookEndpoint(endpoint), ...(secret === null ? {} : { secret }) };
}

/** The rotation reply: the new secret (or public key), shown this once, and when the previous one stops signing. */
export function serializeRotatedEndpoint(rotated: {
  endpoint: WebhookEndpointView;
  secret: string | null;
  previousSecretExpiresAt: Date;
}): RotatedWebhookEndpoint {
  return {
    ...serializeCreatedEndpoint(rotated.endpoint, rotated.secret),
    previous_secret_expires_at: rotated.previousSecretExpiresAt.toISOString(),
  };
}

/** Serializes one delivery attempt (DESIGN §4 "Delivery rows"), with its destination. */
export function serializeDelivery(delivery: WebhookDeliveryRow): WebhookDelivery {
  return {
    id: delivery.id,
    object: "webhook_delivery",
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    destination:
      delivery.destination_type === "endpoint"
        ? { type: "endpoint", endpoint_id: delivery.endpoint_id as string }
        : { type: "postback", transaction_id: delivery.transaction_id as string, url: delivery.url as string },
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

/** Serializes an attempt and the request it sent (`request.headers` with the signatures' placeholders). */
export function serializeDeliveryDetail(
  delivery: WebhookDeliveryRow,
  request: { url: string; headers: Record<string, string>; body: string },
): WebhookDeliveryDetail {
  return { ...serializeDelivery(delivery), request };
}

/**
 * Serializes an endpoint's last 7 days.
 * @param stats - `successRate` 0..1, null (not 0) without a finished attempt; `totalDeliveries`; the last ping's time
 *   and outcome, null without one; `days`, the same per São Paulo day
 */
export function serializeEndpointStats(stats: {
  successRate: number | null;
  totalDeliveries: number;
  lastPingAt: Date | null;
  lastPingSucceeded: boolean | null;
  days: { date: string; totalDeliveries: number; successRate: number | null }[];
}): WebhookEndpointStats {
  return {
    success_rate: stats.successRate,
    total_deliveries: stats.totalDeliveries,
    last_ping_at: iso(stats.lastPingAt),
    last_ping_succeeded: stats.lastPingSucceeded,
    days: stats.days.map((day) => ({
      date: day.date,
      total_deliveries: day.totalDeliveries,
      success_rate: day.successRate,
    })),
  };
}

/** Serializes a recovery (DESIGN §4): the window re-sent to `endpointId` and how many events it holds. */
export function serializeRecovery(recovery: {
  endpointId: string;
  since: Date;
  until: Date;
  events: number;
}): WebhookRecovery {
  return {
    object: "webhook_recovery",
    endpoint_id: recovery.endpointId,
    since: recovery.since.toISOString(),
    until: recovery.until.toISOString(),
    events: recovery.events,
  };
}
