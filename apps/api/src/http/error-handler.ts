/**
 * The one place where errors become replies, in the spec's envelope
 * `{error: {type, code, message, param?, request_id}}` (SPEC "Error envelope", DESIGN §2). Anything that is not an
 * {@link ApiError} is logged and answered as a bare 500 `internal_error`: internals never leak. While PostgreSQL is down
 * or unreachable, the reply is 503 `service_unavailable` with `Retry-After` instead, like `/ready`'s 503: the request
 * was fine and can be sent again.
 */
import type { NextFunction, Request, Response } from "express";
import { ApiError } from "@lm/domain";
import { isTransientConnectionError } from "@lm/db";
import type { Logger } from "@lm/logging";
import { serializeError } from "@lm/wire";

/** Seconds a client is asked to wait before retrying while the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Maps the body parser's errors to ours. */
function fromBodyParser(err: unknown): ApiError | undefined {
  const { type, limit } = (err ?? {}) as { type?: unknown; limit?: unknown };
  if (type === "entity.too.large") {
    const kB = typeof limit === "number" ? Math.round(limit / 1024) : 100;
    return new ApiError("payload_too_large", `Request body exceeds ${kB} kB.`);
  }
  if (type === "entity.parse.failed") return new ApiError("validation_failed", "Request body is not valid JSON.");
  if (type === "encoding.unsupported" || type === "charset.unsupported") {
    return new ApiError("unsupported_media_type", "Request bodies must be UTF-8 JSON.");
  }
  // Any other client fault the parser reports (http-errors, status 400, exposed): a body whose Content-Encoding data
  // does not inflate, a length that does not match, an aborted upload.
  const fault = err as { status?: unknown; expose?: unknown } | null;
  if (fault?.status === 400 && fault.expose === true) {
    return new ApiError(
      "validation_failed",
      "The request body could not be read (check its Content-Encoding and length).",
    );
  }
  return undefined;
}

/** Writes `err` to `res` in the spec's envelope. */
export function sendError(res: Response, err: ApiError): void {
  for (const [name, value] of Object.entries(err.options.headers ?? {})) res.setHeader(name, value);
  res.status(err.status).json(serializeError(err, res.locals.requestId as string));
}

/** Express error middleware (four arguments). */
export function errorHandler(logger: Logger) {
  return (err: unknown, _req: Request, res: Response, _next: NextFunction): void => {
    const known = err instanceof ApiError ? err : fromBodyParser(err);
    if (known) {
      sendError(res, known);
      return;
    }
    const unavailable = isTransientConnectionError(err);
    logger.error(unavailable ? "database unavailable" : "unhandled error", { request_id: res.locals.requestId, err });
    if (res.headersSent) {
      res.end();
      return;
    }
    sendError(
      res,
      unavailable
        ? new ApiError("service_unavailable", "The service is temporarily unavailable; retry later.", {
            headers: { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) },
          })
        : new ApiError("internal_error", "An internal error occurred."),
    );
  };
}

/** Final middleware: no route matched → 404 `resource_not_found`. */
export function unknownRoute(_req: Request, _res: Response, next: NextFunction): void {
  next(new ApiError("resource_not_found", "Unrecognised request URL."));
}
