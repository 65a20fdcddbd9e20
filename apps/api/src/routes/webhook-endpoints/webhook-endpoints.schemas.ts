/**
 * joi schemas of the webhook endpoint routes (DESIGN §5 "Panel"). Bodies refuse unknown fields rather than strip
 * them: a misspelt `enable: false` must not answer 200 with the endpoint still on. Event type names are checked
 * against the catalog by the use case (`invalid_event_type`), not here.
 */
import Joi from "joi";
import {
  SIGNATURE_SCHEMES,
  type CreateWebhookEndpointInput,
  type DeliveryFilters,
  type DeliverySearch,
  type Mode,
  type UpdateWebhookEndpointInput,
} from "@lm/domain";
import { listQuerySchema, type ListQuery } from "../../http/list";

/** Any string: what makes a URL acceptable (length included) is the destination check's to say, as `invalid_url`. */
const url = Joi.string().allow("");
const events = Joi.array().items(Joi.string().min(1).max(64)).min(1).max(64).unique();
const description = Joi.string().max(500).allow(null, "");
/** DESIGN §12 "Signature schemes". */
const signatureScheme = Joi.string().valid(...SIGNATURE_SCHEMES);

/** Body of `POST /v1/me/webhook-endpoints`. */
export const createWebhookEndpointSchema: Joi.ObjectSchema<CreateWebhookEndpointInput> = Joi.object({
  url: url.required(),
  events: events.required(),
  mode: Joi.string().valid("live", "test").default("test"),
  description,
  signature_scheme: signatureScheme.default("stripe"),
}).prefs({ stripUnknown: false });

/**
 * Body of `PATCH /v1/me/webhook-endpoints/{id}`: at least one field. `signature_scheme` is accepted only as the
 * endpoint's own (the use case refuses a change).
 */
export const updateWebhookEndpointSchema: Joi.ObjectSchema<UpdateWebhookEndpointInput> = Joi.object({
  url,
  events,
  description,
  enabled: Joi.boolean(),
  signature_scheme: signatureScheme,
})
  .min(1)
  .prefs({ stripUnknown: false });

/** Query of `GET /v1/me/webhook-endpoints`. */
export const listWebhookEndpointsSchema: Joi.ObjectSchema<ListQuery & { mode?: Mode }> = listQuerySchema({
  mode: Joi.string().valid("live", "test"),
});

/** Query of `GET /v1/me/webhook-endpoints/{id}/deliveries`. */
export const listDeliveriesSchema: Joi.ObjectSchema<ListQuery & DeliveryFilters> = listQuerySchema({
  status: Joi.string().valid("pending", "succeeded", "failed", "dead"),
  event_type: Joi.string().min(1).max(64),
});

/** Query of `GET /v1/me/webhook-deliveries` (DESIGN §8 "Delivery search across destinations"). */
export const searchDeliveriesSchema: Joi.ObjectSchema<ListQuery & DeliverySearch> = listQuerySchema({
  mode: Joi.string().valid("live", "test"),
  destination: Joi.string().valid("endpoint", "postback"),
  transaction_id: Joi.string().min(1).max(64),
  event_id: Joi.string().min(1).max(64),
  status: Joi.string().valid("pending", "succeeded", "failed", "dead"),
});

/** An ISO 8601 instant in a body, read as a `Date` (the only conversion a body gets: JSON has no date type). */
const instant = Joi.date().iso().prefs({ convert: true });

/** Body of `POST /v1/me/webhook-endpoints/{id}/recover` (DESIGN §8 "Recover"). */
export const recoverEndpointSchema: Joi.ObjectSchema<{ since: Date; until?: Date }> = Joi.object({
  since: instant.required(),
  until: instant,
}).prefs({ stripUnknown: false });
