/**
 * Test support: plain node https requests to the emulator with its registered client's certificate (or another
 * one), an OAuth2 token per caller, and new txids and ids in the standard's formats.
 */
import { randomBytes } from "node:crypto";
import https from "node:https";
import type { IncomingHttpHeaders } from "node:http";
import type { BankEmulator } from "../../src";

/** An answer, its body parsed as JSON when it is JSON. */
export interface HttpReply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  // The tests read the standard's JSON field by field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** The TLS identity a request presents, and the CA it trusts. */
export interface TlsIdentity {
  cert?: string;
  key?: string;
  pfx?: Buffer;
  ca: string;
}

/** The registered client's identity (PEM). */
export function clientIdentity(bank: BankEmulator): TlsIdentity {
  return { cert: bank.client.certPem, key: bank.client.keyPem, ca: bank.client.caPem };
}

/** `text` parsed as JSON, or undefined when it is empty or not JSON. */
function parseJson(text: string): unknown {
  try {
    return text === "" ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * One request on a fresh connection.
 * @throws the connection's error (a refused handshake, a timeout after `timeoutMs`)
 */
export function httpsRequest(
  url: string,
  options: {
    method?: string;
    identity: TlsIdentity;
    headers?: Record<string, string>;
    body?: string;
    timeoutMs?: number;
  },
): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      url,
      {
        method: options.method ?? "GET",
        agent: false,
        ...options.identity,
        headers: options.headers,
        timeout: options.timeoutMs ?? 5000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json: parseJson(text) });
        });
      },
    );
    request.on("timeout", () => request.destroy(new Error("timed out")));
    request.on("error", reject);
    request.end(options.body);
  });
}

/** `Authorization: Basic` of the registered client, or of another secret. */
export function basicAuth(bank: BankEmulator, secret = bank.client.clientSecret): string {
  return `Basic ${Buffer.from(`${bank.client.clientId}:${secret}`).toString("base64")}`;
}

/** Asks for a token with a form body (RFC 6749 §4.4.2). */
export function requestToken(bank: BankEmulator, authorization = basicAuth(bank)): Promise<HttpReply> {
  return httpsRequest(bank.tokenUrl, {
    method: "POST",
    identity: clientIdentity(bank),
    headers: { authorization, "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials",
  });
}

/** A caller of the emulator's API as its registered client, holding one token. */
export interface BankCaller {
  /** Calls `path` under `apiUrl` (`/cob/…`), or under the origin when it starts with `/v3` or `/v2/gn`. */
  call(method: string, path: string, body?: unknown, options?: { timeoutMs?: number }): Promise<HttpReply>;
  token: string;
}

/**
 * Gets a token and returns a caller using it.
 * @throws Error when the token request is refused
 */
export async function callerOf(bank: BankEmulator): Promise<BankCaller> {
  const reply = await requestToken(bank);
  if (reply.status !== 200) throw new Error(`token refused: ${reply.status}`);
  const token = reply.json.access_token as string;
  const origin = new URL(bank.apiUrl).origin;
  return {
    token,
    call: (method, path, body, options = {}) =>
      httpsRequest(
        path.startsWith("/v3/") || path.startsWith("/v2/gn/") ? `${origin}${path}` : `${bank.apiUrl}${path}`,
        {
          method,
          identity: clientIdentity(bank),
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
          timeoutMs: options.timeoutMs,
        },
      ),
  };
}

/** A new txid within the standard's `[a-zA-Z0-9]{26,35}`: 32 hex characters. */
export function newTxid(): string {
  return randomBytes(16).toString("hex");
}

/** A new devolução or payout id (`[a-zA-Z0-9]{1,35}`). */
export function newId(prefix: string): string {
  return `${prefix}${randomBytes(6).toString("hex")}`;
}

/** A charge body (`CobSolicitada`) for `valor` on the emulator's key. */
export function cobBody(
  bank: BankEmulator,
  valor: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { calendario: { expiracao: 3600 }, valor: { original: valor }, chave: bank.pixKey, ...extra };
}
