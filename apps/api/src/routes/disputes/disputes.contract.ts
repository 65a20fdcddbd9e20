/**
 * Contracts of the disputes routes.
 */
import Joi from "joi";
import {
  defineRoute,
  API_KEY,
  INVALID_REQUEST,
  KEY_RATE_LIMITED,
  NOT_IN_STORE_MODE,
  NO_API_KEY,
  NO_SELLER,
  NO_SESSION,
  PANEL_SESSION,
} from "../../http/contract";
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
    400: INVALID_REQUEST,
    401: NO_API_KEY,
    429: KEY_RATE_LIMITED,
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
    401: NO_API_KEY,
    404: NOT_IN_STORE_MODE,
    429: KEY_RATE_LIMITED,
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
    400: INVALID_REQUEST,
    401: NO_SESSION,
    403: NO_SELLER,
  },
});
