/**
 * How our client talks to a bank's API Pix: HTTPS with the client's certificate (mutual TLS) on every call, the
 * token request included, over one keep-alive agent; an OAuth2 client-credentials token (RFC 6749 §4.4) cached by
 * {@link createTokenCache}; one timeout per call and no automatic retries (our callers retry, with their own ids).
 */
import https from "node:https";
import got, { RequestError } from "got";
import { PixApiError, reasonFromReply } from "./errors";
import { type PixApiProfileRules } from "./profiles";
import { createTokenCache, type IssuedToken } from "./token";

/** The client's credentials at the bank: OAuth2 client id and secret, and its TLS certificate. */
export interface PixApiCredentials {
  clientId: string;
  clientSecret: string;
  /** PEM client certificate (with `keyPem`), or use `pfx`. */
  certPem?: string;
  /** PEM private key of `certPem`. */
  keyPem?: string;
  /** PKCS#12 bundle of certificate and key, without a passphrase (Efí issues these). */
  pfx?: Buffer;
  /** PEM CA certificates to trust for the bank's server certificate instead of the system's. */
  caPem?: string;
}

/** Methods our operations use. */
export type PixApiMethod = "GET" | "PUT" | "PATCH" | "POST";

/** An authorized, mutually authenticated channel to one bank. */
export interface PixApiTransport {
  /**
   * Sends one API request with the cached bearer token; a 401 invalidates that token and the request is sent once
   * more with a new one.
   * @param json - the request body, sent as JSON
   * @returns the reply's parsed JSON body (undefined when the 2xx reply has no body)
   * @throws PixApiError `unavailable` (network, TLS, timeout, 5xx, token endpoint down) or `rejected` (any 4xx,
   *   404 included: the operation decides what a 404 means)
   */
  request(method: PixApiMethod, url: string, json?: object): Promise<unknown>;
  /** Destroys the keep-alive agent's sockets. */
  close(): void;
}

/** A reply as received: status and the body parsed as JSON (undefined when empty or not JSON). */
interface Reply {
  status: number;
  body: unknown;
}

/**
 * Opens the channel: builds the agent that carries the client certificate and the trusted CA.
 * @param options.timeoutMs - limit of each request, the token request included, ms
 * @throws TypeError when the credentials hold neither `certPem` with `keyPem` nor `pfx`
 */
export function createPixApiTransport(options: {
  rules: PixApiProfileRules;
  tokenUrl: string;
  credentials: PixApiCredentials;
  timeoutMs: number;
}): PixApiTransport {
  const { credentials, rules, timeoutMs } = options;
  const hasPem = credentials.certPem !== undefined && credentials.keyPem !== undefined;
  if (!hasPem && credentials.pfx === undefined) {
    throw new TypeError("API Pix credentials need certPem and keyPem, or pfx");
  }
  // The agent's TLS options win over a request's (node's Agent merges its own last), so every request, the token's
  // included, presents this certificate.
  const agent = new https.Agent({
    keepAlive: true,
    ...(hasPem ? { cert: credentials.certPem, key: credentials.keyPem } : { pfx: credentials.pfx }),
    ...(credentials.caPem === undefined ? {} : { ca: credentials.caPem }),
  });

  const send = async (
    method: PixApiMethod,
    url: string,
    authorization: string,
    body: { json?: object; form?: Record<string, string> },
  ): Promise<Reply> => {
    try {
      const response = await got(url, {
        method,
        headers: { authorization, accept: "application/json" },
        ...body,
        agent: { https: agent },
        timeout: { request: timeoutMs },
        retry: { limit: 0 },
        followRedirect: false,
        throwHttpErrors: false,
        responseType: "text",
      });
      return { status: response.statusCode, body: parseJson(response.body) };
    } catch (err) {
      // The got error is not kept as a cause: its options hold the Authorization header.
      if (err instanceof RequestError) throw new PixApiError("unavailable", null, networkReason(err, timeoutMs));
      throw err;
    }
  };

  const basic = basicAuthorization(credentials.clientId, credentials.clientSecret);
  const fetchToken = async (): Promise<IssuedToken> => {
    const reply = await send("POST", options.tokenUrl, basic, rules.tokenBody);
    if (reply.status < 200 || reply.status >= 300) throw errorFromReply(reply);
    return issuedToken(reply.body);
  };
  const tokens = createTokenCache(fetchToken);

  return {
    async request(method, url, json) {
      const body = json === undefined ? {} : { json };
      const token = await tokens.get();
      let reply = await send(method, url, `Bearer ${token}`, body);
      if (reply.status === 401) {
        tokens.invalidate(token);
        reply = await send(method, url, `Bearer ${await tokens.get()}`, body);
      }
      if (reply.status >= 200 && reply.status < 300) return reply.body;
      throw errorFromReply(reply);
    },
    close() {
      agent.destroy();
    },
  };
}

/** A non-2xx reply as our error: 4xx is the bank refusing, anything else (5xx, 3xx) the bank failing. */
function errorFromReply(reply: Reply): PixApiError {
  const kind = reply.status >= 400 && reply.status < 500 ? "rejected" : "unavailable";
  return new PixApiError(kind, reply.status, reasonFromReply(reply.status, reply.body));
}

/**
 * Reads a successful token reply (RFC 6749 §5.1): a bearer `access_token` and, when given, `expires_in` seconds (a
 * number or a numeric string).
 * @throws PixApiError `unavailable` when the reply is not one (the endpoint is broken, not refusing us)
 */
function issuedToken(body: unknown): IssuedToken {
  const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const accessToken = fields.access_token;
  const tokenType = fields.token_type;
  if (typeof accessToken !== "string" || accessToken === "") {
    throw new PixApiError("unavailable", null, "token reply without access_token");
  }
  if (typeof tokenType !== "string" || tokenType.toLowerCase() !== "bearer") {
    throw new PixApiError("unavailable", null, "token reply is not a bearer token");
  }
  if (fields.expires_in == null) return { accessToken, expiresInSeconds: null };
  const expiresIn = Number(fields.expires_in);
  if (!Number.isFinite(expiresIn) || expiresIn <= 0) {
    throw new PixApiError("unavailable", null, "token reply with an invalid expires_in");
  }
  return { accessToken, expiresInSeconds: expiresIn };
}

/** What the network did, in a few words (no request details: they hold the token). */
function networkReason(err: RequestError, timeoutMs: number): string {
  if (err.name === "TimeoutError") return `no reply within ${timeoutMs} ms`;
  return `${err.code}: ${err.message}`;
}

/**
 * The client's HTTP Basic credentials (RFC 6749 §2.3.1): id and secret each form-encoded, then joined by a colon and
 * base64-encoded. Banks issue ids and secrets of letters, digits, `-`, `.` and `_`, which the encoding leaves as they
 * are.
 */
function basicAuthorization(clientId: string, clientSecret: string): string {
  const formEncode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
  return `Basic ${Buffer.from(`${formEncode(clientId)}:${formEncode(clientSecret)}`).toString("base64")}`;
}

/** The body as JSON, or undefined when it is empty or not JSON. */
function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
