/**
 * A scriptable local webhook receiver for end-to-end tests (STYLE example 7): a real HTTP server on 127.0.0.1 whose
 * answers a test scripts per path (status sequence, delay, never answering, redirect, large body), recording every
 * request's method, path, headers, raw body and arrival time.
 */
import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** One scripted answer. */
export interface ScriptedAnswer {
  /** Status code (default 200). */
  status?: number;
  headers?: Record<string, string>;
  /** Body sent at once (default `ok`). */
  body?: string | Buffer;
  /** Instead of `body`: this many bytes streamed in 64 KB chunks, honouring back-pressure (to see a reader stop). */
  bodyBytes?: number;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Never answer; the request stays open until the client gives up or the receiver closes. */
  hang?: boolean;
}

/** One request as the receiver saw it. */
export interface ReceivedRequest {
  method: string;
  /** Path and query. */
  path: string;
  /** Header names in lower case, as Node gives them. */
  headers: IncomingHttpHeaders;
  /** The body bytes exactly as received. */
  rawBody: Buffer;
  /** When the body had been fully received. */
  receivedAt: Date;
  /** Whether the whole answer was handed to the client (false when the client closed the connection first). */
  answerCompleted: boolean;
}

/** A running receiver. */
export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** Every request so far, in arrival order. */
  requests: ReceivedRequest[];
  /** TCP connections accepted so far. */
  connections(): number;
  /**
   * Scripts the answers for requests to `path`: the n-th request gets the n-th answer, and the last answer repeats
   * once the list is used up. Unscripted paths answer 200 `ok`.
   */
  script(path: string, answers: ScriptedAnswer[]): void;
  /** Requests whose path is `path`. */
  requestsTo(path: string): ReceivedRequest[];
  /**
   * Resolves once `count` requests reached `path` (every path when omitted).
   * @throws Error after `timeoutMs` (default 15 000) saying how many arrived
   */
  waitForRequests(count: number, options?: { path?: string; timeoutMs?: number }): Promise<ReceivedRequest[]>;
  /** Stops listening and cuts every open connection. */
  close(): Promise<void>;
}

const CHUNK = Buffer.alloc(64 * 1024, "x");

/** Told of each request any receiver records, as it is recorded. */
export type ReceivedRequestObserver = (request: ReceivedRequest) => void;

const observers = new Set<ReceivedRequestObserver>();

/**
 * Tells `observer` of every request that any receiver of this test file records from now on (the jest setup checks
 * each webhook delivery against the OpenAPI document this way, whichever test started the receiver). An observer that
 * throws fails the receiver's request handling, so an observer keeps its own failures.
 */
export function observeReceivedRequests(observer: ReceivedRequestObserver): void {
  observers.add(observer);
}

/** Starts a receiver on 127.0.0.1, port 0 (a free port). */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const scripts = new Map<string, { answers: ScriptedAnswer[]; served: number }>();
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let connections = 0;
  let waiters: Array<() => void> = [];

  const nextAnswer = (path: string): ScriptedAnswer => {
    const script = scripts.get(path);
    if (!script || script.answers.length === 0) return {};
    const answer = script.answers[Math.min(script.served, script.answers.length - 1)] as ScriptedAnswer;
    script.served += 1;
    return answer;
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = req.url ?? "/";
      const record: ReceivedRequest = {
        method: req.method ?? "",
        path,
        headers: req.headers,
        rawBody: Buffer.concat(chunks),
        receivedAt: new Date(),
        answerCompleted: false,
      };
      requests.push(record);
      for (const observer of observers) observer(record);
      res.on("finish", () => (record.answerCompleted = true));
      const answer = nextAnswer(path.split("?")[0] as string);
      for (const notify of waiters) notify();
      if (answer.hang) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        respond(res, answer);
      }, answer.delayMs ?? 0);
      timers.add(timer);
    });
  });
  server.on("connection", (socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const matching = (path?: string) => (path === undefined ? requests : requests.filter((r) => r.path === path));

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    connections: () => connections,
    script(path, answers) {
      scripts.set(path, { answers, served: 0 });
    },
    requestsTo: (path) => matching(path),
    waitForRequests(count, options = {}) {
      const timeoutMs = options.timeoutMs ?? 15_000;
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = matching(options.path);
          if (found.length < count) return false;
          clearTimeout(timer);
          waiters = waiters.filter((w) => w !== check);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== check);
          const got = matching(options.path).length;
          reject(new Error(`expected ${count} requests${options.path ? ` to ${options.path}` : ""}, got ${got}`));
        }, timeoutMs);
        if (!check()) waiters.push(check);
      });
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released), for connection-refused cases. */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Writes one scripted answer. */
function respond(res: http.ServerResponse, answer: ScriptedAnswer): void {
  res.statusCode = answer.status ?? 200;
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  if (answer.bodyBytes === undefined) {
    res.end(answer.body ?? "ok");
    return;
  }
  res.setHeader("content-length", String(answer.bodyBytes));
  let remaining = answer.bodyBytes;
  const pump = () => {
    while (remaining > 0 && !res.destroyed) {
      const piece = CHUNK.subarray(0, Math.min(CHUNK.length, remaining));
      remaining -= piece.length;
      if (!res.write(piece)) {
        res.once("drain", pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  pump();
}
