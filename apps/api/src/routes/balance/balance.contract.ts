/**
 * joi schemas of the panel's balance routes (DESIGN §7: the panel takes `mode` in the query, `test` by default).
 */
import Joi from "joi";
import { listQuerySchema, type ListQuery } from "../../http/list";
import { defineRoute, API_KEY, PANEL_SESSION } from "../../http/contract";
import { Balance, BalanceTransactionList } from "@lm/wire";

/** Query of `GET /v1/balance/transactions`: paging only. */
export const listBalanceTransactionsSchema: Joi.ObjectSchema<ListQuery> = listQuerySchema();

const mode = Joi.string().valid("live", "test").default("test");

/** Query of `GET /v1/me/balance`. */
export const panelBalanceSchema: Joi.ObjectSchema<{ mode: "live" | "test" }> = Joi.object({
  mode: mode.description("The balance's mode."),
}).prefs({
  convert: true,
  stripUnknown: false,
});

/** Query of `GET /v1/me/balance/transactions`. */
export const panelBalanceTransactionsSchema: Joi.ObjectSchema<ListQuery & { mode: "live" | "test" }> = listQuerySchema({
  mode: mode.description("The ledger's mode."),
});

/** `getPanelBalance`. */
export const getPanelBalance = defineRoute({
  method: "get",
  path: "/v1/me/balance",
  operationId: "getPanelBalance",
  tag: "Profile, balance and disputes",
  summary: "The seller's balance in one mode",
  security: PANEL_SESSION,
  query: panelBalanceSchema,
  replies: {
    200: { description: "The balance.", schema: Balance },
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

/** `listPanelBalanceTransactions`. */
export const listPanelBalanceTransactions = defineRoute({
  method: "get",
  path: "/v1/me/balance/transactions",
  operationId: "listPanelBalanceTransactions",
  tag: "Profile, balance and disputes",
  summary: "The seller's balance transactions in one mode",
  security: PANEL_SESSION,
  query: panelBalanceTransactionsSchema,
  replies: {
    200: { description: "A page, newest first.", schema: BalanceTransactionList },
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

/** `getBalance`. */
export const getBalance = defineRoute({
  method: "get",
  path: "/v1/balance",
  operationId: "getBalance",
  tag: "Balance and withdrawals",
  summary: "The balance of the key's seller and mode",
  security: API_KEY,
  replies: {
    200: { description: "The balance.", schema: Balance },
  },
  errors: {
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

/** `listBalanceTransactions`. */
export const listBalanceTransactions = defineRoute({
  method: "get",
  path: "/v1/balance/transactions",
  operationId: "listBalanceTransactions",
  tag: "Balance and withdrawals",
  summary: "The balance transactions of the key's seller and mode",
  security: API_KEY,
  query: listBalanceTransactionsSchema,
  replies: {
    200: { description: "A page, newest first.", schema: BalanceTransactionList },
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
