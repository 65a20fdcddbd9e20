/**
 * joi schemas of the event routes (DESIGN §5 "Merchant API").
 */
import Joi from "joi";
import type { EventFilters } from "@lm/domain";
import { listQuerySchema, type ListQuery } from "../../http/list";
import { defineRoute, API_KEY, KEY_RATE_LIMITED, NOT_IN_STORE_MODE, NO_API_KEY } from "../../http/contract";
import { EventEnvelope, EventList } from "@lm/wire";

/**
 * Query of `GET /v1/events`: paging, an optional exact `type` (e.g. `transaction.paid`) and the polling window
 * `created_after` / `created_before` (ISO 8601 instants, exclusive; DESIGN §8 "Polling by time").
 */
export const listEventsSchema: Joi.ObjectSchema<ListQuery & EventFilters> = listQuerySchema({
  type: Joi.string()
    .min(1)
    .max(64)
    .description(
      "Exact event type, e.g. `transaction.paid`. An unknown type is 400 `invalid_event_type`, never an empty list.",
    ),
  created_after: Joi.date()
    .iso()
    .description("Only events created strictly after this instant (ISO 8601), for polling by time."),
  created_before: Joi.date().iso().description("Only events created strictly before this instant (ISO 8601)."),
});

/** Path of the routes under `{id}`: An event id; any other string is 404. */
export const eventParams = Joi.object<{ id: string }>({
  id: Joi.string()
    .pattern(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/)
    .required()
    .description("An event id; any other string is 404."),
});

/** `listEvents`. */
export const listEvents = defineRoute({
  method: "get",
  path: "/v1/events",
  operationId: "listEvents",
  tag: "Events",
  summary: "List events (the polling safety net), optionally within a time window",
  description:
    "Unknown query parameters are refused (400). Events older than `RETENTION_DAYS` (default 90 days, counted from their creation) are gone and never listed.",
  security: API_KEY,
  query: listEventsSchema,
  replies: {
    200: { description: "A page of the key's store and mode, newest first.", schema: EventList },
  },
  errors: {
    400: {
      description:
        "`validation_failed`: the body, query or a path parameter is invalid; `param` names the field. `invalid_event_type`: `type` names no event type (a typo gets the closest type suggested; `GET /v1/me/event-types` lists them, and `ping` is accepted too).",
      codes: ["validation_failed", "invalid_event_type"],
    },
    401: NO_API_KEY,
    429: KEY_RATE_LIMITED,
  },
});

/** `getEvent`. */
export const getEvent = defineRoute({
  method: "get",
  path: "/v1/events/{id}",
  operationId: "getEvent",
  tag: "Events",
  summary: "Read an event",
  description: "An event older than `RETENTION_DAYS` (default 90 days, counted from its creation) is gone: 404.",
  security: API_KEY,
  params: eventParams,
  replies: {
    200: { description: "The envelope webhooks deliver.", schema: EventEnvelope },
  },
  errors: {
    401: NO_API_KEY,
    404: NOT_IN_STORE_MODE,
    429: KEY_RATE_LIMITED,
  },
});
