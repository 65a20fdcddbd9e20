/**
 * The Express application, without `listen` (the supertest target). Order: request id → request log and metrics →
 * path and query text rules → inbound notifications (raw body) → JSON body rules and body text rules → routes (the
 * merchant API's, then cookies are parsed for the others) → 404 → central error handler.
 */
import express, { type Express } from "express";
import type { AppDeps } from "./deps";
import { errorHandler, unknownRoute } from "./http/error-handler";
import { jsonBody } from "./http/json-body";
import { requestId } from "./http/request-id";
import { requestLog } from "./http/request-log";
import { refuseUnstorableBody, refuseUnstorablePathAndQuery } from "./http/storable-input";
import { requestMetrics } from "./http/request-metrics";
import { mountRawBodyRoutes, mountRoutes } from "./routes";

/** Builds the HTTP application over `deps`. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable("x-powered-by");
  // No ETag: the API documents none, and Express would hash every reply body to make one.
  app.disable("etag");
  // No proxy is trusted unless configured (TRUST_PROXY): a client's X-Forwarded-For is not believed.
  app.set("trust proxy", deps.config.trustProxy);
  app.use(requestId);
  app.use(requestLog(deps.logger));
  app.use(requestMetrics(deps.metrics));
  app.use(refuseUnstorablePathAndQuery);
  // Before the JSON body rules: inbound notifications are stored whatever their body (DESIGN §5).
  mountRawBodyRoutes(app, deps);
  app.use(jsonBody(), refuseUnstorableBody);
  mountRoutes(app, deps);
  app.use(unknownRoute);
  app.use(errorHandler(deps.logger));
  return app;
}
