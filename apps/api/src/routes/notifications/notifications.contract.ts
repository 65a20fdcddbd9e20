/**
 * Contracts of the notifications routes.
 */
import { defineRoute, PANEL_SESSION } from "../../http/contract";
import type Joi from "joi";
import { NotificationList } from "@lm/wire";
import { listQuerySchema, type ListQuery } from "../../http/list";

/** Query of `GET /v1/me/notifications`: paging only. */
export const listNotificationsSchema: Joi.ObjectSchema<ListQuery> = listQuerySchema();

/** `listNotifications`. */
export const listNotifications = defineRoute({
  method: "get",
  path: "/v1/me/notifications",
  operationId: "listNotifications",
  tag: "Account and sessions",
  summary: "The seller's feed of security-relevant changes and system actions",
  security: PANEL_SESSION,
  query: listNotificationsSchema,
  replies: {
    200: { description: "A page of the feed, newest first.", schema: NotificationList },
  },
  errors: {
    400: {
      description: "`validation_failed`: the body, query or a path parameter is invalid; `param` names the field.",
      codes: ["validation_failed"],
    },
    401: { description: "`authentication_required`: no live `lm.session` cookie.", codes: ["authentication_required"] },
    403: { description: "`permission_denied`: operators have no seller and no feed.", codes: ["permission_denied"] },
  },
});
