/**
 * joi schemas of the transaction routes (DESIGN §5 "Merchant API").
 */
import Joi from "joi";
import { parseTaxDocument, type CreateTransactionInput, type TransactionFilters } from "@lm/domain";
import { centavosAmount } from "../../http/amount";
import { listQuerySchema, type ListQuery } from "../../http/list";

/** Most metadata pairs, and the bounds of their keys and values (Stripe's). */
export const MAX_METADATA_KEYS = 50;
const METADATA_KEY = Joi.string().min(1).max(40);
const METADATA_VALUE = Joi.string().max(500);

const taxDocument = Joi.string()
  .max(32)
  .custom((value: string, helpers) => (parseTaxDocument(value) ? value : helpers.error("document.invalid")))
  .messages({ "document.invalid": "{{#label}} must be a valid CPF or CNPJ" });

/**
 * Body of `POST /v1/transactions`. Unknown fields are refused, not stripped (as Stripe does): a misspelt optional
 * field (`expires_at` for `expires_in`) would otherwise be silently ignored on a payment.
 */
export const createTransactionSchema: Joi.ObjectSchema<CreateTransactionInput> = Joi.object({
  amount: centavosAmount().required(),
  description: Joi.string().min(1).max(140),
  expires_in: Joi.number().integer().min(60).max(1_209_600).default(86_400),
  external_id: Joi.string().min(1).max(64),
  customer: Joi.object({
    name: Joi.string().trim().min(1).max(200).required(),
    document: taxDocument.required(),
    email: Joi.string().email().max(254),
  }),
  postback_url: Joi.string().min(1).max(2048),
  metadata: Joi.object().pattern(METADATA_KEY, METADATA_VALUE).max(MAX_METADATA_KEYS),
}).prefs({ stripUnknown: false });

/** Query of `GET /v1/transactions`. */
export const listTransactionsSchema: Joi.ObjectSchema<ListQuery & TransactionFilters> = listQuerySchema({
  status: Joi.string().valid("pending", "paid", "expired", "canceled", "refunded"),
  external_id: Joi.string().min(1).max(64),
});

/** Body of `POST /v1/transactions/{id}/simulate-dispute` (DESIGN §11): `amount` in centavos, default what is left. */
export const simulateDisputeSchema: Joi.ObjectSchema<{ amount?: number }> = Joi.object({
  amount: centavosAmount(),
});
