/**
 * Contracts of the docs routes.
 */
import { defineRoute, NOT_JSON, PUBLIC } from "../../http/contract";

/** `getDocsPage`. */
export const getDocsPage = defineRoute({
  method: "get",
  path: "/docs",
  operationId: "getDocsPage",
  tag: "Reference and metrics",
  summary: "The API reference page",
  description:
    "This document rendered by Redoc when the service is built (`npm run build`), so every load is served ready: readable at once, its menu working within 2 s, and fully interactive once Redoc hydrates it (at the first interaction beyond the menu, or when the page is idle). Everything comes from this origin (no third-party host), gzipped when asked.",
  security: PUBLIC,
  replies: {
    200: {
      description: "An HTML page: Redoc's markup and CSS, and the state it hydrates from.",
      mediaType: "text/html",
    },
  },
  errors: {
    415: NOT_JSON,
  },
});

/** `getDocsNavigation`. */
export const getDocsNavigation = defineRoute({
  method: "get",
  path: "/docs/nav.js",
  operationId: "getDocsNavigation",
  tag: "Reference and metrics",
  summary: "The reference page's menu script",
  description:
    "Makes the menu of `GET /docs` work before Redoc hydrates the page, and starts that hydration; cached for 5 minutes.",
  security: PUBLIC,
  replies: {
    200: { description: "JavaScript.", mediaType: "text/javascript" },
  },
  errors: {
    415: NOT_JSON,
  },
});

/** `getDocsRenderer`. */
export const getDocsRenderer = defineRoute({
  method: "get",
  path: "/docs/docs.js",
  operationId: "getDocsRenderer",
  tag: "Reference and metrics",
  summary: "The reference page's renderer",
  description:
    "Redoc with React, bundled when the page is rendered at build time, which hydrates `GET /docs`; loaded by the page's menu script when needed; cached for 5 minutes.",
  security: PUBLIC,
  replies: {
    200: { description: "JavaScript.", mediaType: "text/javascript" },
  },
  errors: {
    415: NOT_JSON,
  },
});
