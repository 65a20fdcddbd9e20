/**
 * Contracts of the event-types routes.
 */
import { defineRoute, NO_SESSION, PANEL_SESSION } from "../../http/contract";
import { EventTypeList } from "@lm/wire";

/** `listEventTypes`. */
export const listEventTypes = defineRoute({
  method: "get",
  path: "/v1/me/event-types",
  operationId: "listEventTypes",
  tag: "Webhook endpoints",
  summary: "The event types an endpoint can subscribe to",
  security: PANEL_SESSION,
  replies: {
    200: {
      description: "The whole catalog (not paged: `has_more` is false); `ping` is not among them.",
      schema: EventTypeList,
    },
  },
  errors: {
    401: NO_SESSION,
  },
});
