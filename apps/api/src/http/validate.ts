/**
 * Request validation with joi: the first problem becomes `400 validation_failed` naming the field at fault in
 * `param` (`amount`, `customer.document`, `metadata.order`), and nothing else happens (DESIGN §2).
 */
import type Joi from "joi";
import { validationFailed } from "@lm/domain";

/**
 * Validates `value` against `schema` and returns the validated value (defaults applied).
 * @param options.convert - coerce strings to numbers and booleans: on for query strings, off for JSON bodies, where
 *   `"100"` is not an amount
 * @throws ApiError `validation_failed` with `param` = the path of the first invalid field
 */
export function validate<T>(schema: Joi.Schema<T>, value: unknown, options: { convert?: boolean } = {}): T {
  const result = schema.validate(value ?? {}, {
    abortEarly: true,
    convert: options.convert ?? false,
    errors: { wrap: { label: "`" } },
  });
  if (result.error) {
    const detail = result.error.details[0];
    const param = detail?.path.join(".");
    throw validationFailed(detail?.message ?? result.error.message, param === "" ? undefined : param);
  }
  return result.value;
}
