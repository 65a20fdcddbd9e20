/**
 * The emulated bank's HTTPS server with mutual TLS: a client without a certificate from the emulator's CA is refused
 * during the handshake. Each request is parsed, checked against its operation's schemas and recorded; then the
 * scripted faults apply, then the OAuth2 token endpoint or the bearer check, a schema violation (400 with
 * `violacoes`), and finally the route. Every reply waits the configured latency.
 */
import https from "node:https";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Certificates } from "./certificates";
import type { Faults } from "./faults";
import { PROBLEM_TYPES, ProblemError, notFound, scriptedFailure, type Problem, type Violation } from "./problems";
import { describeViolation, validateRequest, type OperationName, type RequestParts } from "./request-validator";
import type { RouteReply, Router } from "./routes";
import type { TokenStore } from "./tokens";

/** One request as the emulator received it. */
export interface RecordedRequest {
  method: string;
  /** Path with its query string. */
  path: string;
  /** The parsed body (JSON, or the token request's form), its text when unparsable, undefined when empty. */
  body: unknown;
  /** One line per schema violation (`cob.valor.original: must match pattern …`); empty when it conformed. */
  schemaErrors: string[];
}

/** Largest body read, bytes; a larger one is answered 413. */
const MAX_BODY_BYTES = 1024 * 1024;
const TOKEN_PATH = "/oauth/token";

interface Reply {
  status: number;
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

function problemReply(problem: Problem, headers?: Record<string, string>): Reply {
  return { status: problem.status, body: problem, contentType: "application/problem+json", headers };
}

/** The problem type of a schema violation, by resource, as the standard names them. */
function violationType(operation: OperationName): string {
  if (operation.startsWith("cob.")) return PROBLEM_TYPES.cobInvalid;
  if (operation.startsWith("devolucao.")) return PROBLEM_TYPES.refundInvalid;
  if (operation.startsWith("webhook")) return PROBLEM_TYPES.webhookInvalid;
  if (operation.startsWith("payout.")) return PROBLEM_TYPES.payoutInvalid;
  if (operation.startsWith("rec.") || operation.startsWith("locrec.")) return PROBLEM_TYPES.recInvalid;
  if (operation.startsWith("solicrec.")) return PROBLEM_TYPES.solicRecInvalid;
  if (operation.startsWith("cobr.")) return PROBLEM_TYPES.cobrInvalid;
  return PROBLEM_TYPES.requestInvalid;
}

/** The body's text, or null when it exceeds {@link MAX_BODY_BYTES}. */
async function readBody(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** JSON, or for the token request a form (RFC 6749 §4.4.2) when the content type says so. */
function parseBody(
  text: string,
  contentType: string | undefined,
  isToken: boolean,
): Pick<RequestParts, "body" | "unparsableBody"> {
  if (text === "") return { body: undefined };
  if (isToken && (contentType ?? "").includes("application/x-www-form-urlencoded")) {
    return { body: Object.fromEntries(new URLSearchParams(text)) };
  }
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    return { body: text, unparsableBody: true };
  }
}

/** A token request's body as recorded: a client secret sent in it (not our protocol, but possible) is masked. */
function recordedBody(body: unknown, isToken: boolean): unknown {
  if (!isToken || body === null || typeof body !== "object" || !("client_secret" in body)) return body;
  return { ...body, client_secret: "[redacted]" };
}

/** The OAuth2 token endpoint (RFC 6749 §4.4, errors as §5.2). */
function tokenReply(tokens: TokenStore, authorization: string | undefined, violations: Violation[]): Reply {
  const json = { contentType: "application/json", headers: { "cache-control": "no-store" } };
  if (!tokens.authenticatesClient(authorization)) {
    return {
      status: 401,
      body: { error: "invalid_client" },
      ...json,
      headers: { ...json.headers, "www-authenticate": 'Basic realm="bank-emulator"' },
    };
  }
  if (violations.length > 0) {
    const wrongGrant = violations.some((violation) => violation.propriedade === "token.grant_type");
    return { status: 400, body: { error: wrongGrant ? "unsupported_grant_type" : "invalid_request" }, ...json };
  }
  return { status: 200, body: tokens.issue(new Date()), ...json };
}

/** The dependencies of the API server. */
export interface ApiServerOptions {
  port: number;
  certificates: Certificates;
  router: Router;
  tokens: TokenStore;
  faults: Faults;
  /** Every request is appended here. */
  journal: RecordedRequest[];
}

/** A listening API server. */
export interface ApiServer {
  port: number;
  /** Stops listening and cuts every connection, the hung ones included. */
  close(): Promise<void>;
}

/**
 * Starts the mutual-TLS server on 127.0.0.1.
 * @throws Error when the port cannot be bound
 */
export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const { certificates, router, tokens, faults, journal } = options;

  async function decide(request: IncomingMessage): Promise<Reply | "hang"> {
    const method = request.method ?? "GET";
    const url = new URL(request.url ?? "/", "https://127.0.0.1");
    const isToken = url.pathname === TOKEN_PATH;
    const text = await readBody(request);
    if (text === null) {
      return problemReply({ type: "about:blank", title: "Payload too large", status: 413, detail: "body over 1 MiB" });
    }
    const match = isToken ? null : router(method, url.pathname);
    const operation: OperationName | null = isToken
      ? "token"
      : match !== null && match !== "method"
        ? match.operation
        : null;
    const parts: RequestParts = {
      params: match !== null && match !== "method" ? match.params : {},
      query: Object.fromEntries(url.searchParams),
      ...parseBody(text, request.headers["content-type"], isToken),
    };
    const violations = operation === null ? [] : validateRequest(operation, parts);
    journal.push({
      method,
      path: request.url ?? "/",
      body: recordedBody(parts.body, isToken),
      schemaErrors: violations.map(describeViolation),
    });

    const fault = faults.take(isToken, url.pathname);
    if (fault?.kind === "hang") return "hang";
    if (fault?.kind === "fail") return problemReply(scriptedFailure(fault.status));
    if (isToken) {
      if (method !== "POST") return problemReply(methodNotAllowed(method));
      return tokenReply(tokens, request.headers.authorization, violations);
    }
    if (match === null) return problemReply(notFound(`no route ${url.pathname}`).problem);
    if (match === "method") return problemReply(methodNotAllowed(method));
    if (!tokens.authorizes(request.headers.authorization, new Date())) {
      return problemReply(
        {
          type: PROBLEM_TYPES.unauthorized,
          title: "Unauthorized",
          status: 401,
          detail: "missing, unknown or expired bearer token",
        },
        { "www-authenticate": 'Bearer error="invalid_token"' },
      );
    }
    if (violations.length > 0) {
      return problemReply({
        type: violationType(match.operation),
        title: "Request does not follow the schema",
        status: 400,
        detail: "the request breaks the standard's schema: see violacoes",
        violacoes: violations,
      });
    }
    try {
      const reply: RouteReply = match.handle(parts);
      return reply.body === undefined ? { status: reply.status } : { ...reply, contentType: "application/json" };
    } catch (err) {
      if (err instanceof ProblemError) return problemReply(err.problem);
      throw err;
    }
  }

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let reply: Reply | "hang";
    try {
      reply = await decide(request);
    } catch (err) {
      reply = problemReply({
        type: "about:blank",
        title: "Internal error",
        status: 500,
        detail: (err as Error).message,
      });
    }
    if (reply === "hang") return;
    if (faults.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, faults.latencyMs));
    if (response.destroyed) return;
    const payload = reply.body === undefined ? "" : JSON.stringify(reply.body);
    response.writeHead(reply.status, {
      ...(reply.body === undefined ? {} : { "content-type": reply.contentType ?? "application/json" }),
      "content-length": Buffer.byteLength(payload),
      ...reply.headers,
    });
    response.end(payload);
  }

  const server = https.createServer(
    {
      key: certificates.serverKeyPem,
      cert: certificates.serverCertPem,
      ca: certificates.caPem,
      requestCert: true,
      rejectUnauthorized: true,
    },
    serve,
  );
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function methodNotAllowed(method: string): Problem {
  return {
    type: PROBLEM_TYPES.methodNotAllowed,
    title: "Method not allowed",
    status: 405,
    detail: `${method} is not served here`,
  };
}
