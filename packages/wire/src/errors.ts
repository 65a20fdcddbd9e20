/**
 * The error envelope of every failed request and the catalog of its codes (SPEC "Errors", DESIGN §2): each code's HTTP
 * status and error type. The domain's `ApiError` takes its status and type from here; the OpenAPI document names every
 * code once (`Error.<code>`) and lists, per operation and status, the codes it can answer.
 */
import { Type, type Static } from "@sinclair/typebox";
import { StringEnum, wireObject } from "./schema";

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

/** Every error type, in the catalog's order of first use. */
const ERROR_TYPES = [...new Set(Object.values(ERROR_CATALOG).map((entry) => entry.type))];

/** The error envelope of every failed request (SPEC "Error envelope", DESIGN §2). */
export const ErrorEnvelope = wireObject(
  "Error",
  Type.Object(
    {
      error: Type.Object({
        type: StringEnum(ERROR_TYPES),
        code: StringEnum(Object.keys(ERROR_CATALOG) as ErrorCode[]),
        message: Type.String({ description: "Human-readable; never contains secrets or internals." }),
        param: Type.Optional(
          Type.String({ description: "The request field at fault, e.g. `amount` or `customer.document`." }),
        ),
        request_id: Type.String({ description: "Equals the reply's `X-Request-Id` header." }),
      }),
    },
    { description: 'The error envelope of every failed request (SPEC "Error envelope", DESIGN §2).' },
  ),
);
/** An error reply's body. */
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;

/**
 * The envelope of the error `error` (an `ApiError`'s fields) met by request `requestId`: what the API answers, and
 * what a batch's item keeps of its refusal (DESIGN §13 "Batches"). `param` is left out when there is none.
 */
export function serializeError(
  error: { type: ErrorType; code: ErrorCode; message: string; param?: string | undefined },
  requestId: string,
): ErrorEnvelope {
  return {
    error: {
      type: error.type,
      code: error.code,
      message: error.message,
      ...(error.param === undefined ? {} : { param: error.param }),
      request_id: requestId,
    },
  };
}
