/**
 * joi schemas of the panel's API key routes (SPEC "API keys").
 */
import Joi from "joi";
import type { Mode } from "@lm/domain";
import { defineRoute, INVALID_REQUEST, NO_SESSION, OWNERS_ONLY, PANEL_SESSION } from "../../http/contract";
import { ApiKeyList, CreatedApiKey, RotatedApiKey } from "@lm/wire";

/** Body of `POST /v1/me/api-keys`: `name` 1 to 64 characters (not only blanks), `mode` `live` or `test`. */
export const createApiKeySchema: Joi.ObjectSchema<{ name: string; mode: Mode }> = Joi.object({
  name: Joi.string()
    .min(1)
    .max(64)
    .pattern(/\S/)
    .required()
    .messages({ "string.pattern.base": "{{#label}} must not be blank" })
    .description("Not only whitespace."),
  mode: Joi.string().valid("live", "test").required(),
});

/**
 * Path of `/v1/me/api-keys/{id}`: an id is `<prefix>_<letters and digits>` of at most 64 characters; anything else is
 * malformed (400). A well-formed id of another kind is simply not found (404, DESIGN §2).
 */
export const apiKeyPathSchema: Joi.ObjectSchema<{ id: string }> = Joi.object({
  id: Joi.string()
    .max(64)
    .pattern(/^[a-z]+_[0-9A-Za-z]+$/)
    .required()
    .messages({ "string.pattern.base": "{{#label}} must be an API key id (key_...)" })
    .description("An API key id (`key_…`); another shape is 400, an id of another kind 404."),
});

/** `listApiKeys`. */
export const listApiKeys = defineRoute({
  method: "get",
  path: "/v1/me/api-keys",
  operationId: "listApiKeys",
  tag: "API keys and postback secret",
  summary: "The store's active API keys",
  security: PANEL_SESSION,
  replies: {
    200: { description: "Every active key (not paged: `has_more` is false).", schema: ApiKeyList },
  },
  errors: {
    401: NO_SESSION,
    403: OWNERS_ONLY,
  },
});

/** `createApiKey`. */
export const createApiKey = defineRoute({
  method: "post",
  path: "/v1/me/api-keys",
  operationId: "createApiKey",
  tag: "API keys and postback secret",
  summary: "Create an API key",
  description: "Always needs a live step-up. The key is in this reply only.",
  security: PANEL_SESSION,
  body: createApiKeySchema,
  replies: {
    201: { description: "The key, with `key` shown once.", schema: CreatedApiKey },
  },
  errors: {
    400: INVALID_REQUEST,
    401: NO_SESSION,
    403: {
      description:
        "`permission_denied`: the request carries a panel cookie and its `Origin` (or `Referer`) is not in `PANEL_ORIGINS`. Also for operators. `mfa_required`: no live step-up on this session (`POST /v1/me/auth/step-up` first). `kyc_required`: a live key for a seller whose KYC is not approved.",
      codes: ["permission_denied", "mfa_required", "kyc_required"],
    },
    409: {
      description: "`invalid_state`: the store already has 10 active keys of this mode.",
      codes: ["invalid_state"],
    },
  },
});

/** `rotateApiKey`. */
export const rotateApiKey = defineRoute({
  method: "post",
  path: "/v1/me/api-keys/{id}/rotate",
  operationId: "rotateApiKey",
  tag: "API keys and postback secret",
  summary: "Rotate an API key",
  description: "Always needs a live step-up. A new key of the same name and mode; the old one keeps working for 24 h.",
  security: PANEL_SESSION,
  params: apiKeyPathSchema,
  replies: {
    201: {
      description: "The new key, with `key` shown once and the old key's `old_key_revoke_at`.",
      schema: RotatedApiKey,
    },
  },
  errors: {
    400: { description: "`validation_failed`: malformed id.", codes: ["validation_failed"] },
    401: NO_SESSION,
    403: {
      description:
        "`permission_denied`: the request carries a panel cookie and its `Origin` (or `Referer`) is not in `PANEL_ORIGINS`. Also for operators. `mfa_required`: no live step-up on this session (`POST /v1/me/auth/step-up` first). `kyc_required`: a live key of a seller whose KYC is no longer approved.",
      codes: ["permission_denied", "mfa_required", "kyc_required"],
    },
    404: {
      description: "`resource_not_found`: unknown, revoked, or another store's key.",
      codes: ["resource_not_found"],
    },
    409: {
      description: "`invalid_state`: the key was already rotated, or the mode's limit of 10 active keys is reached.",
      codes: ["invalid_state"],
    },
  },
});

/** `deleteApiKey`. */
export const deleteApiKey = defineRoute({
  method: "delete",
  path: "/v1/me/api-keys/{id}",
  operationId: "deleteApiKey",
  tag: "API keys and postback secret",
  summary: "Revoke an API key at once",
  security: PANEL_SESSION,
  params: apiKeyPathSchema,
  replies: {
    204: { description: "Revoked; the key is refused from now on." },
  },
  errors: {
    400: { description: "`validation_failed`: malformed id.", codes: ["validation_failed"] },
    401: NO_SESSION,
    403: {
      description:
        "`permission_denied`: the request carries a panel cookie and its `Origin` (or `Referer`) is not in `PANEL_ORIGINS`. Also for operators. `mfa_required`: no live step-up on this session while the seller's `account` step-up toggle is on.",
      codes: ["permission_denied", "mfa_required"],
    },
    404: {
      description: "`resource_not_found`: unknown, revoked, or another store's key.",
      codes: ["resource_not_found"],
    },
  },
});
