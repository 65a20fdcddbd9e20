/**
 * Watching the replies and webhooks of a test file, so that each one is checked against `apps/api/openapi.json`
 * (reply-check.ts) without the test asking: the applications `createApp` builds, the `fetch` calls a test makes to an
 * API it started as a process, and the requests of the webhook receivers. Problems accumulate here until the setup file
 * (reply-check.setup.ts) takes them after each test and fails it.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ReceivedRequest } from "@lm/testing";
import type { Express } from "express";
import { apiDocumentChecker, webhookProblems, type DocumentChecker } from "./reply-check";

/** One reply as it went on the wire. */
export interface ObservedReply {
  method: string;
  /** Path and query, as requested. */
  url: string;
  status: number;
  contentType: string | undefined;
  /** The body bytes as UTF-8 text. */
  body: string;
}

const problems: string[] = [];
const pending = new Set<Promise<void>>();
/** Local ports of the servers that serve a watched application: replies there are checked where they are sent. */
const watchedPorts = new Set<number>();

const JSON_MEDIA = /^application\/([\w.-]+\+)?json\b/i;

/** Records `found` (the problems of one reply) and anything thrown while finding them. */
function record(find: () => string[]): void {
  try {
    problems.push(...find());
  } catch (err) {
    problems.push(`the reply check itself failed: ${(err as Error).stack ?? String(err)}`);
  }
}

/**
 * The problems of one reply against the document. Not checked, because there is nothing of the document to check
 * them against: replies without a body by HTTP (HEAD, 204, 304), the document itself (`GET /openapi.json` 200), a
 * documented non-JSON reply (the `/docs` page and its scripts, `/metrics` text), and a non-JSON reply to a request no
 * operation matches (Express's automatic `OPTIONS` answer). A JSON reply to such a request must be an error in the
 * envelope; a non-JSON reply where the document promises JSON is a problem.
 * @param checker - the document's checker (`apps/api/openapi.json` unless a test gives another)
 */
export function observedReplyProblems(reply: ObservedReply, checker: DocumentChecker = apiDocumentChecker()): string[] {
  if (reply.method === "HEAD" || reply.status === 204 || reply.status === 304) return [];
  const operation = checker.operationOf(reply.method, reply.url);
  if (operation === "GET /openapi.json" && reply.status === 200) return [];
  const sent = reply.contentType ?? "no content type";
  if (JSON_MEDIA.test(sent)) {
    let body: unknown;
    try {
      body = JSON.parse(reply.body) as unknown;
    } catch {
      return [`${operation ?? reply.method} ${reply.url} ${reply.status}: (body): not JSON, though sent as ${sent}`];
    }
    return operation === undefined
      ? checker.undocumentedRouteProblems(`${reply.method} ${reply.url.split("?")[0]}`, reply.status, body)
      : checker.replyProblems(operation, reply.status, body);
  }
  if (operation === undefined) return [];
  const media = checker.replyMediaTypes(operation, reply.status);
  if (media === undefined) return [`${operation} ${reply.status}: the document has no such reply (sent ${sent})`];
  const documented = media.length === 0 ? reply.body === "" : media.some((type) => sent.startsWith(type));
  const says = media.join(", ") || "no body";
  return documented
    ? []
    : [
        `${operation} ${reply.status}: (body): sent ${sent} (${reply.body.length} characters), the document says ${says}`,
      ];
}

type Chunk = string | Uint8Array | ((...args: unknown[]) => void) | null | undefined;
type Write = (chunk: Chunk, ...rest: unknown[]) => unknown;

/** Starts keeping the bytes written to `res` and checks the reply once it is finished. */
function watchReply(req: IncomingMessage, res: ServerResponse): void {
  const method = req.method ?? "GET";
  const url = req.url ?? "/";
  if (req.socket.localPort !== undefined) watchedPorts.add(req.socket.localPort);
  const chunks: Buffer[] = [];
  const keep = (chunk: Chunk, encoding: unknown): void => {
    if (typeof chunk === "string")
      chunks.push(Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8"));
    else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
  };
  // Below `res.send` and `res.json`: some replies are written with `res.end` directly (http/json-reply.ts).
  const write = res.write.bind(res) as Write;
  const end = res.end.bind(res) as Write;
  (res as unknown as { write: Write }).write = (chunk, ...rest) => {
    keep(chunk, rest[0]);
    return write(chunk, ...rest);
  };
  (res as unknown as { end: Write }).end = (chunk, ...rest) => {
    keep(chunk, rest[0]);
    return end(chunk, ...rest);
  };
  res.once("finish", () =>
    record(() =>
      observedReplyProblems({
        method,
        url,
        status: res.statusCode,
        contentType: res.getHeader("content-type")?.toString(),
        body: Buffer.concat(chunks).toString("utf8"),
      }),
    ),
  );
}

/**
 * Makes `app` check every reply it sends, in front of all of its middleware; the setup file applies it to every
 * application `createApp` builds.
 * @returns `app` itself
 */
export function watchReplies(app: Express): Express {
  const watched = app as unknown as { handle: (req: IncomingMessage, res: ServerResponse, next?: unknown) => void };
  const handle = watched.handle.bind(app);
  watched.handle = (req, res, next) => {
    watchReply(req, res);
    handle(req, res, next);
  };
  return app;
}

/**
 * Wraps the global `fetch` so that a JSON reply from a loopback server that no watched application serves (the API
 * run as its own process) is checked when it matches a documented operation. Replies to other paths are left alone:
 * from here the API cannot be told from the other local servers a test talks to (receivers, metrics listeners).
 */
export function watchFetch(): void {
  const original = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const response = await original(input, init);
    const url = new URL(response.url || (input instanceof Request ? input.url : String(input)));
    const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    const loopback = ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
    const contentType = response.headers.get("content-type") ?? undefined;
    if (
      loopback &&
      !watchedPorts.has(Number(url.port)) &&
      JSON_MEDIA.test(contentType ?? "") &&
      apiDocumentChecker().operationOf(method, url.pathname) !== undefined
    ) {
      const reply = { method, url: url.pathname + url.search, status: response.status, contentType };
      const check = response
        .clone()
        .text()
        .then(
          (body) => record(() => observedReplyProblems({ ...reply, body })),
          // A body cut off on its way is for the test to notice; the document has nothing to say about it.
          () => undefined,
        )
        .finally(() => pending.delete(check));
      pending.add(check);
    }
    return response;
  };
}

/**
 * Checks a request a webhook receiver got: a delivery (a POST with `X-Event-Type`, a header every delivery carries)
 * must be a documented webhook. Each problem says where it was received and the type its header gave.
 */
export function checkReceivedRequest(request: ReceivedRequest): void {
  const type = request.headers["x-event-type"];
  if (request.method !== "POST" || type === undefined) return;
  const where = `[received at ${request.path}, X-Event-Type ${String(type)}]`;
  record(() => {
    let body: unknown;
    try {
      body = JSON.parse(request.rawBody.toString("utf8")) as unknown;
    } catch {
      return [`webhook: (body): not JSON ${where}`];
    }
    return webhookProblems(body).map((problem) => `${problem} ${where}`);
  });
}

/**
 * The problems found since the last call, once the checks still reading a `fetch` body are done; identical problems
 * are given once with their count.
 */
export async function takeReplyProblems(): Promise<string[]> {
  await Promise.all([...pending]);
  const counts = new Map<string, number>();
  for (const problem of problems.splice(0)) counts.set(problem, (counts.get(problem) ?? 0) + 1);
  return [...counts].map(([problem, count]) => (count > 1 ? `${problem} (${count} times)` : problem));
}
