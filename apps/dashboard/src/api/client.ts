/**
 * The dashboard's one way to call the panel API (DESIGN §15): same origin, so the browser sends the HttpOnly session
 * cookie and its `Origin`, which the CSRF rule accepts (the API's own origin is a panel origin). Bodies are JSON; a
 * failed call throws {@link ApiRequestError} carrying the spec's error envelope, whose message the pages show.
 */
import type { ErrorEnvelope } from "./types";

/** A failed call: the HTTP status and the envelope's fields (SPEC "Error envelope"). */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string;
  readonly param: string | undefined;
  readonly requestId: string | undefined;

  constructor(status: number, envelope: ErrorEnvelope["error"] | undefined, fallback: string) {
    super(envelope?.message ?? fallback);
    this.name = "ApiRequestError";
    this.status = status;
    this.code = envelope?.code ?? "internal_error";
    this.param = envelope?.param;
    this.requestId = envelope?.request_id;
  }
}

/** The seller closed the step-up dialog (step-up.tsx): the action that needed it did not run, and says nothing. */
export class StepUpCancelled extends Error {
  constructor() {
    super("step-up cancelled");
    this.name = "StepUpCancelled";
  }
}

/** Whether `err` is the API's answer that this action needs a step-up (SPEC: 403 `mfa_required`). */
export function isMfaRequired(err: unknown): boolean {
  return err instanceof ApiRequestError && err.status === 403 && err.code === "mfa_required";
}

/** Whether `err` says the session is missing or over (401 `authentication_required`). */
export function isSignedOut(err: unknown): boolean {
  return err instanceof ApiRequestError && err.status === 401 && err.code === "authentication_required";
}

/** Options of one call. */
export interface CallOptions {
  /** Query parameters; undefined and empty values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  /** The JSON body. */
  body?: unknown;
  /** `Idempotency-Key` (refunds and withdrawals require one, DESIGN §12). */
  idempotencyKey?: string;
}

/** `path` with the query's defined, non-empty values. */
export function withQuery(path: string, query: CallOptions["query"] = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== "") params.set(name, String(value));
  }
  const text = params.toString();
  return text === "" ? path : `${path}?${text}`;
}

/**
 * Calls the panel API.
 * @returns the reply's JSON body, or undefined for a reply without one (204)
 * @throws ApiRequestError for any status outside 2xx, with the envelope's message (or the status text without one)
 */
export async function call<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  if (options.idempotencyKey !== undefined) headers["Idempotency-Key"] = options.idempotencyKey;
  const res = await fetch(withQuery(path, options.query), {
    method,
    headers,
    credentials: "same-origin",
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  const json: unknown = text === "" ? undefined : JSON.parse(text);
  if (!res.ok) {
    const envelope = (json as Partial<ErrorEnvelope> | undefined)?.error;
    throw new ApiRequestError(res.status, envelope, `${res.status} ${res.statusText}`);
  }
  return json as T;
}

/** `GET path`. */
export const get = <T>(path: string, query?: CallOptions["query"]): Promise<T> => call<T>("GET", path, { query });
/** `POST path` with a JSON body. */
export const post = <T>(path: string, body: unknown = {}, options: Omit<CallOptions, "body"> = {}): Promise<T> =>
  call<T>("POST", path, { ...options, body });
/** `PATCH path` with a JSON body. */
export const patch = <T>(path: string, body: unknown): Promise<T> => call<T>("PATCH", path, { body });
/** `PUT path` with a JSON body. */
export const put = <T>(path: string, body: unknown): Promise<T> => call<T>("PUT", path, { body });
/** `DELETE path`. */
export const del = (path: string): Promise<void> => call<void>("DELETE", path);

/** A fresh `Idempotency-Key` for one user action (kept while a dialog is open, so a retry repeats it). */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
