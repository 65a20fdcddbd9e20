/**
 * joi schemas of the transaction routes (DESIGN §5 "Merchant API").
 */
import Joi from "joi";
import { parseTaxDocument, type CreateTransactionInput, type TransactionFilters } from "@lm/domain";
import { centavosAmount } from "../../http/amount";
import { listQuerySchema, type ListQuery } from "../../http/list";
import {
  defineRoute,
  API_KEY,
  INVALID_REQUEST,
  KEY_RATE_LIMITED,
  NOT_IN_STORE_MODE,
  NO_API_KEY,
  noAcquirer,
  TEST_KEYS_ONLY,
} from "../../http/contract";
import { AmountDue, Dispute, Transaction, TransactionList } from "@lm/wire";

/** Most metadata pairs, and the bounds of their keys and values (Stripe's). */
export const MAX_METADATA_KEYS = 50;
/** 1 to 40 characters, any of them; a regular expression rather than a string schema, so the document can say it. */
const METADATA_KEY = /^[\s\S]{1,40}$/;
const METADATA_VALUE = Joi.string().max(500);
/** The metadata bounds `joi-to-json` cannot write as JSON Schema (the count of keys), said in words. */
const METADATA = `At most ${MAX_METADATA_KEYS} keys of 1 to 40 characters; each value a string of at most 500.`;

const taxDocument = Joi.string()
  .max(32)
  .custom((value: string, helpers) => (parseTaxDocument(value) ? value : helpers.error("document.invalid")))
  .messages({ "document.invalid": "{{#label}} must be a valid CPF or CNPJ" });

/** A due-date term's value: integer centavos (fixed types) or a percentage string (`"2.00"`), checked by the domain. */
const termValue = Joi.alternatives().try(Joi.number().integer(), Joi.string().max(16));
const dayCount = Joi.string().valid("calendar", "business");
const fixedOrPercent = Joi.object({
  type: Joi.string().valid("fixed", "percent").required(),
  value: termValue.required(),
});

/**
 * Body of `POST /v1/transactions`. Unknown fields are refused, not stripped (as Stripe does): a misspelt optional
 * field (`expires_at` for `expires_in`) would otherwise be silently ignored on a payment.
 */
export const createTransactionSchema: Joi.ObjectSchema<CreateTransactionInput> = Joi.object({
  amount: centavosAmount()
    .required()
    .description(
      "Centavos, as an integer written without a point or an exponent: R$ 100,50 is `10050`; `100.00` or `1e3` is refused (400 `validation_failed`), as JSON would read `100.00` as 100 centavos.",
    ),
  description: Joi.string().min(1).max(140),
  expires_in: Joi.number()
    .integer()
    .min(60)
    .max(1_209_600)
    .description("Seconds; default 86,400 (a day). Not for a due-date charge, which expires after its window."),
  external_id: Joi.string().min(1).max(64).description("Unique per store and mode (409 `invalid_state` otherwise)."),
  customer: Joi.object({
    name: Joi.string().trim().min(1).max(200).required().description("No leading or trailing whitespace."),
    document: taxDocument.required().description("A valid CPF or CNPJ, with or without punctuation."),
    email: Joi.string().email().max(254).description("Its domain must end in an IANA top-level domain."),
  }),
  postback_url: Joi.string()
    .min(1)
    .max(2048)
    .description(
      "Must pass the destination check (https, port 443, public host, no credentials), else 400 `invalid_url`. Needs the store's postback secret (409 `invalid_state` without one); its postbacks are signed with it (the `stripe` scheme).",
    ),
  metadata: Joi.object().pattern(METADATA_KEY, METADATA_VALUE).max(MAX_METADATA_KEYS).description(METADATA),
  due_date: Joi.string()
    .max(10)
    .description(
      "Makes a due-date charge (the standard's `cobv`): `YYYY-MM-DD`, today or later in São Paulo. Needs `customer`; a date on a weekend or national holiday moves to the next business day, and every term with it.",
    ),
  days_after_due: Joi.number()
    .integer()
    .min(0)
    .max(365)
    .description("Calendar days the charge stays payable after the due date (`validadeAposVencimento`); default 30."),
  fine: fixedOrPercent.description(
    'Charged once when paid late (`multa`): `fixed` centavos, or `percent` of the amount as a string with two decimals (`"2.00"`).',
  ),
  interest: Joi.object({
    type: Joi.string().valid("fixed_per_day", "percent_per_day", "percent_per_month", "percent_per_year").required(),
    days: dayCount.required(),
    value: termValue.required(),
  }).description(
    "Simple interest per day late (`juros`): centavos per day, or a percentage per day, month (÷ 30 calendar or ÷ 21 business days) or year (÷ 365 or ÷ 252).",
  ),
  reduction: fixedOrPercent.description("Taken off whatever the day of payment (`abatimento`)."),
  discount: Joi.object({
    type: Joi.string().valid("fixed_until", "percent_until", "fixed_per_day_early", "percent_per_day_early").required(),
    tiers: Joi.array()
      .items(Joi.object({ until: Joi.string().max(10).required(), value: termValue.required() }))
      .min(1)
      .max(3),
    days: dayCount,
    value: termValue,
  }).description(
    "For paying early (`desconto`): `fixed_until`/`percent_until` with 1 to 3 `tiers` (`until` dates on or before the due date), or `fixed_per_day_early`/`percent_per_day_early` with `days` and `value` per day of anticipation.",
  ),
})
  .prefs({ stripUnknown: false })
  .description("Unknown fields are refused (400 `validation_failed`), not ignored.");

/** Query of `GET /v1/transactions`. */
export const listTransactionsSchema: Joi.ObjectSchema<ListQuery & TransactionFilters> = listQuerySchema({
  status: Joi.string().valid("pending", "paid", "expired", "canceled", "refunded", "scheduled", "failed"),
  external_id: Joi.string().min(1).max(64),
  recurrence_id: Joi.string()
    .max(64)
    .description("A recurrence's charges: its cycles and its first payment (DESIGN §14)."),
});

/** Body of `POST /v1/transactions/{id}/simulate-dispute` (DESIGN §11): `amount` in centavos, default what is left. */
export const simulateDisputeSchema: Joi.ObjectSchema<{ amount?: number }> = Joi.object({
  amount: centavosAmount().description(
    "Centavos; default what is left of the paid amount after refunds (not `failed`) and earlier disputes.",
  ),
});

/** Body of `POST /v1/transactions/{id}/simulate-payment`: a due-date charge's day of payment. */
export const simulatePaymentSchema: Joi.ObjectSchema<{ date?: string }> = Joi.object({
  date: Joi.string()
    .max(10)
    .description(
      "A due-date charge's day of payment, `YYYY-MM-DD` within its payable window (default today in São Paulo): the sandbox pays what its terms come to that day.",
    ),
});

/** Query of `GET /v1/transactions/{id}/amount-due`. */
export const amountDueQuerySchema: Joi.ObjectSchema<{ date?: string }> = Joi.object({
  date: Joi.string().max(10).description("`YYYY-MM-DD` within the payable window; default today in São Paulo."),
}).prefs({ convert: true, stripUnknown: false });

/** Path of the routes under `{id}`: A charge id; any other string is 404. */
export const transactionParams = Joi.object<{ id: string }>({
  id: Joi.string()
    .pattern(/^txn_[0-9A-HJKMNP-TV-Z]{26}$/)
    .required()
    .description("A charge id; any other string is 404."),
});

/** `createTransaction`. */
export const createTransaction = defineRoute({
  method: "post",
  path: "/v1/transactions",
  operationId: "createTransaction",
  tag: "Charges",
  summary: "Create a Pix charge",
  description:
    "The charge is registered at the mode's acquirer before anything is written: in live mode (or in test mode with a bank activated for it) the bank's `PUT /cob/{txid}` of the Central Bank's API Pix standard, whose `pixCopiaECola` becomes `pix.copy_paste`; in test mode otherwise the in-process sandbox. Live mode without an activated bank refuses it (503 `acquirer_not_configured`); a bank that fails or refuses it makes it 502 (`acquirer_unavailable`, `acquirer_rejected`). Nothing is created in either case.\n\nWith an `Idempotency-Key`, the txid of a charge registered at a bank is derived from the key (per store and mode), so the same request sent again after a bank timeout asks the bank for the same charge instead of registering a second one. A key whose 24 h record expired, once a charge was created under it, is 409 `invalid_state` (`param` `Idempotency-Key`): send a new key.",
  security: API_KEY,
  headers: ["IdempotencyKey"],
  body: createTransactionSchema,
  replies: {
    201: { description: "The charge, `pending`.", schema: Transaction, headers: ["IdempotentReplayed"] },
  },
  errors: {
    400: {
      description:
        "`validation_failed`: the body, query or a path parameter is invalid; `param` names the field. Also for a malformed `Idempotency-Key`. `invalid_url`: `postback_url` fails the destination check. `idempotency_key_reused`: the key was used with a different request.",
      codes: ["validation_failed", "invalid_url", "idempotency_key_reused"],
    },
    401: NO_API_KEY,
    409: {
      description:
        "`invalid_state`: a charge with this `external_id` exists in this store and mode; or (`param` `Idempotency-Key`) the key's 24 h record expired and a charge was created under it: send a new key. `idempotency_key_in_progress`: a request with this key is still running. `invalid_state` (`param` `postback_url`): the charge has a `postback_url` but the store has no postback secret to sign its postbacks; the owner creates one with `POST /v1/me/postback-secret/rotate`, or leave `postback_url` out and use a webhook endpoint.",
      codes: ["invalid_state", "idempotency_key_in_progress"],
    },
    429: KEY_RATE_LIMITED,
    502: {
      description:
        "`acquirer_unavailable`: the bank could not be reached, timed out or answered 5xx. `acquirer_rejected`: the bank refused; `message` carries its reason. Nothing was created.",
      codes: ["acquirer_unavailable", "acquirer_rejected"],
    },
    503: noAcquirer("no acquirer registers charges in this mode (live mode without an activated bank)"),
  },
});

/** `listTransactions`. */
export const listTransactions = defineRoute({
  method: "get",
  path: "/v1/transactions",
  operationId: "listTransactions",
  tag: "Charges",
  summary: "List charges",
  description: "Unknown query parameters are refused (400).",
  security: API_KEY,
  query: listTransactionsSchema,
  replies: {
    200: { description: "A page of the key's store and mode, newest first.", schema: TransactionList },
  },
  errors: {
    400: INVALID_REQUEST,
    401: NO_API_KEY,
    429: KEY_RATE_LIMITED,
  },
});

/** `getTransaction`. */
export const getTransaction = defineRoute({
  method: "get",
  path: "/v1/transactions/{id}",
  operationId: "getTransaction",
  tag: "Charges",
  summary: "Read a charge",
  security: API_KEY,
  params: transactionParams,
  replies: {
    200: { description: "The charge.", schema: Transaction },
  },
  errors: {
    401: NO_API_KEY,
    404: NOT_IN_STORE_MODE,
    429: KEY_RATE_LIMITED,
  },
});

/** `cancelTransaction`. */
export const cancelTransaction = defineRoute({
  method: "post",
  path: "/v1/transactions/{id}/cancel",
  operationId: "cancelTransaction",
  tag: "Charges",
  summary: "Cancel a pending charge",
  description:
    "A charge registered at a bank is withdrawn at the bank first (`PATCH /cob/{txid}`), so that it can no longer be paid once it is `canceled`: if the bank fails or refuses, the charge stays `pending` (502); if the bank reports it paid, 409 `invalid_state`, and its payment settles it shortly.",
  security: API_KEY,
  headers: ["IdempotencyKey"],
  params: transactionParams,
  replies: {
    200: { description: "The charge, `canceled`.", schema: Transaction, headers: ["IdempotentReplayed"] },
  },
  errors: {
    400: {
      description:
        "`validation_failed`: malformed `Idempotency-Key`. `idempotency_key_reused`: the key was used with a different request.",
      codes: ["validation_failed", "idempotency_key_reused"],
    },
    401: NO_API_KEY,
    404: NOT_IN_STORE_MODE,
    409: {
      description:
        "`invalid_state`: the charge is not pending, or its bank reports it paid (its payment settles it shortly). `idempotency_key_in_progress`: a request with this key is still running.",
      codes: ["invalid_state", "idempotency_key_in_progress"],
    },
    429: KEY_RATE_LIMITED,
    502: {
      description:
        "`acquirer_unavailable`: the bank could not be reached, timed out or answered 5xx. `acquirer_rejected`: the bank refused; `message` carries its reason. The charge stays `pending`.",
      codes: ["acquirer_unavailable", "acquirer_rejected"],
    },
  },
});

/** `simulatePayment`. */
export const simulatePayment = defineRoute({
  method: "post",
  path: "/v1/transactions/{id}/simulate-payment",
  operationId: "simulatePayment",
  tag: "Charges",
  summary: "Pay a test charge through the sandbox acquirer",
  description:
    "Posts a sandbox acquirer notification through the normal inbound path; the worker marks the charge paid shortly after. A due-date charge is paid what its terms come to on `date`.",
  security: API_KEY,
  params: transactionParams,
  body: simulatePaymentSchema,
  bodyRequired: false,
  replies: {
    202: { description: "Accepted; the charge as it is now (still `pending`).", schema: Transaction },
  },
  errors: {
    400: {
      description:
        "`validation_failed`: `date` for an immediate charge, or outside a due-date charge's payable window.",
      codes: ["validation_failed"],
    },
    401: NO_API_KEY,
    403: TEST_KEYS_ONLY,
    404: NOT_IN_STORE_MODE,
    409: { description: "`invalid_state`: the charge is not pending.", codes: ["invalid_state"] },
    429: KEY_RATE_LIMITED,
  },
});

/** `simulateExpiration`. */
export const simulateExpiration = defineRoute({
  method: "post",
  path: "/v1/transactions/{id}/simulate-expiration",
  operationId: "simulateExpiration",
  tag: "Charges",
  summary: "Bring a test charge's deadline to now",
  description:
    "Test keys only. Sets the pending charge's `expires_at` to now, so it reads `expired` at once; the worker's expiry sweep then writes the change and its `transaction.expired` event within about a second, through the same code as a real deadline. What `lm trigger transaction.expired` uses. A test charge registered at a bank keeps the bank's deadline (409).",
  security: API_KEY,
  params: transactionParams,
  replies: {
    202: { description: "Accepted; the charge with its new deadline, which reads `expired`.", schema: Transaction },
  },
  errors: {
    401: NO_API_KEY,
    403: TEST_KEYS_ONLY,
    404: NOT_IN_STORE_MODE,
    409: {
      description: "`invalid_state`: the charge is not pending, or it is registered at a bank.",
      codes: ["invalid_state"],
    },
    429: KEY_RATE_LIMITED,
  },
});

/** `simulateDispute`. */
export const simulateDispute = defineRoute({
  method: "post",
  path: "/v1/transactions/{id}/simulate-dispute",
  operationId: "simulateDispute",
  tag: "Charges",
  summary: "Have the payer's bank take a paid test charge's money back (MED)",
  description:
    "Test keys only. The sandbox acquirer notifies an unrequested devolução (`natureza` `MED_FRAUDE`) through the normal inbound path, and its inbox item is processed before the reply, exactly as a bank's would be: the dispute, the charge's `amount_disputed`, a negative `dispute` balance transaction (even if `available` goes below zero), `dispute.created` and `transaction.disputed`, a feed item and mail to the owners. A test charge registered at a bank gets its disputes from that bank (the emulator's control API raises one).",
  security: API_KEY,
  params: transactionParams,
  body: simulateDisputeSchema,
  bodyRequired: false,
  replies: {
    201: { description: "The dispute, recorded.", schema: Dispute },
  },
  errors: {
    400: {
      description:
        "`validation_failed`: the body, query or a path parameter is invalid (e.g. `amount` not an integer of at least 1); `param` names the field.",
      codes: ["validation_failed"],
    },
    401: NO_API_KEY,
    403: TEST_KEYS_ONLY,
    404: NOT_IN_STORE_MODE,
    409: {
      description:
        '`invalid_state`: the charge is not paid; or the amount exceeds what is left of it after refunds and disputes (`param: "amount"`); or a bank registered the charge. Nothing moves.',
      codes: ["invalid_state"],
    },
    429: KEY_RATE_LIMITED,
  },
});

/** `getAmountDue`. */
export const getAmountDue = defineRoute({
  method: "get",
  path: "/v1/transactions/{id}/amount-due",
  operationId: "getAmountDue",
  tag: "Charges",
  summary: "What a due-date charge's payer owes on a date",
  description:
    "The original amount, fine, interest, reduction and discount the terms come to on `date` (DESIGN §13's money math: percentages of the original, simple interest per day late, each part rounded half-up to the centavo), and their total. Business days exclude weekends and the national holidays fixed by federal law; the payer's city is not known, so a municipal holiday is not counted: in live mode the bank's figure prevails.",
  security: API_KEY,
  params: transactionParams,
  query: amountDueQuerySchema,
  replies: {
    200: { description: "The amount due and its parts, in centavos.", schema: AmountDue },
  },
  errors: {
    400: {
      description: "`validation_failed`: `date` is not a date, or outside the payable window.",
      codes: ["validation_failed"],
    },
    401: NO_API_KEY,
    404: NOT_IN_STORE_MODE,
    409: {
      description: "`invalid_state`: an immediate charge, which has no amount due by date.",
      codes: ["invalid_state"],
    },
    429: KEY_RATE_LIMITED,
  },
});
