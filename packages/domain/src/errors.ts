/**
 * The one error class of the service and the catalog that maps each error code to its HTTP status and error type
 * (SPEC "Errors", DESIGN §2). Use cases throw {@link ApiError}; the API's central error handler is the only place that
 * turns it into the wire envelope `{error: {type, code, message, param?, request_id}}`.
 */

/** Error `type` values of the spec's envelope. */
export type ErrorType =
  | "invalid_request_error"
  | "authentication_error"
  | "permission_error"
  | "not_found_error"
  | "idempotency_error"
  | "rate_limit_error"
  | "acquirer_error"
  | "internal_error";

/** Status and type of every error code the service emits. */
export const ERROR_CATALOG = {
  validation_failed: { status: 400, type: "invalid_request_error" },
  invalid_event_type: { status: 400, type: "invalid_request_error" },
  invalid_url: { status: 400, type: "invalid_request_error" },
  idempotency_key_reused: { status: 400, type: "idempotency_error" },
  authentication_required: { status: 401, type: "authentication_error" },
  invalid_credentials: { status: 401, type: "authentication_error" },
  invalid_mfa_code: { status: 401, type: "authentication_error" },
  permission_denied: { status: 403, type: "permission_error" },
  mfa_required: { status: 403, type: "permission_error" },
  kyc_required: { status: 403, type: "permission_error" },
  test_mode_only: { status: 403, type: "permission_error" },
  withdrawals_locked: { status: 403, type: "permission_error" },
  payout_key_cooling_off: { status: 403, type: "permission_error" },
  resource_not_found: { status: 404, type: "not_found_error" },
  invalid_state: { status: 409, type: "invalid_request_error" },
  insufficient_funds: { status: 409, type: "invalid_request_error" },
  idempotency_key_in_progress: { status: 409, type: "idempotency_error" },
  payload_too_large: { status: 413, type: "invalid_request_error" },
  unsupported_media_type: { status: 415, type: "invalid_request_error" },
  /** Headers over Node's 16 kB limit, refused by the HTTP parser before any route. */
  request_headers_too_large: { status: 431, type: "invalid_request_error" },
  rate_limited: { status: 429, type: "rate_limit_error" },
  internal_error: { status: 500, type: "internal_error" },
  /** PostgreSQL is down or unreachable for now; the reply carries `Retry-After`, so clients retry instead of giving up. */
  service_unavailable: { status: 503, type: "internal_error" },
  /** The mode has no acquirer (able to do this): the charge, refund or withdrawal is refused at creation (DESIGN §9). */
  acquirer_not_configured: { status: 503, type: "acquirer_error" },
  /** The bank could not be reached, timed out or answered 5xx; nothing was created (DESIGN §9 "Transport"). */
  acquirer_unavailable: { status: 502, type: "acquirer_error" },
  /** The bank refused the request; the message carries its reason; nothing was created. */
  acquirer_rejected: { status: 502, type: "acquirer_error" },
} as const satisfies Record<string, { status: number; type: ErrorType }>;

/** Every error code the service can answer with. */
export type ErrorCode = keyof typeof ERROR_CATALOG;

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
