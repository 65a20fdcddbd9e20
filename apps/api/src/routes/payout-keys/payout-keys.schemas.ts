/**
 * joi schema of `POST /v1/me/payout-keys` (DESIGN §7). Only the shape is checked here; whether `key` is a valid key of
 * its `type` (and the seller's own CPF/CNPJ) is the domain's to say, as 400 `validation_failed` with param `key`.
 */
import Joi from "joi";
import type { PayoutKeyInput } from "@lm/domain";

/** Body: `{type, key}`; unknown fields refused. */
export const createPayoutKeySchema: Joi.ObjectSchema<PayoutKeyInput> = Joi.object({
  type: Joi.string().valid("cpf", "cnpj", "email", "phone", "evp").required(),
  key: Joi.string().min(1).max(100).required(),
}).prefs({ stripUnknown: false });
