/**
 * One JSON log line per request: method, path, status, duration_ms, request_id. The path is the matched route
 * pattern (`/v1/me/auth/invites/:token`) so that ids and tokens in paths never reach the log; the query is dropped.
 */
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "@lm/logging";

/**
 * The matched route pattern of a finished request (`/v1/transactions/:id`), or `(unmatched)` when no route took it
 * (an unknown URL, or a guard that answered before the router matched). Read it once the reply is finished.
 */
export function routeTemplate(req: Request): string {
  const routePath: unknown = req.route?.path;
  return typeof routePath === "string" ? `${req.baseUrl}${routePath}` : "(unmatched)";
}

/** Express middleware writing the request line when the reply is finished. */
export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      logger.info("request", {
        method: req.method,
        path: routeTemplate(req),
        status: res.statusCode,
        duration_ms: Number((process.hrtime.bigint() - started) / 1_000_000n),
        request_id: res.locals.requestId,
      });
    });
    next();
  };
}

/**
 * `deps` whose logger writes the request's `request_id` on every line, for use cases that log on behalf of a request
 * (security events, for instance).
 */
export function withRequestLogger<D extends { logger: Logger }>(deps: D, res: Response): D {
  return { ...deps, logger: deps.logger.child({ request_id: res.locals.requestId }) };
}
