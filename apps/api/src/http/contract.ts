/**
 * Route contracts: each route of the API is described once, by a {@link RouteContract} in its resource's
 * `*.contract.ts`: method, path, summary and tag, the request (path, query, body, headers), the reply per status and
 * the error codes it can answer. The router registers the handler at the contract's path and validates the request
 * with the contract's schemas; the OpenAPI document (`apps/api/openapi.json`, `npm run openapi`) is generated from
 * the contracts, so a route and its documentation cannot drift apart.
 *
 * Requests are validated with joi and replies are described with TypeBox (`@lm/wire`). joi stays for requests because
 * validation is more than a schema here: it strips unknown fields, converts query strings, applies defaults and
 * custom rules (a CPF's check digits, an amount in centavos) and words every refusal as the spec's `validation_failed`
 * with its field; `joi-to-json` turns the same schemas into the document's request schemas. Replies need no
 * validation at run time but need TypeScript types, which joi cannot give: a TypeBox schema is JSON Schema for the
 * document and, through `Static`, the return type of its serializer, so a reply field is declared once.
 */
import type { TSchema } from "@sinclair/typebox";
import type Joi from "joi";
import type { ErrorCode } from "@lm/wire";

/** HTTP methods the API serves. */
export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

/**
 * Who may call a route, as OpenAPI security requirements (any one suffices): `apiKey` (the merchant API's bearer key),
 * `panelSession` (the panel's cookie), `twoFactorChallenge` (the sign-in's second-factor cookie), `metricsToken`; an
 * empty object in the list means the route also answers without credentials.
 */
export type Security = Array<Partial<Record<"apiKey" | "panelSession" | "twoFactorChallenge" | "metricsToken", []>>>;

/** One successful reply of a route. */
export interface ReplyContract {
  /** What the reply means, in Markdown. */
  description: string;
  /** The JSON body's schema; none for a reply without a body (204, 202 without one) or not in JSON. */
  schema?: TSchema;
  /**
   * The media type of a body that is not JSON (`text/html`), described as a string; several when the route answers
   * files of several types (the dashboard's).
   */
  mediaType?: string | string[];
  /** Names of reply headers described under `components.headers` of the document overlay (`IdempotentReplayed`). */
  headers?: string[];
  /** What the reply's `Set-Cookie` sets, when it sets one. */
  setCookie?: string;
}

/** The error replies of one status: which codes of the catalog (`@lm/wire`'s `ERROR_CATALOG`) it answers, and when. */
export interface ErrorReplyContract {
  /** When each code is answered, in Markdown. */
  description: string;
  /** The codes, all of this status in the catalog. */
  codes: ErrorCode[];
  /** Names of reply headers described under `components.headers` (`RetryAfter`). */
  headers?: string[];
}

/**
 * One route (DESIGN §2): everything a client needs to call it and everything the router needs to serve it. The type
 * parameters are what validation returns for the path, query and body.
 */
export interface RouteContract<Params = unknown, Query = unknown, Body = unknown> {
  method: HttpMethod;
  /** The full path in OpenAPI form, e.g. `/v1/transactions/{id}`. */
  path: string;
  /** A stable camelCase name of the operation, e.g. `createTransaction` (the generated client's and SDKs' name). */
  operationId: string;
  /** The reference's section, one of the overlay's tags. */
  tag: string;
  summary: string;
  /** Markdown: what the route does and what it refuses, beyond the summary. */
  description?: string;
  security: Security;
  /** Request headers described under `components.parameters` of the overlay (`IdempotencyKey`). */
  headers?: string[];
  /** The path parameters' schema; each key is a `{name}` of {@link path}. */
  params?: Joi.ObjectSchema<Params>;
  /** The query's schema. */
  query?: Joi.ObjectSchema<Query>;
  /** The JSON body's schema: joi when the route validates it, TypeBox when the body is only described (it is stored). */
  body?: Joi.ObjectSchema<Body> | TSchema;
  /** Whether a body is required; by default it is when {@link body} is given. */
  bodyRequired?: boolean;
  /** Replies other than the error envelope, by status (a readiness probe's 503 is one). */
  replies: Partial<Record<200 | 201 | 202 | 204 | 503, ReplyContract>>;
  /** Error replies by status; `default` is the overlay's generic error reply when omitted. */
  errors: Partial<Record<400 | 401 | 403 | 404 | 409 | 415 | 429 | 502 | 503, ErrorReplyContract>>;
}

/**
 * Declares a contract, keeping its type parameters (the validated path, query and body types), which a plain object
 * literal typed `RouteContract` would widen to `unknown`.
 */
export function defineRoute<Params = unknown, Query = unknown, Body = unknown>(
  contract: RouteContract<Params, Query, Body>,
): RouteContract<Params, Query, Body> {
  return contract;
}

/** The merchant API's routes: an API key (`Authorization: Bearer sk_...`). */
export const API_KEY: Security = [{ apiKey: [] }];

/** The panel's routes: the `lm.session` cookie. */
export const PANEL_SESSION: Security = [{ panelSession: [] }];

/** Routes anyone may call (probes, the reference, sign-up and sign-in). */
export const PUBLIC: Security = [];

// Refusals many routes answer alike, worded once; a route with a refusal of its own writes its own.

/** 400 for a request its schemas refuse. */
export const INVALID_REQUEST: ErrorReplyContract = {
  description: "`validation_failed`: the body, query or a path parameter is invalid; `param` names the field.",
  codes: ["validation_failed"],
};

/** 401 of the merchant API: no valid API key. */
export const NO_API_KEY: ErrorReplyContract = {
  description: "`authentication_required`: no `Authorization: Bearer` key, or an unknown, revoked or expired one.",
  codes: ["authentication_required"],
};

/** 403 of a test-mode helper (simulations, test clocks): a live key. */
export const TEST_KEYS_ONLY: ErrorReplyContract = {
  description: "`test_mode_only`: a live key.",
  codes: ["test_mode_only"],
};

/** 429 of the merchant API's per-key rate limit. */
export const KEY_RATE_LIMITED: ErrorReplyContract = {
  description: "`rate_limited`: over 100 requests per second for this API key.",
  codes: ["rate_limited"],
  headers: ["RetryAfter"],
};

/**
 * 503 of a route that needs an acquirer: `acquirer_not_configured` when none is able to do what the route does, in the
 * words of `nobody` (e.g. "no acquirer registers charges in this mode (…)"), and the database's `service_unavailable`.
 */
export function noAcquirer(nobody: string): ErrorReplyContract {
  return {
    description: `\`acquirer_not_configured\`: ${nobody}; nothing was created. \`service_unavailable\` (with \`Retry-After\`): PostgreSQL is down or unreachable for now.`,
    codes: ["acquirer_not_configured", "service_unavailable"],
    headers: ["RetryAfter"],
  };
}

/** 404 of the merchant API: a resource the key's store and mode does not have. */
export const NOT_IN_STORE_MODE: ErrorReplyContract = {
  description: "`resource_not_found`: unknown, malformed, or of another store or mode.",
  codes: ["resource_not_found"],
};

/** 401 of the panel: no session. */
export const NO_SESSION: ErrorReplyContract = {
  description: "`authentication_required`: no live `lm.session` cookie.",
  codes: ["authentication_required"],
};

/** 403 of the panel's cross-site check (`csrf.ts`). */
export const CROSS_SITE: ErrorReplyContract = {
  description:
    "`permission_denied`: the request carries a panel cookie and its `Origin` (or `Referer`) is not in `PANEL_ORIGINS`.",
  codes: ["permission_denied"],
};

/** 403 of a seller's route called by an operator. */
export const NO_SELLER: ErrorReplyContract = {
  description: "`permission_denied`: operators have no seller.",
  codes: ["permission_denied"],
};

/** 403 of an owners' route called by an operator. */
export const OWNERS_ONLY: ErrorReplyContract = {
  description: "`permission_denied`: operators have no seller (owners only).",
  codes: ["permission_denied"],
};

/** 415 for a body that is not JSON. */
export const NOT_JSON: ErrorReplyContract = {
  description: "`unsupported_media_type`: the request carried a body that is not JSON.",
  codes: ["unsupported_media_type"],
};
