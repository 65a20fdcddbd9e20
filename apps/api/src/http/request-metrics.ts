/**
 * Records every request in `lm_http_request_duration_seconds` by method, route template and status. The
 * route template, not the raw path, labels the series: ids and tokens never reach the metrics, and the number of
 * series stays the number of routes.
 */
import type { NextFunction, Request, Response } from "express";
import type { ApiMetrics } from "@lm/metrics";
import { routeTemplate, trackRouteTemplate } from "./request-log";

/** Express middleware observing the request's duration, seconds, when the reply is finished. */
export function requestMetrics(metrics: Pick<ApiMetrics, "httpRequestDuration">) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const stop = metrics.httpRequestDuration.startTimer();
    trackRouteTemplate(req);
    res.on("finish", () => stop({ method: req.method, route: routeTemplate(req), status: String(res.statusCode) }));
    next();
  };
}
