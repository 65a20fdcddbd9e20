/**
 * Request validation with joi. Unknown fields are stripped, so only what a schema names reaches a use case (no mass
 * assignment: `role: "admin"` in a sign-up body goes nowhere). Types are not coerced: `"true"` is not a boolean and
 * `123456` is not a string.
 */
import type Joi from "joi";
import { validationFailed } from "@lm/domain";

/**
 * Returns `value` as `schema` accepts it, without unknown keys.
 * @throws ApiError `validation_failed` with the first problem and its field path as `param`
 */
export function validate<T>(schema: Joi.ObjectSchema<T>, value: unknown): T {
  const { value: valid, error } = schema.validate(value ?? {}, {
    abortEarly: true,
    stripUnknown: true,
    convert: false,
  });
  if (error) {
    const detail = error.details[0];
    const param = detail?.path.join(".");
    throw validationFailed(detail?.message ?? "Invalid request.", param === "" ? undefined : param);
  }
  return valid as T;
}
