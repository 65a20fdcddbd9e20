/**
 * Contracts of the Pix Automático routes (DESIGN §14: recurrences, their cycles' amounts, and the sandbox's answers as
 * the payer's bank), and their joi schemas.
 */
import Joi from "joi";
import { parseTaxDocument, type CreateRecurrenceInput, type CycleChargeInput } from "@lm/domain";
import { Recurrence, RecurrenceList, Transaction } from "@lm/wire";
import { centavosAmount } from "../../http/amount";
import { listQuerySchema, type ListQuery } from "../../http/list";
import {
  defineRoute,
  API_KEY,
  INVALID_REQUEST,
  KEY_RATE_LIMITED,
  NOT_IN_STORE_MODE,
  NO_API_KEY,
  TEST_KEYS_ONLY,
} from "../../http/contract";

/** The tag of these routes in the reference. */
const TAG = "Recurrences";

const isoDate = Joi.string().max(10);

/** Body of `POST /v1/recurrences`. Unknown fields are refused, not stripped, as charges' are. */
export const createRecurrenceSchema: Joi.ObjectSchema<CreateRecurrenceInput> = Joi.object({
  contract: Joi.string()
    .min(1)
    .max(35)
    .required()
    .description("Your reference of the contract (the standard's `vinculo.contrato`), shown to the payer."),
  description: Joi.string().min(1).max(140).description("What is paid for (the standard's `vinculo.objeto`)."),
  customer: Joi.object({
    name: Joi.string().trim().min(1).max(200).required(),
    document: Joi.string()
      .max(32)
      .required()
      .custom((value: string, helpers) => (parseTaxDocument(value) ? value : helpers.error("document.invalid")))
      .messages({ "document.invalid": "{{#label}} must be a valid CPF or CNPJ" })
      .description("The payer's CPF or CNPJ (the standard's `devedor`), with or without punctuation."),
  })
    .required()
    .description("The payer, who authorizes in their bank."),
  start_date: isoDate
    .required()
    .description("`YYYY-MM-DD`, today or later (the test clock's day when it has one): the first cycle's due date."),
  end_date: isoDate.description(
    "`YYYY-MM-DD`, on or after `start_date`: no cycle falls after it. Leave it out: no end.",
  ),
  interval: Joi.string()
    .valid("weekly", "monthly", "quarterly", "semiannual", "annual")
    .required()
    .description("Weekly every 7 days; the others by calendar months from `start_date` (clamped to a month's end)."),
  amount: centavosAmount().description(
    "Centavos of every cycle: a fixed amount. Exactly one of it and `minimum_amount`.",
  ),
  minimum_amount: centavosAmount().description(
    "A variable amount's least, centavos: set each cycle's with `POST /v1/recurrences/{id}/charges`; a cycle not set by 2 days before its due date is charged this.",
  ),
  retry_policy: Joi.string()
    .valid("none", "three_in_seven_days")
    .description("Default `none`. `three_in_seven_days`: a failed debit is tried again 1, 3 and 5 days later."),
  journey: Joi.string()
    .valid("qr", "qr_with_first_payment", "push")
    .required()
    .description(
      "`qr`: a QR code that only authorizes; `qr_with_first_payment`: an immediate charge and the authorization in one QR code; `push`: a request sent to the payer's bank (needs `payer_account`).",
    ),
  payer_account: Joi.object({
    ispb: Joi.string()
      .pattern(/^[0-9]{8}$/)
      .required(),
    branch: Joi.string()
      .pattern(/^[0-9]{1,4}$/)
      .required(),
    number: Joi.string()
      .pattern(/^[0-9]{1,20}$/)
      .required(),
  }).description("The payer's account (the standard's `destinatario`): for `push` only, and required there."),
  first_payment_amount: centavosAmount().description(
    "Centavos of the first payment (`qr_with_first_payment` only); default `amount`, or `minimum_amount`.",
  ),
  postback_url: Joi.string()
    .min(1)
    .max(2048)
    .description("Given to every charge of the recurrence (checked as a charge's `postback_url` is)."),
  test_clock: Joi.string()
    .max(64)
    .description("A test clock's id (test keys only): the recurrence runs on its time (`POST /v1/test-clocks`)."),
})
  .prefs({ stripUnknown: false })
  .description("Unknown fields are refused (400 `validation_failed`), not ignored.");

/** Query of `GET /v1/recurrences`. */
export const listRecurrencesSchema: Joi.ObjectSchema<ListQuery> = listQuerySchema();

/** Body of `POST /v1/recurrences/{id}/charges`. */
export const cycleChargeSchema: Joi.ObjectSchema<CycleChargeInput> = Joi.object({
  amount: centavosAmount().required().description("Centavos, at least the recurrence's `minimum_amount`."),
  due_date: isoDate.required().description("`YYYY-MM-DD`: the recurrence's `next_due_date`."),
});

/** Body of `POST /v1/recurrences/{id}/simulate-approval`. */
export const simulateApprovalSchema: Joi.ObjectSchema<{ approve: boolean }> = Joi.object({
  approve: Joi.boolean().strict().required().description("`true`: the payer authorizes; `false`: the payer refuses."),
});

/** Path of the routes under `{id}`. */
export const recurrenceParams = Joi.object<{ id: string }>({
  id: Joi.string()
    .pattern(/^rec_[0-9A-HJKMNP-TV-Z]{26}$/)
    .required()
    .description("A recurrence id; any other string is 404."),
});

/** A live key on a test-only route. */
/** `createRecurrence`. */
export const createRecurrence = defineRoute({
  method: "post",
  path: "/v1/recurrences",
  operationId: "createRecurrence",
  tag: TAG,
  summary: "Create a Pix Automático recurrence",
  description:
    "The payer authorizes once in their bank; then our engine charges each cycle without them: it sends each cycle's charge (a transaction of `type` `recurring`) `RECURRENCE_LEAD_DAYS` (default 5) before its due date, the payer's bank debits it on the due date, and a failed debit is retried as `retry_policy` allows. `created` until the payer answers (in test mode: `POST /v1/recurrences/{id}/simulate-approval`); not answered in 30 days, `expired`.\n\nIn test mode the sandbox builds the authorization's BR Code and plays the payer's bank; with `test_clock`, the recurrence runs on that clock's time. Through a bank (live mode, or a bank activated for test mode) the recurrence is created at the bank (the API Pix standard's `rec`, with a `locrec` or a `solicrec`) and the bank's QR code is the authorization; a bank that fails or refuses makes it 502. With an `Idempotency-Key`, the same request sent again after a 502 `acquirer_unavailable` resumes the first one: the bank's recurrence is read back, never created twice. A key whose 24 h record expired, once a recurrence was created under it, is 409 `invalid_state` (`param` `Idempotency-Key`): send a new key.",
  security: API_KEY,
  headers: ["IdempotencyKey"],
  body: createRecurrenceSchema,
  replies: {
    201: { description: "The recurrence, `created`.", schema: Recurrence, headers: ["IdempotentReplayed"] },
  },
  errors: {
    400: {
      description:
        "`validation_failed`: the body is invalid; `param` names the field (both or neither of `amount` and `minimum_amount`, a `start_date` in the past, `payer_account` missing for `push`...). `invalid_url`: `postback_url` fails the destination check. `idempotency_key_reused`: the key was used with a different request.",
      codes: ["validation_failed", "invalid_url", "idempotency_key_reused"],
    },
    401: NO_API_KEY,
    403: { description: "`test_mode_only`: `test_clock` with a live key.", codes: ["test_mode_only"] },
    404: {
      description: "`resource_not_found`: `test_clock` is not a clock of this store.",
      codes: ["resource_not_found"],
    },
    409: {
      description:
        "`invalid_state`: `test_clock` is advancing; or (`param` `postback_url`) the store has no postback secret; or (`param` `Idempotency-Key`) the key's 24 h record expired and a recurrence was created under it. `idempotency_key_in_progress`: a request with this key is still running.",
      codes: ["invalid_state", "idempotency_key_in_progress"],
    },
    429: KEY_RATE_LIMITED,
    502: {
      description:
        "`acquirer_unavailable`: the bank could not be reached, timed out or answered 5xx; retry with the same `Idempotency-Key` to resume. `acquirer_rejected`: the bank refused; `message` carries its reason. Nothing was created.",
      codes: ["acquirer_unavailable", "acquirer_rejected"],
    },
    503: {
      description:
        "`acquirer_not_configured`: the mode's acquirer does not serve Pix Automático (live mode, or a bank activated for test mode); nothing was created. `service_unavailable` (with `Retry-After`): PostgreSQL is down or unreachable for now.",
      codes: ["acquirer_not_configured", "service_unavailable"],
      headers: ["RetryAfter"],
    },
  },
});

/** `listRecurrences`. */
export const listRecurrences = defineRoute({
  method: "get",
  path: "/v1/recurrences",
  operationId: "listRecurrences",
  tag: TAG,
  summary: "List recurrences",
  description: "Unknown query parameters are refused (400). A recurrence's charges: `GET /v1/transactions`.",
  security: API_KEY,
  query: listRecurrencesSchema,
  replies: {
    200: { description: "A page of the key's store and mode, newest first.", schema: RecurrenceList },
  },
  errors: { 400: INVALID_REQUEST, 401: NO_API_KEY, 429: KEY_RATE_LIMITED },
});

/** `getRecurrence`. */
export const getRecurrence = defineRoute({
  method: "get",
  path: "/v1/recurrences/{id}",
  operationId: "getRecurrence",
  tag: TAG,
  summary: "Read a recurrence",
  security: API_KEY,
  params: recurrenceParams,
  replies: { 200: { description: "The recurrence.", schema: Recurrence } },
  errors: { 401: NO_API_KEY, 404: NOT_IN_STORE_MODE, 429: KEY_RATE_LIMITED },
});

/** `cancelRecurrence`. */
export const cancelRecurrence = defineRoute({
  method: "post",
  path: "/v1/recurrences/{id}/cancel",
  operationId: "cancelRecurrence",
  tag: TAG,
  summary: "Cancel a recurrence",
  description:
    "By the merchant (`canceled_by` `merchant`), `created` or `approved`: no cycle is charged after, and each cycle not yet paid (`scheduled` or `pending`) is canceled with `transaction.canceled`; then `recurrence.canceled`.",
  security: API_KEY,
  params: recurrenceParams,
  replies: { 200: { description: "The recurrence, `canceled`.", schema: Recurrence } },
  errors: {
    401: NO_API_KEY,
    404: NOT_IN_STORE_MODE,
    409: { description: "`invalid_state`: rejected, expired or canceled already.", codes: ["invalid_state"] },
    429: KEY_RATE_LIMITED,
  },
});

/** `createRecurrenceCharge`. */
export const createRecurrenceCharge = defineRoute({
  method: "post",
  path: "/v1/recurrences/{id}/charges",
  operationId: "createRecurrenceCharge",
  tag: TAG,
  summary: "Set a variable recurrence's next cycle",
  description:
    "A variable recurrence's (`minimum_amount`) next cycle, due on its `next_due_date`, for `amount`: its charge is written and sent at once (`transaction.created`), 10 to 2 days before the due date (on the recurrence's time: its test clock's when it has one). A cycle not set by then is charged `minimum_amount`. A repeat of the same request is refused (the next cycle has moved on), so no cycle is charged twice.",
  security: API_KEY,
  params: recurrenceParams,
  body: cycleChargeSchema,
  replies: { 201: { description: "The cycle's charge, `pending`.", schema: Transaction } },
  errors: {
    400: {
      description:
        "`validation_failed`: `due_date` is not the next cycle's, `amount` is below `minimum_amount` or not centavos; `param` names the field.",
      codes: ["validation_failed"],
    },
    401: NO_API_KEY,
    404: NOT_IN_STORE_MODE,
    409: {
      description:
        "`invalid_state`: a fixed amount, a recurrence not `approved`, its test clock advancing, or (`param` `due_date`) outside the window of 10 to 2 days before the due date.",
      codes: ["invalid_state"],
    },
    429: KEY_RATE_LIMITED,
  },
});

/** `simulateRecurrenceApproval`. */
export const simulateRecurrenceApproval = defineRoute({
  method: "post",
  path: "/v1/recurrences/{id}/simulate-approval",
  operationId: "simulateRecurrenceApproval",
  tag: TAG,
  summary: "Have the payer answer a test recurrence",
  description:
    "Test keys only. The sandbox plays the payer's bank: `approve: true` authorizes it (`recurrence.approved`; for `qr_with_first_payment` the first payment's charge is paid first, settled before the reply), charged from its first cycle due on or after today (on its clock's time); a cycle already in its window is sent at once. `approve: false` refuses it (`recurrence.rejected`).",
  security: API_KEY,
  params: recurrenceParams,
  body: simulateApprovalSchema,
  replies: { 200: { description: "The recurrence, `approved` or `rejected`.", schema: Recurrence } },
  errors: {
    400: INVALID_REQUEST,
    401: NO_API_KEY,
    403: TEST_KEYS_ONLY,
    404: NOT_IN_STORE_MODE,
    409: {
      description:
        "`invalid_state`: the payer has answered already, its test clock is advancing, or the first payment can no longer be paid.",
      codes: ["invalid_state"],
    },
    429: KEY_RATE_LIMITED,
  },
});

/** `simulateRecurrencePayerCancellation`. */
export const simulateRecurrencePayerCancellation = defineRoute({
  method: "post",
  path: "/v1/recurrences/{id}/simulate-payer-cancellation",
  operationId: "simulateRecurrencePayerCancellation",
  tag: TAG,
  summary: "Have the payer cancel a test recurrence",
  description:
    "Test keys only. The sandbox plays the payer's bank canceling an `approved` recurrence (`canceled_by` `payer`), as `POST /v1/recurrences/{id}/cancel` does for the merchant.",
  security: API_KEY,
  params: recurrenceParams,
  replies: { 200: { description: "The recurrence, `canceled`.", schema: Recurrence } },
  errors: {
    401: NO_API_KEY,
    403: TEST_KEYS_ONLY,
    404: NOT_IN_STORE_MODE,
    409: { description: "`invalid_state`: it is not `approved`.", codes: ["invalid_state"] },
    429: KEY_RATE_LIMITED,
  },
});
