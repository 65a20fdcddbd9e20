/**
 * Contracts of the disputes routes.
 */
import Joi from "joi";
import { defineRoute, API_KEY, PANEL_SESSION } from "../../http/contract";
import { Dispute, DisputeList } from "@lm/wire";
import { listQuerySchema, type ListQuery } from "../../http/list";

/** Query of `GET /v1/disputes`: paging only. */
export const listDisputesSchema: Joi.ObjectSchema<ListQuery> = listQuerySchema();

/** Query of `GET /v1/me/disputes`: paging and the mode (default `test`). */
export const panelListDisputesSchema: Joi.ObjectSchema<ListQuery & { mode: "live" | "test" }> = listQuerySchema({
  mode: Joi.string().valid("live", "test").default("test").description("The disputes' mode."),
});

/** Path of the routes under `{id}`: A dispute id; any other string is 404. */
export const disputeParams = Joi.object<{ id: string }>({
  id: Joi.string()
    .pattern(/^dsp_[0-9A-HJKMNP-TV-Z]{26}$/)
    .required()
    .description("A dispute id; any other string is 404."),
});

/** `listDisputes`. */
export const listDisputes = defineRoute({
  method: "get",
  path: "/v1/disputes",
  operationId: "listDisputes",
  tag: "Disputes",
  summary: "The disputes of the key's store and mode",
  description:
    "A dispute (DESIGN §11) is money of a paid charge that the payer's bank took back under the Pix MED; it is already lost and already out of the balance.",
  security: API_KEY,
  query: listDisputesSchema,
  replies: {
    200: { description: "A page, newest first.", schema: DisputeList },
  },
  errors: {
    400: {
      description: "`validation_failed`: the body, query or a path parameter is invalid; `param` names the field.",
      codes: ["validation_failed"],
    },
    401: {
      description: "`authentication_required`: no `Authorization: Bearer` key, or an unknown, revoked or expired one.",
      codes: ["authentication_required"],
    },
    429: {
      description: "`rate_limited`: over 100 requests per second for this API key.",
      codes: ["rate_limited"],
      headers: ["RetryAfter"],
    },
  },
});

/** `getDispute`. */
export const getDispute = defineRoute({
  method: "get",
  path: "/v1/disputes/{id}",
  operationId: "getDispute",
  tag: "Disputes",
  summary: "A dispute",
  security: API_KEY,
  params: disputeParams,
  replies: {
    200: { description: "The dispute.", schema: Dispute },
  },
  errors: {
    401: {
      description: "`authentication_required`: no `Authorization: Bearer` key, or an unknown, revoked or expired one.",
      codes: ["authentication_required"],
    },
    404: {
      description: "`resource_not_found`: unknown, malformed, or of another store or mode.",
      codes: ["resource_not_found"],
    },
    429: {
      description: "`rate_limited`: over 100 requests per second for this API key.",
      codes: ["rate_limited"],
      headers: ["RetryAfter"],
    },
  },
});

/** `listPanelDisputes`. */
export const listPanelDisputes = defineRoute({
  method: "get",
  path: "/v1/me/disputes",
  operationId: "listPanelDisputes",
  tag: "Profile, balance and disputes",
  summary: "The seller's disputes in one mode",
  description:
    "Every store of the seller. Each dispute also wrote a `dispute` balance transaction, a `dispute.created` feed item and a mail to the owners.",
  security: PANEL_SESSION,
  query: panelListDisputesSchema,
  replies: {
    200: { description: "A page, newest first.", schema: DisputeList },
  },
  errors: {
    400: {
      description: "`validation_failed`: the body, query or a path parameter is invalid; `param` names the field.",
      codes: ["validation_failed"],
    },
    401: { description: "`authentication_required`: no live `lm.session` cookie.", codes: ["authentication_required"] },
    403: { description: "`permission_denied`: operators have no seller.", codes: ["permission_denied"] },
  },
});
