/**
 * The HTTP side of one delivery attempt (SPEC "Delivery request", "Destination check", "Limits"; DESIGN §4
 * "Attempt"): a POST with a 10 s total timeout, no redirects, the first 1 KB of the reply kept and the rest never read.
 *
 * The destination check runs at send time with the resolved address pinned: the URL rules (and any IP literal) are
 * checked before a socket exists, and the host name is resolved inside the socket's own DNS lookup, where EVERY
 * address is judged and the connection refused if any is blocked. The socket then connects only to an address that
 * was judged in that same lookup, so a name that answers differently a moment later (DNS rebinding) cannot slip a
 * private address in. A keep-alive socket that is reused goes to the address that was judged when it was opened.
 */
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { performance } from "node:perf_hooks";
import got, { type RequestError } from "got";
import { checkDestinationUrl, isBlockedAddress, type HostResolver, type PostOutcome } from "@lm/domain";

/** Total time an attempt may take, connection included (SPEC "Limits": 10 s, then the connection is cut). */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Bytes of the response body kept (SPEC "Limits": 1 KB). */
export const RESPONSE_EXCERPT_BYTES = 1024;
/** Code of the error our DNS lookup raises for a blocked address, told apart from a DNS failure. */
const BLOCKED_DESTINATION_CODE = "ERR_BLOCKED_DESTINATION";

/** How the destination is judged at send time. */
export interface SendPolicy {
  /** `config.webhookAllowLocalDestinations`. */
  allowLocal: boolean;
  /** Resolver used inside the socket's lookup (the system resolver in production). */
  resolve: HostResolver;
}

/** Posts webhook bodies over keep-alive connections. */
export interface WebhookHttpClient {
  /**
   * Sends one attempt. Never throws for anything the receiver or the network does: every failure is an outcome.
   * @param body - the exact bytes that were signed
   */
  post(url: string, body: string, headers: Record<string, string>, policy: SendPolicy): Promise<PostOutcome>;
  /** Closes idle keep-alive sockets. */
  close(): void;
}

/**
 * Creates a client with its own keep-alive agents, so thousands of deliveries a second reuse connections to the same
 * receivers instead of paying a TCP and TLS handshake each.
 * @param options.timeoutMs - total time per attempt (default {@link DELIVERY_TIMEOUT_MS})
 */
export function createWebhookHttpClient(options: { timeoutMs?: number } = {}): WebhookHttpClient {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const agentOptions = { keepAlive: true, maxFreeSockets: 256, scheduling: "lifo" as const, timeout: 60_000 };
  const agent = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };

  return {
    post(url, body, headers, policy) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const rules = checkDestinationUrl(url, policy.allowLocal);
      if (!rules.ok) {
        return Promise.resolve({
          error: "blocked_destination",
          responseStatus: null,
          responseBodyExcerpt: null,
          durationMs: 0,
        });
      }
      return new Promise<PostOutcome>((resolve) => {
        let status: number | null = null;
        const chunks: Buffer[] = [];
        let received = 0;
        let settled = false;
        const finish = (error: PostOutcome["error"]) => {
          if (settled) return;
          settled = true;
          const excerpt = status === null ? null : excerptText(Buffer.concat(chunks));
          resolve({ error, responseStatus: status, responseBodyExcerpt: excerpt, durationMs: elapsed() });
        };
        const stream = got.stream.post(rules.url, {
          body,
          headers,
          agent,
          dnsLookup: checkedLookup(policy),
          timeout: { request: timeoutMs },
          followRedirect: false,
          retry: { limit: 0 },
          throwHttpErrors: false,
          decompress: false,
        });
        stream.on("response", (response: http.IncomingMessage) => {
          status = response.statusCode ?? 0;
        });
        stream.on("data", (chunk: Buffer) => {
          const room = RESPONSE_EXCERPT_BYTES - received;
          if (room > 0) chunks.push(chunk.subarray(0, room));
          received += chunk.length;
          if (received >= RESPONSE_EXCERPT_BYTES) {
            // The rest of the body is never read: destroying the stream closes the socket.
            finish(statusError(status));
            stream.destroy();
          }
        });
        stream.on("end", () => finish(statusError(status)));
        stream.on("error", (err: RequestError) => {
          // A reply whose status arrived but whose body was cut (by the timeout) is still that reply.
          finish(status !== null ? statusError(status) : transportError(err));
        });
      });
    },
    close() {
      agent.http.destroy();
      agent.https.destroy();
    },
  };
}

/** Maps a reply status to the attempt's error (SPEC "Delivery error values"). */
function statusError(status: number | null): PostOutcome["error"] {
  if (status === null) return "connection_error";
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return "redirect_not_followed";
  return `http_${status}`;
}

/** Maps a failure before any reply: blocked by our lookup, timed out, or anything else the network did. */
function transportError(err: RequestError): PostOutcome["error"] {
  if (err.code === BLOCKED_DESTINATION_CODE) return "blocked_destination";
  if (err.code === "ETIMEDOUT" || err.name === "TimeoutError") return "timeout";
  return "connection_error";
}

/** Text of the kept bytes; NUL cannot be stored in a PostgreSQL text column. */
function excerptText(bytes: Buffer): string {
  return bytes.toString("utf8").replaceAll("\u0000", "\uFFFD");
}

/**
 * A socket lookup that resolves with `policy.resolve`, judges every address and refuses the connection when any is
 * blocked; otherwise it answers with the judged addresses only. It serves both forms Node calls it with
 * (`all: true` for happy-eyeballs connection attempts, a single address otherwise).
 */
function checkedLookup(policy: SendPolicy): LookupFunction {
  return (hostname, options, callback) => {
    policy.resolve(hostname).then(
      (addresses) => {
        if (addresses.length === 0) {
          callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), "", 4);
          return;
        }
        if (addresses.some((address) => isBlockedAddress(address, policy.allowLocal))) {
          const blocked = new Error("destination resolves to a blocked address");
          callback(Object.assign(blocked, { code: BLOCKED_DESTINATION_CODE }), "", 4);
          return;
        }
        const family =
          options.family === 6 || options.family === "IPv6"
            ? 6
            : options.family === 4 || options.family === "IPv4"
              ? 4
              : 0;
        const entries = addresses
          .map((address) => ({ address, family: address.includes(":") ? 6 : 4 }))
          .filter((entry) => family === 0 || entry.family === family);
        if (entries.length === 0) {
          callback(Object.assign(new Error(`no IPv${family} address for ${hostname}`), { code: "ENOTFOUND" }), "", 4);
          return;
        }
        if (options.all) {
          (callback as unknown as (err: null, all: typeof entries) => void)(null, entries);
        } else {
          const first = entries[0] as { address: string; family: number };
          callback(null, first.address, first.family);
        }
      },
      (err: unknown) => callback(err as NodeJS.ErrnoException, "", 4),
    );
  };
}
