/**
 * Contracts of the seller dashboard's routes (DESIGN §15).
 */
import Joi from "joi";
import { defineRoute, NOT_JSON, PUBLIC } from "../../http/contract";

/** The path of `GET /dashboard/{page}`: a page of the dashboard, or a file of its build. */
export const dashboardPageParamsSchema = Joi.object({
  page: Joi.string()
    .max(200)
    .description("A page (`sign-in`, `charges`, …) or a file of the build (`index-<digest>.js`)."),
});

/** The path of `GET /dashboard/{section}/{page}`: a page under a section. */
export const dashboardSectionPageParamsSchema = Joi.object({
  section: Joi.string().max(200).description("The section, e.g. `charges`."),
  page: Joi.string().max(200).description("The page in it, e.g. a charge's id."),
});

const SERVED =
  "Served by the API from the dashboard's build (`npm run build`), gzipped when asked, under a Content-Security-Policy that admits scripts and styles of this origin only (`script-src 'self'`, no inline script or style) and no framing (`frame-ancestors 'none'`). The page never sees the session cookie (HttpOnly) and keeps nothing secret in `localStorage`.";

/** `getDashboard`. */
export const getDashboard = defineRoute({
  method: "get",
  path: "/dashboard",
  operationId: "getDashboard",
  tag: "Dashboard",
  summary: "The seller dashboard",
  description: `The sellers' web dashboard: a single-page application over this panel API, from this origin (so the panel's session cookie and CSRF rule apply unchanged). Its \`index.html\`, never cached. ${SERVED}`,
  security: PUBLIC,
  replies: {
    200: { description: "The application's HTML page.", mediaType: "text/html" },
  },
  errors: {
    415: NOT_JSON,
  },
});

/** `getDashboardPage`. */
export const getDashboardPage = defineRoute<{ page: string }>({
  method: "get",
  path: "/dashboard/{page}",
  operationId: "getDashboardPage",
  tag: "Dashboard",
  summary: "A page or a file of the dashboard",
  description: `A file of the build (its name carries a digest of its bytes, so it is cached for good: \`Cache-Control: immutable\`), or else a page's address, which answers the application's \`index.html\` (never cached) for the application to show the page. ${SERVED}`,
  security: PUBLIC,
  params: dashboardPageParamsSchema,
  replies: {
    200: {
      description: "The file (JavaScript, CSS) or the application's HTML page.",
      mediaType: ["text/html", "text/javascript", "text/css"],
    },
  },
  errors: {
    404: { description: "`resource_not_found`: a file name the build does not have.", codes: ["resource_not_found"] },
    415: NOT_JSON,
  },
});

/** `getDashboardSectionPage`. */
export const getDashboardSectionPage = defineRoute<{ section: string; page: string }>({
  method: "get",
  path: "/dashboard/{section}/{page}",
  operationId: "getDashboardSectionPage",
  tag: "Dashboard",
  summary: "A page of the dashboard in a section",
  description: `A page's address such as \`/dashboard/charges/txn_…\` or \`/dashboard/reset-password\`: the application's \`index.html\` (never cached), which shows the page. ${SERVED}`,
  security: PUBLIC,
  params: dashboardSectionPageParamsSchema,
  replies: {
    200: { description: "The application's HTML page.", mediaType: "text/html" },
  },
  errors: {
    415: NOT_JSON,
  },
});
