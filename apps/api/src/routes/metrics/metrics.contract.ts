/**
 * Contracts of the metrics routes.
 */
import { defineRoute } from "../../http/contract";

/** `getMetrics`. */
export const getMetrics = defineRoute({
  method: "get",
  path: "/metrics",
  operationId: "getMetrics",
  tag: "Reference and metrics",
  summary: "Prometheus metrics of this API process",
  description:
    "Exists only when the deployment sets `METRICS_TOKEN` (otherwise 404, and the metrics are on the private `METRICS_PORT` listener). The Prometheus text exposition format.",
  security: [{ metricsToken: [] }],
  replies: {
    200: { description: "The metrics.", mediaType: "text/plain" },
  },
  errors: {
    401: {
      description: "`authentication_required`: no `Authorization: Bearer` header, or not `METRICS_TOKEN`.",
      codes: ["authentication_required"],
    },
    404: {
      description: "`resource_not_found`: the deployment sets no `METRICS_TOKEN`, so the route does not exist here.",
      codes: ["resource_not_found"],
    },
  },
});
