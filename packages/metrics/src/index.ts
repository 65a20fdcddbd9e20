/**
 * Prometheus metrics of the API and worker processes: every metric is defined once here, with
 * `prom-client`; the apps record with one call at each site and expose the registry with {@link serveMetrics} or
 * their own route.
 */
export * from "./api-metrics";
export * from "./metrics-server";
export * from "./worker-metrics";
