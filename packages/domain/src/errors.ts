/**
 * The one error class of the service (SPEC "Errors", DESIGN §2); the catalog of codes, statuses and types is part of
 * the wire (`@lm/wire`). Use cases throw {@link ApiError}; the API's central error handler is the only place that
 * turns it into the wire envelope `{error: {type, code, message, param?, request_id}}`.
 */
import { ERROR_CATALOG, type ErrorCode, type ErrorType } from "@lm/wire";

export { ERROR_CATALOG, type ErrorCode, type ErrorType };

/**
 * An error meant for the caller: its `code` decides status and type, its `message` is shown as is (so it must never
 * contain secrets or internals), `param` names the offending request field.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly type: ErrorType;

  /**
   * @param code - catalog code, e.g. `validation_failed`
   * @param message - human-readable explanation for the integrator
   * @param options.param - request field at fault, e.g. `amount` or `customer.document`
   * @param options.headers - extra reply headers, e.g. `Retry-After` for `rate_limited`
   */
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: { param?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = ERROR_CATALOG[code].status;
    this.type = ERROR_CATALOG[code].type;
  }

  /** The field at fault, if any. */
  get param(): string | undefined {
    return this.options.param;
  }
}

/** `404 resource_not_found` for `what` (e.g. "transaction"), worded the same whether it is unknown or foreign. */
export function notFound(what: string): ApiError {
  return new ApiError("resource_not_found", `No such ${what}.`);
}

/** `400 validation_failed` naming the field at fault. */
export function validationFailed(message: string, param?: string): ApiError {
  return new ApiError("validation_failed", message, param === undefined ? {} : { param });
}
