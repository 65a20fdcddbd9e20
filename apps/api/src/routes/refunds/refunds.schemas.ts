/**
 * joi schema of `POST /v1/transactions/{id}/refunds` (DESIGN §7). Unknown fields are refused, as on charge creation.
 */
import Joi from "joi";
import type { CreateRefundInput } from "@lm/domain";
import { centavosAmount } from "../../http/amount";

/** Body: `amount` (centavos, default the refundable remainder) and `reason` (≤ 140). */
export const createRefundSchema: Joi.ObjectSchema<CreateRefundInput> = Joi.object({
  amount: centavosAmount(),
  reason: Joi.string().min(1).max(140),
}).prefs({ stripUnknown: false });
