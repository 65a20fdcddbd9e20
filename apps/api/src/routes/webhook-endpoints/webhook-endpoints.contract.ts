/**
 * joi schemas of the webhook endpoint routes (DESIGN §5 "Panel"). Bodies refuse unknown fields rather than strip
 * them: a misspelt `enable: false` must not answer 200 with the endpoint still on. Event type names are checked
 * against the catalog by the use case (`invalid_event_type`), not here.
 */
import Joi from "joi";
import {
  CUSTOM_HEADER_NAME,
  CUSTOM_HEADER_VALUE,
  MAX_CUSTOM_HEADER_VALUE,
  MAX_CUSTOM_HEADERS,
  SIGNATURE_SCHEMES,
  type CreateWebhookEndpointInput,
  type DeliveryFilters,
  type DeliverySearch,
  type Mode,
  type UpdateWebhookEndpointInput,
} from "@lm/domain";
import { listQuerySchema, type ListQuery } from "../../http/list";
import {
  defineRoute,
  type ErrorReplyContract,
  INVALID_REQUEST,
  NO_SELLER,
  NO_SESSION,
  OWNERS_ONLY,
  PANEL_SESSION,
} from "../../http/contract";
import {
  CreatedWebhookEndpoint,
  RotatedWebhookEndpoint,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointStats,
  WebhookRecovery,
} from "@lm/wire";

/** Any string: what makes a URL acceptable (length included) is the destination check's to say, as `invalid_url`. */
const url = Joi.string()
  .allow("")
  .description(
    "Must pass the destination check (https, port 443, a public host, no credentials), else 400 `invalid_url`.",
  );
const events = Joi.array()
  .items(Joi.string().min(1).max(64))
  .min(1)
  .max(64)
  .unique()
  .description(
    'Types from `GET /v1/me/event-types`, or `["*"]` alone for all; anything else (including `ping`) is 400 `invalid_event_type`.',
  );
const description = Joi.string().max(500).allow(null, "").description('`""` or null: none.');
/** DESIGN §12 "Signature schemes", §16 "Asymmetric signatures". */
const signatureScheme = Joi.string().valid(...SIGNATURE_SCHEMES);

/** DESIGN §16 "Ordering". */
const ordering = Joi.string()
  .valid("none", "fifo")
  .description(
    "`fifo`: one attempt at a time, events in `created_at` order, a failing event holding the ones behind it through its own retries. `none`: attempts run independently.",
  );
/** DESIGN §16 "Rate limit". */
const rateLimit = Joi.number()
  .integer()
  .min(1)
  .max(1000)
  .allow(null)
  .description(
    "Attempts that may start in any wall-clock second (1 to 1000), evenly spaced, no burst; excess attempts wait, never fail. null: unlimited.",
  );
/** DESIGN §16 "Pause". */
const paused = Joi.boolean().description(
  "true: deliveries wait (up to 14 days, then `dead` with `paused_too_long`); false resumes, delivering what waited in order.",
);
/** A custom header's value as sent: printable ASCII, at most 1,024 characters. */
const headerValue = Joi.string().max(MAX_CUSTOM_HEADER_VALUE).pattern(CUSTOM_HEADER_VALUE).allow("");
/** DESIGN §16 "Custom headers": names and values checked here, reserved names and `Authorization` by the use case. */
function customHeaders(value: Joi.Schema) {
  return Joi.object()
    .pattern(CUSTOM_HEADER_NAME, value)
    .max(MAX_CUSTOM_HEADERS)
    .description(
      "Custom headers `{name: value}` sent with every delivery: at most 10; names 1 to 64 letters, digits and hyphens; values at most 1,024 printable ASCII characters. Never a name the service sets (`Content-Type`, `User-Agent`, `Idempotency-Key`, `X-Signature`, `X-Event-*`, `X-Delivery-Id`, `X-Attempt`, `webhook-*`) nor `Host`, `Content-Length`, `Connection`, `Transfer-Encoding`; `Authorization` only on an https url. A refused header is 400 `validation_failed` with `param` `headers.<name>`. Stored encrypted; replies mask the values.",
    );
}

/** Body of `POST /v1/me/webhook-endpoints`. */
export const createWebhookEndpointSchema: Joi.ObjectSchema<CreateWebhookEndpointInput> = Joi.object({
  url: url.required(),
  events: events.required(),
  mode: Joi.string().valid("live", "test").default("test"),
  description,
  signature_scheme: signatureScheme
    .default("stripe")
    .description(
      "How deliveries to the endpoint are signed (DESIGN §4, §12, §16). `stripe` (the default): `X-Signature: t=<unix>,v1=<hex>`, HMAC-SHA256 keyed with the whole `whsec_…` string as UTF-8; Stripe's libraries verify it unchanged. `standard_webhooks`: `webhook-id`, `webhook-timestamp` and `webhook-signature: v1,<base64>` of the Standard Webhooks specification, keyed with the base64-decoded bytes after `whsec_`; its official libraries verify it unchanged. `standard_webhooks_ed25519`: the same headers with `v1a,<base64>` Ed25519 signatures, verified with the endpoint's `public_key` (no `secret` is issued). Fixed at creation. Postbacks are always `stripe`.",
    ),
  ordering: ordering.default("none"),
  rate_limit: rateLimit.default(null),
  paused: paused.default(false),
  headers: customHeaders(headerValue),
}).prefs({ stripUnknown: false });

/**
 * Body of `PATCH /v1/me/webhook-endpoints/{id}`: at least one field. `signature_scheme` is accepted only as the
 * endpoint's own (the use case refuses a change).
 */
export const updateWebhookEndpointSchema: Joi.ObjectSchema<UpdateWebhookEndpointInput> = Joi.object({
  url,
  events,
  description,
  enabled: Joi.boolean().description(
    "false: `disabled_reason: manual`; true clears `disabled_reason` and `auto_disabled_at`.",
  ),
  signature_scheme: signatureScheme.description(
    "Accepted only as the endpoint's own scheme: another value is 400 `validation_failed` (param `signature_scheme`); create a new endpoint to change schemes.",
  ),
  ordering,
  rate_limit: rateLimit,
  paused,
  headers: customHeaders(headerValue.allow(null)).description(
    "A JSON merge patch of the custom headers: a string sets a header (replacing one whose name differs only in case), null removes it, headers not named stay. The result follows the rules of creation, checked against the endpoint's url after this change.",
  ),
})
  .min(1)
  .prefs({ stripUnknown: false })
  .description("At least one field.");

/** Query of `GET /v1/me/webhook-endpoints`. */
export const listWebhookEndpointsSchema: Joi.ObjectSchema<ListQuery & { mode?: Mode }> = listQuerySchema({
  mode: Joi.string().valid("live", "test"),
});

/** Query of `GET /v1/me/webhook-endpoints/{id}/deliveries`. */
export const listDeliveriesSchema: Joi.ObjectSchema<ListQuery & DeliveryFilters> = listQuerySchema({
  status: Joi.string().valid("pending", "succeeded", "failed", "dead"),
  event_type: Joi.string()
    .min(1)
    .max(64)
    .description("Exact event type. An unknown type is 400 `invalid_event_type`, never an empty list."),
});

/** Query of `GET /v1/me/webhook-deliveries` (DESIGN §8 "Delivery search across destinations"). */
export const searchDeliveriesSchema: Joi.ObjectSchema<ListQuery & DeliverySearch> = listQuerySchema({
  mode: Joi.string().valid("live", "test").description("The event's mode."),
  destination: Joi.string().valid("endpoint", "postback"),
  transaction_id: Joi.string().min(1).max(64),
  event_id: Joi.string().min(1).max(64),
  status: Joi.string().valid("pending", "succeeded", "failed", "dead"),
});

/** An ISO 8601 instant in a body, read as a `Date` (the only conversion a body gets: JSON has no date type). */
const instant = Joi.date().iso().prefs({ convert: true });

/** Body of `POST /v1/me/webhook-endpoints/{id}/recover` (DESIGN §8 "Recover"). */
export const recoverEndpointSchema: Joi.ObjectSchema<{ since: Date; until?: Date }> = Joi.object({
  since: instant.required().description("Start of the window, at most 14 days back."),
  until: instant.description("End of the window; defaults to now."),
}).prefs({ stripUnknown: false });

/** Path of the routes under `{id}`: A webhook endpoint id; any other string is 404. */
export const endpointParams = Joi.object<{ id: string }>({
  id: Joi.string()
    .pattern(/^we_[0-9A-HJKMNP-TV-Z]{26}$/)
    .required()
    .description("A webhook endpoint id; any other string is 404."),
});

/** Path of the routes under `{id}`: A delivery id; any other string is 404. */
export const deliveryParams = Joi.object<{ id: string }>({
  id: Joi.string()
    .pattern(/^whd_[0-9A-HJKMNP-TV-Z]{26}$/)
    .required()
    .description("A delivery id; any other string is 404."),
});

/** The refusal of an endpoint the seller does not have. */
const ENDPOINT_NOT_FOUND: ErrorReplyContract = {
  description: "`resource_not_found`: unknown, malformed, deleted, or another seller's endpoint.",
  codes: ["resource_not_found"],
};

/** `createWebhookEndpoint`. */
export const createWebhookEndpoint = defineRoute({
  method: "post",
  path: "/v1/me/webhook-endpoints",
  operationId: "createWebhookEndpoint",
  tag: "Webhook endpoints",
  summary: "Create a webhook endpoint",
  description: "Always needs a live step-up (API keys cannot create endpoints). Unknown fields are refused.",
  security: PANEL_SESSION,
  body: createWebhookEndpointSchema,
  replies: {
    201: {
      description:
        "The endpoint, enabled, with its `secret` shown once (none for `standard_webhooks_ed25519`: see `public_key`).",
      schema: CreatedWebhookEndpoint,
    },
  },
  errors: {
    400: {
      description:
        "`validation_failed`: the body, query or a path parameter is invalid; `param` names the field (`headers.<name>` for a custom header refused). `invalid_url`: `url` fails the destination check (the message gives the reason). `invalid_event_type`: an event type outside the catalog, `ping`, or `*` beside other types.",
      codes: ["validation_failed", "invalid_url", "invalid_event_type"],
    },
    401: NO_SESSION,
    403: {
      description:
        "`permission_denied`: the request carries a panel cookie and its `Origin` (or `Referer`) is not in `PANEL_ORIGINS`. Also for operators. `mfa_required`: no live step-up on this session (`POST /v1/me/auth/step-up` first).",
      codes: ["permission_denied", "mfa_required"],
    },
    409: { description: "`invalid_state`: the store already has 5 endpoints in this mode.", codes: ["invalid_state"] },
  },
});

/** `listWebhookEndpoints`. */
export const listWebhookEndpoints = defineRoute({
  method: "get",
  path: "/v1/me/webhook-endpoints",
  operationId: "listWebhookEndpoints",
  tag: "Webhook endpoints",
  summary: "List the store's webhook endpoints",
  description: "Unknown query parameters are refused (400).",
  security: PANEL_SESSION,
  query: listWebhookEndpointsSchema,
  replies: {
    200: { description: "A page, newest first; deleted endpoints are not listed.", schema: WebhookEndpointList },
  },
  errors: {
    400: INVALID_REQUEST,
    401: NO_SESSION,
    403: OWNERS_ONLY,
  },
});

/** `getWebhookEndpoint`. */
export const getWebhookEndpoint = defineRoute({
  method: "get",
  path: "/v1/me/webhook-endpoints/{id}",
  operationId: "getWebhookEndpoint",
  tag: "Webhook endpoints",
  summary: "Read a webhook endpoint",
  security: PANEL_SESSION,
  params: endpointParams,
  replies: {
    200: { description: "The endpoint.", schema: WebhookEndpoint },
  },
  errors: {
    401: NO_SESSION,
    403: OWNERS_ONLY,
    404: ENDPOINT_NOT_FOUND,
  },
});

/** `updateWebhookEndpoint`. */
export const updateWebhookEndpoint = defineRoute({
  method: "patch",
  path: "/v1/me/webhook-endpoints/{id}",
  operationId: "updateWebhookEndpoint",
  tag: "Webhook endpoints",
  summary: "Change a webhook endpoint, or switch it off or on",
  description:
    "Needs a live step-up while the seller's `webhook` toggle is on. At least one field; unknown fields are refused. Events missed while an endpoint was off are not resent.",
  security: PANEL_SESSION,
  params: endpointParams,
  body: updateWebhookEndpointSchema,
  replies: {
    200: { description: "The endpoint after the change.", schema: WebhookEndpoint },
  },
  errors: {
    400: {
      description:
        "`validation_failed`: the body, query or a path parameter is invalid; `param` names the field (`headers.<name>` for a custom header refused). `invalid_url`: `url` fails the destination check. `invalid_event_type`: an event type outside the catalog, `ping`, or `*` beside other types.",
      codes: ["validation_failed", "invalid_url", "invalid_event_type"],
    },
    401: NO_SESSION,
    403: {
      description:
        "`permission_denied`: the request carries a panel cookie and its `Origin` (or `Referer`) is not in `PANEL_ORIGINS`. Also for operators. `mfa_required`: no live step-up on this session while the seller's `webhook` step-up toggle is on.",
      codes: ["permission_denied", "mfa_required"],
    },
    404: ENDPOINT_NOT_FOUND,
  },
});

/** `deleteWebhookEndpoint`. */
export const deleteWebhookEndpoint = defineRoute({
  method: "delete",
  path: "/v1/me/webhook-endpoints/{id}",
  operationId: "deleteWebhookEndpoint",
  tag: "Webhook endpoints",
  summary: "Delete a webhook endpoint",
  description:
    "Needs a live step-up while the seller's `webhook` toggle is on. The endpoint leaves lists and fan-out; its id answers 404.",
  security: PANEL_SESSION,
  params: endpointParams,
  replies: {
    204: { description: "Deleted." },
  },
  errors: {
    401: NO_SESSION,
    403: {
      description:
        "`permission_denied`: the request carries a panel cookie and its `Origin` (or `Referer`) is not in `PANEL_ORIGINS`. Also for operators. `mfa_required`: no live step-up on this session while the seller's `webhook` step-up toggle is on.",
      codes: ["permission_denied", "mfa_required"],
    },
    404: ENDPOINT_NOT_FOUND,
  },
});

/** `rotateWebhookEndpointSecret`. */
export const rotateWebhookEndpointSecret = defineRoute({
  method: "post",
  path: "/v1/me/webhook-endpoints/{id}/rotate-secret",
  operationId: "rotateWebhookEndpointSecret",
  tag: "Webhook endpoints",
  summary: "Rotate an endpoint's signing secret",
  description:
    "Needs a live step-up while the seller's `webhook` toggle is on. For 24 h deliveries carry two signatures (`v1`, or `v1a` for `standard_webhooks_ed25519`), the new secret's (or key's) first. An Ed25519 endpoint gets a new key pair: the reply shows its new `public_key` and no `secret`.",
  security: PANEL_SESSION,
  params: endpointParams,
  replies: {
    200: {
      description:
        "The endpoint with the new `secret` shown once (or the new `public_key`), and `previous_secret_expires_at`.",
      schema: RotatedWebhookEndpoint,
    },
  },
  errors: {
    401: NO_SESSION,
    403: {
      description:
        "`permission_denied`: the request carries a panel cookie and its `Origin` (or `Referer`) is not in `PANEL_ORIGINS`. Also for operators. `mfa_required`: no live step-up on this session while the seller's `webhook` step-up toggle is on.",
      codes: ["permission_denied", "mfa_required"],
    },
    404: ENDPOINT_NOT_FOUND,
  },
});

/** `pingWebhookEndpoint`. */
export const pingWebhookEndpoint = defineRoute({
  method: "post",
  path: "/v1/me/webhook-endpoints/{id}/ping",
  operationId: "pingWebhookEndpoint",
  tag: "Webhook endpoints",
  summary: "Send a `ping` event to the endpoint",
  description: "Delivered whatever the endpoint's subscriptions, as a manual chain.",
  security: PANEL_SESSION,
  params: endpointParams,
  replies: {
    202: { description: "The first delivery row of the ping; the worker sends it.", schema: WebhookDelivery },
  },
  errors: {
    401: NO_SESSION,
    403: {
      description:
        "`permission_denied`: the request carries a panel cookie and its `Origin` (or `Referer`) is not in `PANEL_ORIGINS`. Also for operators.",
      codes: ["permission_denied"],
    },
    404: ENDPOINT_NOT_FOUND,
    429: {
      description: "`rate_limited`: over 30 pings and resends per minute for this seller.",
      codes: ["rate_limited"],
      headers: ["RetryAfter"],
    },
  },
});

/** `listEndpointDeliveries`. */
export const listEndpointDeliveries = defineRoute({
  method: "get",
  path: "/v1/me/webhook-endpoints/{id}/deliveries",
  operationId: "listEndpointDeliveries",
  tag: "Webhook endpoints",
  summary: "List an endpoint's delivery attempts",
  description: "Unknown query parameters are refused (400).",
  security: PANEL_SESSION,
  params: endpointParams,
  query: listDeliveriesSchema,
  replies: {
    200: { description: "A page of attempts, newest first.", schema: WebhookDeliveryList },
  },
  errors: {
    400: {
      description:
        "`validation_failed`: the body, query or a path parameter is invalid; `param` names the field. `invalid_event_type`: `event_type` names no event type (a typo gets the closest type suggested; `GET /v1/me/event-types` lists them, and `ping` is accepted too).",
      codes: ["validation_failed", "invalid_event_type"],
    },
    401: NO_SESSION,
    403: OWNERS_ONLY,
    404: ENDPOINT_NOT_FOUND,
  },
});

/** `getWebhookEndpointStats`. */
export const getWebhookEndpointStats = defineRoute({
  method: "get",
  path: "/v1/me/webhook-endpoints/{id}/stats",
  operationId: "getWebhookEndpointStats",
  tag: "Webhook endpoints",
  summary: "Delivery statistics of the last 7 days",
  security: PANEL_SESSION,
  params: endpointParams,
  replies: {
    200: { description: "The stats.", schema: WebhookEndpointStats },
  },
  errors: {
    401: NO_SESSION,
    403: OWNERS_ONLY,
    404: ENDPOINT_NOT_FOUND,
  },
});

/** `resendWebhookDelivery`. */
export const resendWebhookDelivery = defineRoute({
  method: "post",
  path: "/v1/me/webhook-deliveries/{id}/resend",
  operationId: "resendWebhookDelivery",
  tag: "Webhook endpoints",
  summary: "Resend a delivery's event as a new manual chain",
  description:
    "Starts at attempt 1 with a new delivery id; also to a disabled endpoint. A delivery of an event older than `RETENTION_DAYS` is 404: that event cannot be resent.",
  security: PANEL_SESSION,
  params: deliveryParams,
  replies: {
    202: { description: "The first row of the new chain; the worker sends it.", schema: WebhookDelivery },
  },
  errors: {
    401: NO_SESSION,
    403: {
      description:
        "`permission_denied`: the request carries a panel cookie and its `Origin` (or `Referer`) is not in `PANEL_ORIGINS`. Also for operators.",
      codes: ["permission_denied"],
    },
    404: {
      description:
        "`resource_not_found`: unknown, malformed, or another seller's delivery, or one of a deleted endpoint.",
      codes: ["resource_not_found"],
    },
    429: {
      description: "`rate_limited`: over 30 pings and resends per minute for this seller.",
      codes: ["rate_limited"],
      headers: ["RetryAfter"],
    },
  },
});

/** `getWebhookDelivery`. */
export const getWebhookDelivery = defineRoute({
  method: "get",
  path: "/v1/me/webhook-deliveries/{id}",
  operationId: "getWebhookDelivery",
  tag: "Webhook endpoints",
  summary: "A delivery attempt with the request it sent",
  description:
    "What the dashboard shows a receiver's developer (DESIGN §15): the attempt's row (its answer: `response_status`, `response_body_excerpt`, `error`, `duration_ms`) and `request`, the URL, headers and exact body it sent, rebuilt from the event as every attempt builds them. Signatures are computed per attempt and never kept: their values read `…`. A delivery of an event older than `RETENTION_DAYS` is 404.",
  security: PANEL_SESSION,
  params: deliveryParams,
  replies: {
    200: { description: "The attempt and its request.", schema: WebhookDeliveryDetail },
  },
  errors: {
    401: NO_SESSION,
    403: NO_SELLER,
    404: {
      description: "`resource_not_found`: unknown, malformed, or another seller's delivery, or past retention.",
      codes: ["resource_not_found"],
    },
  },
});

/** `recoverWebhookEndpoint`. */
export const recoverWebhookEndpoint = defineRoute({
  method: "post",
  path: "/v1/me/webhook-endpoints/{id}/recover",
  operationId: "recoverWebhookEndpoint",
  tag: "Webhook endpoints",
  summary: "Re-send what an endpoint missed in a window",
  description:
    "Needs a live step-up while the seller's `webhook` toggle is on. Every event of `[since, until]` (at most 14 days back; `until` defaults to now) of the endpoint's store and mode that it subscribes to now, and whose latest chain to it did not succeed (or that never had one), gets attempt 1 of a new manual chain; at most 10,000 events. The worker sends them with the usual retries. Unknown body fields are refused (400).",
  security: PANEL_SESSION,
  params: endpointParams,
  body: recoverEndpointSchema,
  replies: {
    202: { description: "The recovery; `events` is how many events will be re-sent.", schema: WebhookRecovery },
  },
  errors: {
    400: {
      description:
        '`validation_failed`: `since` is more than 14 days back or after `until` (`param: "since"`), or the body is invalid.',
      codes: ["validation_failed"],
    },
    401: NO_SESSION,
    403: {
      description:
        "`permission_denied`: the request carries a panel cookie and its `Origin` (or `Referer`) is not in `PANEL_ORIGINS`. Also for operators. `mfa_required`: no live step-up on this session while the seller's `webhook` step-up toggle is on.",
      codes: ["permission_denied", "mfa_required"],
    },
    404: ENDPOINT_NOT_FOUND,
  },
});

/** `searchWebhookDeliveries`. */
export const searchWebhookDeliveries = defineRoute({
  method: "get",
  path: "/v1/me/webhook-deliveries",
  operationId: "searchWebhookDeliveries",
  tag: "Webhook endpoints",
  summary: "Search delivery attempts across destinations (endpoints and postback URLs)",
  description:
    "Every attempt of the seller's deliveries, cursor-paged, newest first; the filters combine with AND. `transaction_id` matches a charge's postback attempts and the attempts of every event of that charge. Unknown query parameters are refused (400).",
  security: PANEL_SESSION,
  query: searchDeliveriesSchema,
  replies: {
    200: { description: "A page of attempts, newest first.", schema: WebhookDeliveryList },
  },
  errors: {
    400: INVALID_REQUEST,
    401: NO_SESSION,
    403: OWNERS_ONLY,
  },
});
