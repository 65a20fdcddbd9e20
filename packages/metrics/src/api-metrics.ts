/**
 * The API process's Prometheus metrics, one registry per process so that tests run many apps
 * side by side without sharing counts.
 */
import { collectDefaultMetrics, Histogram, Registry } from "prom-client";

/** Upper bounds of the HTTP duration buckets, seconds: a charge creation is tens of ms, a sign-in (bcrypt) ~250 ms. */
const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Labels of {@link ApiMetrics.httpRequestDuration}. */
export type HttpRequestLabels = "method" | "route" | "status";

/** The metrics an API process exposes. */
export interface ApiMetrics {
  /** Holds every metric below plus Node's process metrics (`process_*`, `nodejs_*`). */
  registry: Registry;
  /**
   * `lm_http_request_duration_seconds{method, route, status}`: time from the request's arrival to the reply's last
   * byte, seconds. `route` is the matched route template (`/v1/transactions/:id`), never the raw path, so ids and
   * tokens neither reach the series nor multiply them; a request no route matched is `(unmatched)`.
   */
  httpRequestDuration: Histogram<HttpRequestLabels>;
}

/** Creates the API's registry and metrics (call once per process or app). */
export function createApiMetrics(): ApiMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpRequestDuration: new Histogram({
      name: "lm_http_request_duration_seconds",
      help: "HTTP request duration by method, route template and status, seconds",
      labelNames: ["method", "route", "status"],
      buckets: HTTP_DURATION_BUCKETS,
      registers: [registry],
    }),
  };
}
