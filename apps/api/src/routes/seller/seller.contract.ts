/**
 * joi schema of `PATCH /v1/me/seller` (DESIGN §7): `trade_name` and `email` only; the legal name and the document
 * change through operators. Unknown fields are refused, so `legal_name` in the body is an error, not silently ignored.
 */
import Joi from "joi";
import type { SellerProfileChanges } from "@lm/domain";
import {
  defineRoute,
  API_KEY,
  KEY_RATE_LIMITED,
  NO_API_KEY,
  NO_SELLER,
  NO_SESSION,
  PANEL_SESSION,
} from "../../http/contract";
import { Seller } from "@lm/wire";

/** Body of `PATCH /v1/me/seller`: at least one field. */
export const updateSellerSchema: Joi.ObjectSchema<SellerProfileChanges> = Joi.object({
  trade_name: Joi.string()
    .trim()
    .min(1)
    .max(200)
    .allow(null)
    .description("No leading or trailing spaces; null clears it."),
  // The address is checked by the use case after trimming and lower-casing it; `format` only tells a client so.
  email: Joi.string().max(254).meta({ format: "email" }),
})
  .min(1)
  .prefs({ stripUnknown: false })
  .description("At least one field.");

/** `getSellerProfile`. */
export const getSellerProfile = defineRoute({
  method: "get",
  path: "/v1/me/seller",
  operationId: "getSellerProfile",
  tag: "Profile, balance and disputes",
  summary: "The signed-in owner's seller profile",
  security: PANEL_SESSION,
  replies: {
    200: { description: "The seller.", schema: Seller },
  },
  errors: {
    401: NO_SESSION,
    403: NO_SELLER,
  },
});

/** `updateSellerProfile`. */
export const updateSellerProfile = defineRoute({
  method: "patch",
  path: "/v1/me/seller",
  operationId: "updateSellerProfile",
  tag: "Profile, balance and disputes",
  summary: "Change the trade name or contact email",
  description: "Needs a live step-up while the seller's `account` toggle is on. At least one field.",
  security: PANEL_SESSION,
  body: updateSellerSchema,
  replies: {
    200: {
      description: "The seller after the change; a change emits `seller.updated` (both modes) and a feed item.",
      schema: Seller,
    },
  },
  errors: {
    400: {
      description:
        "`validation_failed`: the body, query or a path parameter is invalid; `param` names the field. Unknown fields (`legal_name`, `document`: operators only) are refused.",
      codes: ["validation_failed"],
    },
    401: NO_SESSION,
    403: {
      description:
        "`permission_denied`: the request carries a panel cookie and its `Origin` (or `Referer`) is not in `PANEL_ORIGINS`. Also for operators. `mfa_required`: no live step-up on this session while the seller's `account` step-up toggle is on.",
      codes: ["permission_denied", "mfa_required"],
    },
  },
});

/** `getSeller`. */
export const getSeller = defineRoute({
  method: "get",
  path: "/v1/seller",
  operationId: "getSeller",
  tag: "Balance and withdrawals",
  summary: "The API key's seller",
  security: API_KEY,
  replies: {
    200: { description: "The seller.", schema: Seller },
  },
  errors: {
    401: NO_API_KEY,
    429: KEY_RATE_LIMITED,
  },
});
