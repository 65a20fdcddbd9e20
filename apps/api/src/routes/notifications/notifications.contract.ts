/**
 * Contracts of the notifications routes.
 */
import { defineRoute, INVALID_REQUEST, NO_SESSION, PANEL_SESSION } from "../../http/contract";
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
    400: INVALID_REQUEST,
    401: NO_SESSION,
    403: { description: "`permission_denied`: operators have no seller and no feed.", codes: ["permission_denied"] },
  },
});
