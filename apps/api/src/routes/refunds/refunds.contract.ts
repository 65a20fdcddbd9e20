/**
 * joi schema of `POST /v1/transactions/{id}/refunds` (DESIGN §7). Unknown fields are refused, as on charge creation.
 */
import Joi from "joi";
import type { CreateRefundInput } from "@lm/domain";
import { centavosAmount } from "../../http/amount";
import {
  defineRoute,
  API_KEY,
  INVALID_REQUEST,
  KEY_RATE_LIMITED,
  NOT_IN_STORE_MODE,
  NO_API_KEY,
  noAcquirer,
} from "../../http/contract";
import { Refund, RefundList } from "@lm/wire";
import { listQuerySchema, type ListQuery } from "../../http/list";

/** Query of `GET /v1/transactions/{id}/refunds`: paging only. */
export const listRefundsSchema: Joi.ObjectSchema<ListQuery> = listQuerySchema();

/** Body: `amount` (centavos, default the refundable remainder) and `reason` (≤ 140). */
export const createRefundSchema: Joi.ObjectSchema<CreateRefundInput> = Joi.object({
  amount: centavosAmount().description(
    "Centavos; default the refundable remainder, read inside the refund's own database transaction (so concurrent refunds never fail for a remainder that exists).",
  ),
  reason: Joi.string().min(1).max(140),
}).prefs({ stripUnknown: false });

/** Path of the routes under `{id}`: A charge id; any other string is 404. */
export const transactionParams = Joi.object<{ id: string }>({
  id: Joi.string()
    .pattern(/^txn_[0-9A-HJKMNP-TV-Z]{26}$/)
    .required()
    .description("A charge id; any other string is 404."),
});

/** Path of the routes under `{id}`: A refund id; any other string is 404. */
export const refundParams = Joi.object<{ id: string }>({
  id: Joi.string()
    .pattern(/^rfd_[0-9A-HJKMNP-TV-Z]{26}$/)
    .required()
    .description("A refund id; any other string is 404."),
});

/** `createRefund`. */
export const createRefund = defineRoute({
  method: "post",
  path: "/v1/transactions/{id}/refunds",
  operationId: "createRefund",
  tag: "Refunds",
  summary: "Refund a paid charge, in part or in full",
  description:
    "The amount leaves `available` for `reserved` at once. The outcome arrives from the acquirer (the BCB webhook's `devolucoes`) and settles the refund: `refund.succeeded`, or `refund.failed` with a `refund_reversal`. In test mode the sandbox answers within seconds; an amount whose last two digits are 13 fails with `rejected_by_acquirer`.",
  security: API_KEY,
  headers: ["IdempotencyKeyRequired"],
  params: transactionParams,
  body: createRefundSchema,
  bodyRequired: false,
  replies: {
    201: {
      description: "The refund, `pending`; `refund.created` is emitted and the worker hands it to the acquirer.",
      schema: Refund,
      headers: ["IdempotentReplayed"],
    },
  },
  errors: {
    400: {
      description:
        "`validation_failed`: the body or a parameter is invalid, or the `Idempotency-Key` header is missing (`param` `Idempotency-Key`: send a unique key per refund) or malformed; `param` names the field. `idempotency_key_reused`: the key was used with a different request.",
      codes: ["validation_failed", "idempotency_key_reused"],
    },
    401: NO_API_KEY,
    404: NOT_IN_STORE_MODE,
    409: {
      description:
        "`invalid_state`: the charge is not `paid`, or the amount exceeds what is left to refund. `insufficient_funds`: `available` is lower than the amount. `idempotency_key_in_progress`: a request with this key is still running.",
      codes: ["invalid_state", "insufficient_funds", "idempotency_key_in_progress"],
    },
    429: KEY_RATE_LIMITED,
    503: noAcquirer(
      "no acquirer is able to refund this charge (a live charge no bank registered, or whose bank is no longer configured)",
    ),
  },
});

/** `listRefunds`. */
export const listRefunds = defineRoute({
  method: "get",
  path: "/v1/transactions/{id}/refunds",
  operationId: "listRefunds",
  tag: "Refunds",
  summary: "A charge's refunds",
  security: API_KEY,
  params: transactionParams,
  query: listRefundsSchema,
  replies: {
    200: { description: "A page, newest first.", schema: RefundList },
  },
  errors: {
    400: INVALID_REQUEST,
    401: NO_API_KEY,
    404: NOT_IN_STORE_MODE,
    429: KEY_RATE_LIMITED,
  },
});

/** `getRefund`. */
export const getRefund = defineRoute({
  method: "get",
  path: "/v1/refunds/{id}",
  operationId: "getRefund",
  tag: "Refunds",
  summary: "A refund",
  security: API_KEY,
  params: refundParams,
  replies: {
    200: { description: "The refund.", schema: Refund },
  },
  errors: {
    401: NO_API_KEY,
    404: NOT_IN_STORE_MODE,
    429: KEY_RATE_LIMITED,
  },
});
