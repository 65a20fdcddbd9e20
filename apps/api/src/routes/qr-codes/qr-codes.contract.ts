/**
 * Contracts of the reusable QR code routes (DESIGN §13 "Reusable QR codes", static Pix), and their joi schemas.
 */
import Joi from "joi";
import type { CreateQrCodeInput } from "@lm/domain";
import { QrCode, QrCodeList } from "@lm/wire";
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

/** The tag of these routes in the reference. */
const TAG = "QR codes";

/** Body of `POST /v1/qr-codes`. Unknown fields are refused, not stripped, as charges' are. */
export const createQrCodeSchema: Joi.ObjectSchema<CreateQrCodeInput> = Joi.object({
  amount: centavosAmount().description(
    "Centavos every payment must be, written in the code. Leave it out to let the payer type the amount.",
  ),
  description: Joi.string()
    .min(1)
    .max(140)
    .description("Shown to the payer (the BR Code keeps what fits) and on each payment's charge."),
  external_id: Joi.string().min(1).max(64).description("Unique per store and mode (409 `invalid_state` otherwise)."),
})
  .prefs({ stripUnknown: false })
  .description("Unknown fields are refused (400 `validation_failed`), not ignored.");

/** Query of `GET /v1/qr-codes`. */
export const listQrCodesSchema: Joi.ObjectSchema<ListQuery> = listQuerySchema();

/** Body of `POST /v1/qr-codes/{id}/simulate-payment`. */
export const simulateQrCodePaymentSchema: Joi.ObjectSchema<{ amount?: number }> = Joi.object({
  amount: centavosAmount().description(
    "Centavos paid: required when the code has no amount; when it has one, that amount (the default).",
  ),
});

/** Path of the routes under `{id}`. */
export const qrCodeParams = Joi.object<{ id: string }>({
  id: Joi.string()
    .pattern(/^qr_[0-9A-HJKMNP-TV-Z]{26}$/)
    .required()
    .description("A QR code id; any other string is 404."),
});

/** `createQrCode`. */
export const createQrCode = defineRoute({
  method: "post",
  path: "/v1/qr-codes",
  operationId: "createQrCode",
  tag: TAG,
  summary: "Create a reusable QR code",
  description:
    "A static Pix BR Code, paid any number of times: each payment becomes a charge of its own (`type` `qr_code`, `qr_code_id`), born `paid`, credited to the balance and announced by `transaction.paid` like any other. The code carries the receiving account's Pix key (in live mode the activated bank's; in test mode the sandbox's, which no account holds), the amount when fixed, and a txid of ours. No bank is asked: the standard registers no static code. Live mode without an activated bank refuses it (503 `acquirer_not_configured`); nothing is created.",
  security: API_KEY,
  headers: ["IdempotencyKey"],
  body: createQrCodeSchema,
  replies: {
    201: { description: "The code, active.", schema: QrCode, headers: ["IdempotentReplayed"] },
  },
  errors: {
    400: {
      description:
        "`validation_failed`: the body is invalid; `param` names the field. Also for a malformed `Idempotency-Key`. `idempotency_key_reused`: the key was used with a different request.",
      codes: ["validation_failed", "idempotency_key_reused"],
    },
    401: NO_API_KEY,
    409: {
      description:
        "`invalid_state`: a code with this `external_id` exists in this store and mode. `idempotency_key_in_progress`: a request with this key is still running.",
      codes: ["invalid_state", "idempotency_key_in_progress"],
    },
    429: KEY_RATE_LIMITED,
    503: noAcquirer("no acquirer receives payments in this mode (live mode without an activated bank)"),
  },
});

/** `listQrCodes`. */
export const listQrCodes = defineRoute({
  method: "get",
  path: "/v1/qr-codes",
  operationId: "listQrCodes",
  tag: TAG,
  summary: "List reusable QR codes",
  description: "Unknown query parameters are refused (400).",
  security: API_KEY,
  query: listQrCodesSchema,
  replies: {
    200: { description: "A page of the key's store and mode, newest first.", schema: QrCodeList },
  },
  errors: {
    400: INVALID_REQUEST,
    401: NO_API_KEY,
    429: KEY_RATE_LIMITED,
  },
});

/** `getQrCode`. */
export const getQrCode = defineRoute({
  method: "get",
  path: "/v1/qr-codes/{id}",
  operationId: "getQrCode",
  tag: TAG,
  summary: "Read a reusable QR code",
  description: "With its payments so far: `payments_count` and `amount_received`.",
  security: API_KEY,
  params: qrCodeParams,
  replies: {
    200: { description: "The code.", schema: QrCode },
  },
  errors: {
    401: NO_API_KEY,
    404: NOT_IN_STORE_MODE,
    429: KEY_RATE_LIMITED,
  },
});

/** `deactivateQrCode`. */
export const deactivateQrCode = defineRoute({
  method: "post",
  path: "/v1/qr-codes/{id}/deactivate",
  operationId: "deactivateQrCode",
  tag: TAG,
  summary: "Deactivate a reusable QR code",
  description:
    "For good: a payment made to it afterwards (a payer's app does not know the code is inactive) is not credited and makes no charge; it is kept for the operators, who return it. Deactivating an inactive code changes nothing.",
  security: API_KEY,
  params: qrCodeParams,
  replies: {
    200: { description: "The code, inactive.", schema: QrCode },
  },
  errors: {
    401: NO_API_KEY,
    404: NOT_IN_STORE_MODE,
    429: KEY_RATE_LIMITED,
  },
});

/** `simulateQrCodePayment`. */
export const simulateQrCodePayment = defineRoute({
  method: "post",
  path: "/v1/qr-codes/{id}/simulate-payment",
  operationId: "simulateQrCodePayment",
  tag: TAG,
  summary: "Pay a test QR code through the sandbox acquirer",
  description:
    "Test keys only. Posts a sandbox acquirer notification of a payment to the code through the normal inbound path, as `POST /v1/transactions/{id}/simulate-payment` does for a charge; the worker shortly makes it a paid charge of the code (`type` `qr_code`), with its `transaction.paid` event, and counts it on the code.",
  security: API_KEY,
  params: qrCodeParams,
  body: simulateQrCodePaymentSchema,
  bodyRequired: false,
  replies: {
    202: { description: "Accepted; the code as it is now (the payment not yet counted).", schema: QrCode },
  },
  errors: {
    400: {
      description:
        "`validation_failed` (`param` `amount`): no `amount` for a code without one, an amount other than the code's, or not an integer of at least 1.",
      codes: ["validation_failed"],
    },
    401: NO_API_KEY,
    403: TEST_KEYS_ONLY,
    404: NOT_IN_STORE_MODE,
    409: {
      description:
        "`invalid_state`: the code is inactive, or carries the Pix key of a bank activated for test mode (pay it at that bank).",
      codes: ["invalid_state"],
    },
    429: KEY_RATE_LIMITED,
  },
});
