/**
 * Contracts of the probes routes.
 */
import { defineRoute, NOT_JSON, PUBLIC } from "../../http/contract";
import { Health, Readiness } from "@lm/wire";

/** `getHealth`. */
export const getHealth = defineRoute({
  method: "get",
  path: "/health",
  operationId: "getHealth",
  tag: "Probes",
  summary: "Liveness probe",
  security: PUBLIC,
  replies: {
    200: { description: "The process is up.", schema: Health },
  },
  errors: {
    415: NOT_JSON,
  },
});

/** `getReadiness`. */
export const getReadiness = defineRoute({
  method: "get",
  path: "/ready",
  operationId: "getReadiness",
  tag: "Probes",
  summary: "Readiness probe: PostgreSQL, Redis and the API key change feed",
  security: PUBLIC,
  replies: {
    200: {
      description:
        "PostgreSQL and Redis answered: `status: ok` when the API key change feed is online too, `degraded` (naming `change_feed`) when it is not, while every key is read from the database.",
      schema: Readiness,
    },
    503: {
      description: "PostgreSQL or Redis failed or did not answer within 2 s (`status: degraded`).",
      schema: Readiness,
    },
  },
  errors: {
    415: NOT_JSON,
  },
});
