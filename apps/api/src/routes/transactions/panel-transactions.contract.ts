/**
 * Contracts of the panel's charges and events (DESIGN §15): what the dashboard shows and does with a session instead
 * of an API key, over the merchant API's use cases and objects. Reads take the mode in the query (`test` default); a
 * charge is read by its id in either mode.
 */
import Joi from "joi";
import type { CreateTransactionInput, EventFilters, TransactionFilters } from "@lm/domain";
import { EventList, Refund, RefundList, Transaction, TransactionList } from "@lm/wire";
import { CROSS_SITE, defineRoute, INVALID_REQUEST, NO_SELLER, NO_SESSION, PANEL_SESSION } from "../../http/contract";
import { listQuerySchema, type ListQuery } from "../../http/list";
import { listEventsSchema } from "../events/events.contract";
import { createRefundSchema } from "../refunds/refunds.contract";
import { createTransactionSchema, listTransactionsSchema, transactionParams } from "./transactions.contract";

/** The mode of a panel read or write: `live` or `test` (the default). */
const mode = Joi.string().valid("live", "test").default("test");

/** A mode in the panel's queries and bodies. */
type Mode = { mode: "live" | "test" };

/** `schema` with `mode` added (joi's `keys` keeps the type it was given, so the result is typed by its variable). */
function withMode(schema: Joi.ObjectSchema, description: string): Joi.ObjectSchema {
  return schema.keys({ mode: mode.description(description) });
}

/** Query of `GET /v1/me/transactions`: the merchant list's, and the mode. */
export const panelListTransactionsSchema: Joi.ObjectSchema<ListQuery & TransactionFilters & Mode> = withMode(
  listTransactionsSchema,
  "The charges' mode.",
);

/** Body of `POST /v1/me/transactions`: the merchant API's, and the mode, which must be `test`. */
export const panelCreateTransactionSchema: Joi.ObjectSchema<CreateTransactionInput & Mode> = withMode(
  createTransactionSchema,
  "Only `test`: live charges are created by the seller's integration, with an API key.",
);

/** Query of `GET /v1/me/events`: the merchant list's, and the mode. */
export const panelListEventsSchema: Joi.ObjectSchema<ListQuery & EventFilters & Mode> = withMode(
  listEventsSchema,
  "The events' mode.",
);

/** Query of `GET /v1/me/transactions/{id}/refunds`: paging only. */
export const panelListRefundsSchema: Joi.ObjectSchema<ListQuery> = listQuerySchema();

/** 404 of a charge read by id in the panel. */
const NO_SUCH_CHARGE = {
  description: "`resource_not_found`: unknown, malformed, or another seller's charge.",
  codes: ["resource_not_found" as const],
};

/** `listPanelTransactions`. */
export const listPanelTransactions = defineRoute({
  method: "get",
  path: "/v1/me/transactions",
  operationId: "listPanelTransactions",
  tag: "Charges, events and refunds",
  summary: "The seller's charges in one mode",
  description:
    "As `GET /v1/transactions` lists them for an API key of that mode. Unknown query parameters are refused.",
  security: PANEL_SESSION,
  query: panelListTransactionsSchema,
  replies: {
    200: { description: "A page, newest first.", schema: TransactionList },
  },
  errors: {
    400: INVALID_REQUEST,
    401: NO_SESSION,
    403: NO_SELLER,
  },
});

/** `getPanelTransaction`. */
export const getPanelTransaction = defineRoute({
  method: "get",
  path: "/v1/me/transactions/{id}",
  operationId: "getPanelTransaction",
  tag: "Charges, events and refunds",
  summary: "A charge of the seller, of either mode",
  security: PANEL_SESSION,
  params: transactionParams,
  replies: {
    200: { description: "The charge.", schema: Transaction },
  },
  errors: {
    401: NO_SESSION,
    403: NO_SELLER,
    404: NO_SUCH_CHARGE,
  },
});

/** `createPanelTestTransaction`. */
export const createPanelTestTransaction = defineRoute({
  method: "post",
  path: "/v1/me/transactions",
  operationId: "createPanelTestTransaction",
  tag: "Charges, events and refunds",
  summary: "Create a test charge from the panel",
  description:
    "The body of `POST /v1/transactions`, in test mode only: the dashboard's way to try the flow (create, pay with `POST /v1/me/transactions/{id}/simulate-payment`, see the webhooks) without an API key. An optional `Idempotency-Key` works as on the merchant API.",
  security: PANEL_SESSION,
  headers: ["IdempotencyKey"],
  body: panelCreateTransactionSchema,
  replies: {
    201: { description: "The charge, `pending`.", schema: Transaction, headers: ["IdempotentReplayed"] },
  },
  errors: {
    400: {
      description:
        "`validation_failed`: the body is invalid; `param` names the field. `invalid_url`: `postback_url` fails the destination check. `idempotency_key_reused`: the key was used with a different request.",
      codes: ["validation_failed", "invalid_url", "idempotency_key_reused"],
    },
    401: NO_SESSION,
    403: {
      description: `${CROSS_SITE.description} Also for operators. \`test_mode_only\`: \`mode\` is \`live\`.`,
      codes: ["permission_denied", "test_mode_only"],
    },
    409: {
      description:
        "`invalid_state`: a test charge with this `external_id` exists, or `postback_url` without a postback secret. `idempotency_key_in_progress`: a request with this key is still running.",
      codes: ["invalid_state", "idempotency_key_in_progress"],
    },
  },
});

/** `simulatePanelPayment`. */
export const simulatePanelPayment = defineRoute({
  method: "post",
  path: "/v1/me/transactions/{id}/simulate-payment",
  operationId: "simulatePanelPayment",
  tag: "Charges, events and refunds",
  summary: "Pay a test charge from the panel",
  description:
    "As `POST /v1/transactions/{id}/simulate-payment`: a sandbox notification goes through the normal inbound path, and the worker marks the charge paid shortly after.",
  security: PANEL_SESSION,
  params: transactionParams,
  replies: {
    202: { description: "Accepted; the charge as it is now (still `pending`).", schema: Transaction },
  },
  errors: {
    401: NO_SESSION,
    403: {
      description: `${CROSS_SITE.description} Also for operators. \`test_mode_only\`: a live charge.`,
      codes: ["permission_denied", "test_mode_only"],
    },
    404: NO_SUCH_CHARGE,
    409: { description: "`invalid_state`: the charge is not pending.", codes: ["invalid_state"] },
  },
});

/** `listPanelTransactionRefunds`. */
export const listPanelTransactionRefunds = defineRoute({
  method: "get",
  path: "/v1/me/transactions/{id}/refunds",
  operationId: "listPanelTransactionRefunds",
  tag: "Charges, events and refunds",
  summary: "A charge's refunds",
  security: PANEL_SESSION,
  params: transactionParams,
  query: panelListRefundsSchema,
  replies: {
    200: { description: "A page, newest first.", schema: RefundList },
  },
  errors: {
    400: INVALID_REQUEST,
    401: NO_SESSION,
    403: NO_SELLER,
    404: NO_SUCH_CHARGE,
  },
});

/** `createPanelRefund`. */
export const createPanelRefund = defineRoute({
  method: "post",
  path: "/v1/me/transactions/{id}/refunds",
  operationId: "createPanelRefund",
  tag: "Charges, events and refunds",
  summary: "Refund a paid charge from the panel",
  description:
    "As `POST /v1/transactions/{id}/refunds`, in the charge's mode, behind a live step-up (always). `Idempotency-Key` is required.",
  security: PANEL_SESSION,
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
        "`validation_failed`: the body is invalid, or the `Idempotency-Key` header is missing (`param` `Idempotency-Key`) or malformed. `idempotency_key_reused`: the key was used with a different request.",
      codes: ["validation_failed", "idempotency_key_reused"],
    },
    401: NO_SESSION,
    403: {
      description: `${CROSS_SITE.description} Also for operators. \`mfa_required\`: no live step-up on this session (always needed).`,
      codes: ["permission_denied", "mfa_required"],
    },
    404: NO_SUCH_CHARGE,
    409: {
      description:
        "`invalid_state`: the charge is not `paid`, or the amount exceeds what is left to refund. `insufficient_funds`: `available` is lower than the amount. `idempotency_key_in_progress`: a request with this key is still running.",
      codes: ["invalid_state", "insufficient_funds", "idempotency_key_in_progress"],
    },
    503: {
      description: "`acquirer_not_configured`: no acquirer moves money in the charge's mode; nothing was created.",
      codes: ["acquirer_not_configured"],
    },
  },
});

/** `listPanelEvents`. */
export const listPanelEvents = defineRoute({
  method: "get",
  path: "/v1/me/events",
  operationId: "listPanelEvents",
  tag: "Charges, events and refunds",
  summary: "The seller's events in one mode",
  description:
    "As `GET /v1/events` lists them for an API key of that mode, in the envelope webhooks deliver. Events older than `RETENTION_DAYS` are gone.",
  security: PANEL_SESSION,
  query: panelListEventsSchema,
  replies: {
    200: { description: "A page, newest first.", schema: EventList },
  },
  errors: {
    400: {
      description:
        "`validation_failed`: the query is invalid; `param` names the field. `invalid_event_type`: `type` names no event type.",
      codes: ["validation_failed", "invalid_event_type"],
    },
    401: NO_SESSION,
    403: NO_SELLER,
  },
});
