/**
 * One JSON log line per request: method, path, status, duration_ms, request_id. The path is the matched route
 * pattern (`/v1/me/auth/invites/:token`) so that ids and tokens in paths never reach the log; the query is dropped.
 */
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "@lm/logging";

/** Where {@link trackRouteTemplate} keeps a request's matched route pattern. */
const ROUTE_TEMPLATE = Symbol("routeTemplate");

type TrackedRequest = Request & { [ROUTE_TEMPLATE]?: string };

/**
 * Records the full pattern of the route that takes `req` (mount path + route path) at the moment the router matches
 * it. Read later, `req.baseUrl` is no longer the mount path once an error has left the router (a 404 thrown by
 * `/v1/transactions/:id` would read as `/:id`), so the pattern is taken when Express assigns `req.route`. Idempotent.
 */
export function trackRouteTemplate(req: Request): void {
  if (Object.getOwnPropertyDescriptor(req, "route")?.set) return;
  let route: unknown = req.route;
  Object.defineProperty(req, "route", {
    configurable: true,
    enumerable: true,
    get: () => route,
    set: (value: unknown) => {
      route = value;
      const path = (value as { path?: unknown } | undefined)?.path;
      if (typeof path !== "string") return;
      // A router's own `/` is its mount path: `/v1/me/seller`, not `/v1/me/seller/`, as in openapi.json.
      (req as TrackedRequest)[ROUTE_TEMPLATE] =
        path === "/" && req.baseUrl !== "" ? req.baseUrl : `${req.baseUrl}${path}`;
    },
  });
}

/**
 * The matched route pattern of a request tracked by {@link trackRouteTemplate} (`/v1/transactions/:id`), or
 * `(unmatched)` when no route took it (an unknown URL, or a guard that answered before the router matched).
 */
export function routeTemplate(req: Request): string {
  return (req as TrackedRequest)[ROUTE_TEMPLATE] ?? "(unmatched)";
}

/** Express middleware writing the request line when the reply is finished. */
export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    trackRouteTemplate(req);
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
