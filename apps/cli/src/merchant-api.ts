/**
 * The merchant API as `lm` sees it: HTTP requests with one API key (DESIGN §3), replies and errors in the SPEC's
 * envelope. The command line reaches the service through this public API only (no database, no Redis; DESIGN §12).
 */
import { randomUUID } from "node:crypto";
import got, { type Got } from "got";

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

/** A reply: its body and the server's clock (the `Date` header, whole seconds). */
export interface ApiReply<T> {
  body: T;
  serverTime: Date;
}

/** One page of a list (DESIGN §2 "Lists"), newest first. */
export interface ListPage<T> {
  object: "list";
  data: T[];
  has_more: boolean;
}

/**
 * Requests to the merchant API authenticated with one key. Every method resolves with the 2xx reply, rejects with
 * {@link ApiRequestError} for an error reply, and with got's `RequestError` when the service cannot be reached.
 */
export interface MerchantApi {
  /** `GET path?query`. */
  get<T>(path: string, query?: Record<string, string | number>): Promise<ApiReply<T>>;
  /** `POST path` with a JSON body and a fresh `Idempotency-Key` (required on money-moving writes; `lm` never retries one). */
  post<T>(path: string, body?: object): Promise<ApiReply<T>>;
}

/** What a failed reply's body holds (SPEC "Errors"). */
interface ErrorEnvelope {
  error?: { code?: string; message?: string; param?: string };
}

/**
 * A {@link MerchantApi} for the service at `apiUrl` (e.g. `http://localhost:3000`) with `apiKey`.
 * Requests time out after 10 s and are never retried here: the caller decides (listen retries, trigger stops).
 */
export function merchantApi(apiUrl: string, apiKey: string): MerchantApi {
  const client: Got = got.extend({
    prefixUrl: apiUrl.replace(/\/+$/, ""),
    headers: { authorization: `Bearer ${apiKey}`, "user-agent": "lm-cli/0.1" },
    responseType: "json",
    throwHttpErrors: false,
    retry: { limit: 0 },
    timeout: { request: 10_000 },
  });
  const reply = <T>(response: { statusCode: number; body: unknown; headers: Record<string, unknown> }) => {
    if (response.statusCode >= 200 && response.statusCode < 300) {
      const date = typeof response.headers.date === "string" ? new Date(response.headers.date) : new Date();
      return { body: response.body as T, serverTime: date };
    }
    const error = (response.body as ErrorEnvelope | undefined)?.error;
    throw new ApiRequestError(
      response.statusCode,
      error?.code ?? `http_${response.statusCode}`,
      error?.message ?? `The API answered ${response.statusCode}.`,
      error?.param,
    );
  };
  const relative = (path: string) => path.replace(/^\/+/, "");
  return {
    async get<T>(path: string, query: Record<string, string | number> = {}) {
      return reply<T>(await client.get(relative(path), { searchParams: query }));
    },
    async post<T>(path: string, body: object = {}) {
      return reply<T>(await client.post(relative(path), { json: body, headers: { "idempotency-key": randomUUID() } }));
    },
  };
}
