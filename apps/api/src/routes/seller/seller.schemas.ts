/**
 * joi schema of `PATCH /v1/me/seller` (DESIGN §7): `trade_name` and `email` only; the legal name and the document
 * change through operators. Unknown fields are refused, so `legal_name` in the body is an error, not silently ignored.
 */
import Joi from "joi";
import type { SellerProfileChanges } from "@lm/domain";

/** Body of `PATCH /v1/me/seller`: at least one field. */
export const updateSellerSchema: Joi.ObjectSchema<SellerProfileChanges> = Joi.object({
  trade_name: Joi.string().trim().min(1).max(200).allow(null),
  email: Joi.string().max(254),
})
  .min(1)
  .prefs({ stripUnknown: false });
