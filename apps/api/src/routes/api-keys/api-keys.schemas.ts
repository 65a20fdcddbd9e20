/**
 * joi schemas of the panel's API key routes (SPEC "API keys").
 */
import Joi from "joi";
import type { Mode } from "@lm/domain";

/** Body of `POST /v1/me/api-keys`: `name` 1 to 64 characters (not only blanks), `mode` `live` or `test`. */
export const createApiKeySchema: Joi.ObjectSchema<{ name: string; mode: Mode }> = Joi.object({
  name: Joi.string()
    .min(1)
    .max(64)
    .pattern(/\S/)
    .required()
    .messages({ "string.pattern.base": "{{#label}} must not be blank" }),
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
    .messages({ "string.pattern.base": "{{#label}} must be an API key id (key_...)" }),
});
