/**
 * joi schemas of the panel's balance routes (DESIGN §7: the panel takes `mode` in the query, `test` by default).
 */
import Joi from "joi";
import { listQuerySchema, type ListQuery } from "../../http/list";

const mode = Joi.string().valid("live", "test").default("test");

/** Query of `GET /v1/me/balance`. */
export const panelBalanceSchema: Joi.ObjectSchema<{ mode: "live" | "test" }> = Joi.object({ mode }).prefs({
  convert: true,
  stripUnknown: false,
});

/** Query of `GET /v1/me/balance/transactions`. */
export const panelBalanceTransactionsSchema: Joi.ObjectSchema<ListQuery & { mode: "live" | "test" }> = listQuerySchema({
  mode,
});
