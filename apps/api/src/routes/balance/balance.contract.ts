/**
 * joi schemas of the panel's balance routes (DESIGN §7: the panel takes `mode` in the query, `test` by default).
 */
import Joi from "joi";
import { listQuerySchema, type ListQuery } from "../../http/list";
import {
  defineRoute,
  API_KEY,
  INVALID_REQUEST,
  KEY_RATE_LIMITED,
  NO_API_KEY,
  NO_SELLER,
  NO_SESSION,
  PANEL_SESSION,
} from "../../http/contract";
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
    400: INVALID_REQUEST,
    401: NO_SESSION,
    403: NO_SELLER,
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
    400: INVALID_REQUEST,
    401: NO_SESSION,
    403: NO_SELLER,
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
    401: NO_API_KEY,
    429: KEY_RATE_LIMITED,
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
    400: INVALID_REQUEST,
    401: NO_API_KEY,
    429: KEY_RATE_LIMITED,
  },
});
