/**
 * joi schemas of the operators' inbox routes (DESIGN §5 "Inbound and ops").
 */
import Joi from "joi";
import type { InboxStatus } from "@lm/domain";
import { listQuerySchema, type ListQuery } from "../../http/list";
import { defineRoute, INVALID_REQUEST, NO_SESSION, PANEL_SESSION } from "../../http/contract";
import { Empty, InboxItemDetail, InboxItemList } from "@lm/wire";

/** Query of `GET /v1/ops/inbox`: paging, an acquirer slug and a derived status. */
export const listInboxSchema: Joi.ObjectSchema<ListQuery & { acquirer?: string; status?: InboxStatus }> =
  listQuerySchema({
    acquirer: Joi.string().min(1).max(40).description("Acquirer slug."),
    status: Joi.string()
      .valid("pending", "processed", "failed")
      .description("`pending`: not yet processed; `processed`: settled; `failed`: has an `error`."),
  });

/** Path of the routes under `{id}`: An inbox item id; any other string is 404. */
export const inboxItemParams = Joi.object<{ id: string }>({
  id: Joi.string()
    .pattern(/^inb_[0-9A-HJKMNP-TV-Z]{26}$/)
    .required()
    .description("An inbox item id; any other string is 404."),
});

/** `listInboxItems`. */
export const listInboxItems = defineRoute({
  method: "get",
  path: "/v1/ops/inbox",
  operationId: "listInboxItems",
  tag: "Operations",
  summary: "List inbound notifications",
  description: "Unknown query parameters are refused (400).",
  security: PANEL_SESSION,
  query: listInboxSchema,
  replies: {
    200: { description: "A page, newest first.", schema: InboxItemList },
  },
  errors: {
    400: INVALID_REQUEST,
    401: NO_SESSION,
    403: { description: "`permission_denied`: the user is not an operator.", codes: ["permission_denied"] },
  },
});

/** `getInboxItem`. */
export const getInboxItem = defineRoute({
  method: "get",
  path: "/v1/ops/inbox/{id}",
  operationId: "getInboxItem",
  tag: "Operations",
  summary: "Read an inbound notification with its stored request",
  security: PANEL_SESSION,
  params: inboxItemParams,
  replies: {
    200: { description: "The item with `raw_body` and `headers`.", schema: InboxItemDetail },
  },
  errors: {
    401: NO_SESSION,
    403: { description: "`permission_denied`: the user is not an operator.", codes: ["permission_denied"] },
    404: { description: "`resource_not_found`: unknown or malformed id.", codes: ["resource_not_found"] },
  },
});

/** `reprocessInboxItem`. */
export const reprocessInboxItem = defineRoute({
  method: "post",
  path: "/v1/ops/inbox/{id}/reprocess",
  operationId: "reprocessInboxItem",
  tag: "Operations",
  summary: "Verify the stored request again and reprocess it",
  description:
    "Re-verifies the signature with the acquirer's current secret (against the time of receipt; a configured bank's item needs none, and what it names is read back from the bank again); a valid item is processed again.",
  security: PANEL_SESSION,
  params: inboxItemParams,
  replies: {
    202: { description: "Accepted.", schema: Empty },
  },
  errors: {
    401: NO_SESSION,
    403: {
      description:
        "`permission_denied`: the request carries a panel cookie and its `Origin` (or `Referer`) is not in `PANEL_ORIGINS`. Also when the user is not an operator.",
      codes: ["permission_denied"],
    },
    404: { description: "`resource_not_found`: unknown or malformed id.", codes: ["resource_not_found"] },
  },
});
