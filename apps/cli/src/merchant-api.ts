/**
 * The merchant API as `lm` sees it: a client typed from the service's OpenAPI document (`apps/api/openapi.json`,
 * turned into `generated/merchant-api.ts` by `npm run openapi:client`), authenticated with one API key (DESIGN §3),
 * replies and errors in the SPEC's envelope. The command line reaches the service through this public API only (no
 * database, no Redis; DESIGN §12).
 */
import { randomUUID } from "node:crypto";
import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./generated/merchant-api";

/** How long a request may take, headers and body, ms. */
const TIMEOUT_MS = 10_000;

/** The wire shapes of the OpenAPI document's `components.schemas`, e.g. `Schemas["Transaction"]`. */
export type Schemas = components["schemas"];

/**
 * A client of the merchant API, its paths, parameters, bodies and replies typed by the OpenAPI document:
 * `api.GET("/v1/events", { params: { query } })`, `api.POST("/v1/transactions", { params: { header }, body })`. Its
 * methods resolve with the reply whatever its status; pass each call to {@link replyOf}.
 */
export type MerchantApi = Client<paths>;

/** What a {@link MerchantApi} method returns: its 2xx body typed `T` in `data`, or the failed reply's in `error`. */
export type ApiCall<T> = Promise<{ data?: T; error?: unknown; response: Response }>;

/** The API answered with an error envelope (SPEC "Errors"): its HTTP status, `code`, `message` and `param`. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param?: string,
  ) {
    super(message);
    this.name = "ApiRequestError";
  }
}

/**
 * No reply came: the connection failed (`code` as Node names it: `ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET`, …) or the
 * reply did not arrive within 10 s (`ETIMEDOUT`). The underlying error is the `cause`.
 */
export class ApiUnreachableError extends Error {
  constructor(
    readonly code: string,
    options: ErrorOptions,
  ) {
    super(`No reply from the API (${code}).`, options);
    this.name = "ApiUnreachableError";
  }
}

/** A 2xx reply: its body, the server's clock (the `Date` header, whole seconds) and the path requested, for logs. */
export interface ApiReply<T> {
  body: T;
  serverTime: Date;
  path: string;
}

/**
 * A {@link MerchantApi} for the service at `apiUrl` (e.g. `http://localhost:3000`) with `apiKey`.
 * Requests time out after 10 s and are never retried here: the caller decides (listen retries, trigger stops).
 */
export function merchantApi(apiUrl: string, apiKey: string): MerchantApi {
  return createClient<paths>({ baseUrl: baseUrlOf(apiUrl), headers: apiHeaders(apiKey), fetch: fetchInTime });
}

/** `apiUrl` without its trailing slashes, the base every path of the API is appended to. */
export function baseUrlOf(apiUrl: string): string {
  return apiUrl.replace(/\/+$/, "");
}

/** The headers of every request `lm` sends: the key (DESIGN §3) and `lm`'s user agent. */
export function apiHeaders(apiKey: string): Record<string, string> {
  return { authorization: `Bearer ${apiKey}`, "user-agent": "lm-cli/0.1" };
}

/**
 * `fetch` of one request that fails with a `TimeoutError` after 10 s. The signal is made per request: one made once
 * for a client would expire 10 s after it.
 */
export function fetchInTime(request: Request): Promise<Response> {
  return fetch(request, { signal: AbortSignal.timeout(TIMEOUT_MS) });
}

/**
 * The `Idempotency-Key` header of one write (SPEC "Idempotency"), for the operations that take it: a fresh key for
 * every request, since `lm` never retries a write.
 */
export function idempotencyKey(): { "Idempotency-Key": string } {
  return { "Idempotency-Key": randomUUID() };
}

/**
 * Waits for one call of a {@link MerchantApi} and returns its 2xx reply.
 * @param call - e.g. `api.GET("/v1/seller")`
 * @returns the body, typed by the operation's 2xx schema, with the server's clock and the path requested
 * @throws ApiRequestError for any other status, with the envelope's `code`, `message` and `param` (`http_<status>`
 *   when the body is no envelope); ApiUnreachableError when no reply came
 */
export async function replyOf<T>(call: ApiCall<T>): Promise<ApiReply<T>> {
  let reply: Awaited<ApiCall<T>>;
  try {
    reply = await call;
  } catch (err) {
    throw unreachable(err);
  }
  const { data, error, response } = reply;
  if (response.ok && data !== undefined) {
    const date = response.headers.get("date");
    return {
      body: data,
      serverTime: date === null ? new Date() : new Date(date),
      path: new URL(response.url).pathname,
    };
  }
  const envelope = (error as Partial<Schemas["Error"]> | null | undefined)?.error;
  throw new ApiRequestError(
    response.status,
    envelope?.code ?? `http_${response.status}`,
    envelope?.message ?? `The API answered ${response.status}.`,
    envelope?.param,
  );
}

/** `err` as an {@link ApiUnreachableError} when it is fetch's failure to get a reply; any other error unchanged. */
export function unreachable(err: unknown): unknown {
  if (err instanceof Error && err.name === "TimeoutError") return new ApiUnreachableError("ETIMEDOUT", { cause: err });
  // fetch rejects with a TypeError whose cause is the socket's or the resolver's error.
  if (err instanceof TypeError && err.cause instanceof Error) {
    const code = (err.cause as { code?: unknown }).code;
    return new ApiUnreachableError(typeof code === "string" ? code : err.cause.message, { cause: err });
  }
  return err;
}

/**
 * One line saying why a request failed, in the API's words when it answered.
 * @param err - what a call threw: an {@link ApiRequestError}, an {@link ApiUnreachableError} or any other error
 * @param apiUrl - the address `lm` was given, named when nothing answered there
 */
export function failureLine(err: unknown, apiUrl: string): string {
  if (err instanceof ApiRequestError) {
    const param = err.param === undefined ? "" : ` (${err.param})`;
    return `The API refused: ${err.status} ${err.code}${param}: ${err.message}`;
  }
  if (err instanceof ApiUnreachableError) {
    return `Cannot reach the API at ${apiUrl} (${err.code}): is the service running (npm start)? Set --api-url or LM_API_URL.`;
  }
  return err instanceof Error ? err.message : String(err);
}
