/**
 * joi schema of `POST /v1/me/payout-keys` (DESIGN §7). Only the shape is checked here; whether `key` is a valid key of
 * its `type` (and the seller's own CPF/CNPJ) is the domain's to say, as 400 `validation_failed` with param `key`.
 */
import Joi from "joi";
import type { PayoutKeyInput } from "@lm/domain";
import { defineRoute, INVALID_REQUEST, NO_SELLER, NO_SESSION, PANEL_SESSION } from "../../http/contract";
import { PayoutKey, PayoutKeyList } from "@lm/wire";
import { listQuerySchema, type ListQuery } from "../../http/list";

/** Query of `GET /v1/me/payout-keys`: paging only. */
export const listPayoutKeysSchema: Joi.ObjectSchema<ListQuery> = listQuerySchema();

/** Body: `{type, key}`; unknown fields refused. */
export const createPayoutKeySchema: Joi.ObjectSchema<PayoutKeyInput> = Joi.object({
  type: Joi.string().valid("cpf", "cnpj", "email", "phone", "evp").required(),
  key: Joi.string().min(1).max(100).required(),
}).prefs({ stripUnknown: false });

/** Path of the routes under `{id}`: A payout key id; any other string is 404. */
export const payoutKeyParams = Joi.object<{ id: string }>({
  id: Joi.string()
    .pattern(/^pk_[0-9A-HJKMNP-TV-Z]{26}$/)
    .required()
    .description("A payout key id; any other string is 404."),
});

/** `listPayoutKeys`. */
export const listPayoutKeys = defineRoute({
  method: "get",
  path: "/v1/me/payout-keys",
  operationId: "listPayoutKeys",
  tag: "Payout keys and withdrawals",
  summary: "The seller's payout keys",
  security: PANEL_SESSION,
  query: listPayoutKeysSchema,
  replies: {
    200: { description: "A page, newest first; deleted keys are not listed.", schema: PayoutKeyList },
  },
  errors: {
    400: INVALID_REQUEST,
    401: NO_SESSION,
    403: NO_SELLER,
  },
});

/** `createPayoutKey`. */
export const createPayoutKey = defineRoute({
  method: "post",
  path: "/v1/me/payout-keys",
  operationId: "createPayoutKey",
  tag: "Payout keys and withdrawals",
  summary: "Add a payout key",
  description:
    "Always needs a live step-up. Keys are validated and normalised to their DICT form with @brazilian-utils. A new email, phone or EVP key takes withdrawals only 24 h after it was added (`payout_key_cooling_off`), so that someone holding a session cannot add a key and empty the balance before the owners read the mail; a CPF/CNPJ key (the seller's own document) takes them at once.",
  security: PANEL_SESSION,
  body: createPayoutKeySchema,
  replies: {
    201: {
      description: "The key, masked. The seller's owners are mailed and a feed item is written.",
      schema: PayoutKey,
    },
  },
  errors: {
    400: {
      description:
        '`validation_failed`: the body, query or a path parameter is invalid; `param` names the field. With `param: "key"`: not a valid key of its `type` (CPF/CNPJ check digits, e-mail, `+55` and a mobile number, EVP UUID), or a CPF/CNPJ that is not the seller\'s own document.',
      codes: ["validation_failed"],
    },
    401: NO_SESSION,
    403: {
      description:
        "`permission_denied`: the request carries a panel cookie and its `Origin` (or `Referer`) is not in `PANEL_ORIGINS`. Also for operators. `mfa_required`: no live step-up on this session (always needed).",
      codes: ["permission_denied", "mfa_required"],
    },
    409: {
      description: "`invalid_state`: the key is already registered, or the seller has 5 keys.",
      codes: ["invalid_state"],
    },
  },
});

/** `deletePayoutKey`. */
export const deletePayoutKey = defineRoute({
  method: "delete",
  path: "/v1/me/payout-keys/{id}",
  operationId: "deletePayoutKey",
  tag: "Payout keys and withdrawals",
  summary: "Delete a payout key",
  description: "Always needs a live step-up.",
  security: PANEL_SESSION,
  params: payoutKeyParams,
  replies: {
    204: { description: "Deleted; the owners are mailed and a feed item is written." },
  },
  errors: {
    401: NO_SESSION,
    403: {
      description:
        "`permission_denied`: the request carries a panel cookie and its `Origin` (or `Referer`) is not in `PANEL_ORIGINS`. Also for operators. `mfa_required`: no live step-up on this session (always needed).",
      codes: ["permission_denied", "mfa_required"],
    },
    404: {
      description: "`resource_not_found`: unknown, malformed, deleted, or another seller's key.",
      codes: ["resource_not_found"],
    },
  },
});
