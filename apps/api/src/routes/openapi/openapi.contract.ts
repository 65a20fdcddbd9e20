/**
 * Contracts of the openapi routes.
 */
import { Type } from "@sinclair/typebox";
import { wireObject } from "@lm/wire";
import { defineRoute, NOT_JSON, PUBLIC } from "../../http/contract";

/** The served document: OpenAPI 3.1, described only as an object (its own schema is the OpenAPI specification's). */
const OpenApiDocument = wireObject("OpenApiDocument", Type.Object({}, { additionalProperties: true }));

/** `getOpenApiDocument`. */
export const getOpenApiDocument = defineRoute({
  method: "get",
  path: "/openapi.json",
  operationId: "getOpenApiDocument",
  tag: "Reference and metrics",
  summary: "This document",
  security: PUBLIC,
  replies: {
    200: {
      description: "The OpenAPI 3.1 description of the API.",
      schema: OpenApiDocument,
    },
  },
  errors: {
    415: NOT_JSON,
  },
});
