/**
 * `lm mcp` (DESIGN §17): a Model Context Protocol server over stdio, on the official SDK, that lets an assistant call
 * the merchant API with the key it is given. Its tools are the OpenAPI document's merchant operations
 * (mcp-tools.ts); a call makes the operation's request and returns the API's reply as it came: its JSON as text, and
 * for a refusal `isError` with the spec's error envelope, whose `message` and `param` say what to fix.
 *
 * The SDK's low-level `Server` is used rather than `McpServer`, whose tools take zod schemas: here the input schemas
 * are the document's JSON Schema as they are, so they stay generated.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { apiHeaders, baseUrlOf, failureLine, fetchInTime, unreachable } from "./merchant-api";
import {
  type Access,
  merchantTools,
  type OpenApiDocument,
  type OperationTool,
  requestOf,
  ToolArgumentError,
  withheldBecause,
} from "./mcp-tools";

const { version } = require("../package.json") as { version: string };

/** The document of this checkout, which `npm run openapi` generates from the API's route contracts. */
const BUNDLED_DOCUMENT = path.resolve(__dirname, "../../api/openapi.json");

/** What `lm mcp` runs with. */
export interface McpOptions {
  apiUrl: string;
  apiKey: string;
  access: Access;
  /** Where `lm mcp` says which document its tools come from, and why a request failed: stderr (stdout is MCP's). */
  log: (line: string) => void;
  /** Resolves when the user asks to stop (Ctrl-C, SIGTERM). */
  interrupted: Promise<void>;
}

/**
 * The OpenAPI document the tools are made from. The API's own (`GET /openapi.json`), so that the tools are the
 * operations of the deployment the key belongs to, whatever its version; when that API does not answer or serves no
 * document (an editor starts `lm mcp` before the service), the document of this checkout, which an API built from the
 * same sources serves: the tools are listed all the same, and a call says the API cannot be reached.
 */
async function loadDocument(apiUrl: string, log: (line: string) => void): Promise<OpenApiDocument> {
  const address = `${baseUrlOf(apiUrl)}/openapi.json`;
  let why: string;
  try {
    const response = await fetchInTime(new Request(address));
    const document: unknown = response.ok ? await response.json() : undefined;
    if (isDocument(document)) return document;
    why = `it answered ${response.status} without an OpenAPI document`;
  } catch (err) {
    why = failureLine(unreachable(err), apiUrl);
  }
  log(`lm mcp: tools from ${path.relative(process.cwd(), BUNDLED_DOCUMENT)}, not from ${address}: ${why}`);
  return JSON.parse(await readFile(BUNDLED_DOCUMENT, "utf8")) as OpenApiDocument;
}

function isDocument(value: unknown): value is OpenApiDocument {
  const paths = (value as { paths?: unknown } | null | undefined)?.paths;
  return typeof paths === "object" && paths !== null;
}

/** What an assistant is told about the server when it connects. */
function instructions(access: Access): string {
  const writes =
    access.mode === "test"
      ? "Test mode: nothing moves real money; the simulate tools pay, expire or dispute a charge as a payer's bank would."
      : access.allowLiveWrites
        ? "Live mode: writes move real money; test helpers are absent."
        : "Live mode, read-only: tools that write are absent (lm mcp --allow-live-writes allows them).";
  return [
    "The LM Pix merchant API (Brazilian Pix charges, refunds, withdrawals, webhook events) of the key's store.",
    writes,
    "Amounts are integer centavos (R$ 100,50 is 10050). Replies are the API's JSON; a refusal is its error envelope",
    "{error: {type, code, message, param?, request_id}}: `message` says what to fix and `param` names the field.",
  ].join(" ");
}

/** A tool's result carrying `text` (a reply's body, or why no request was made). */
const result = (text: string, isError: boolean): CallToolResult => ({ content: [{ type: "text", text }], isError });

/** Makes the request of one call and returns the API's reply as it came. */
async function call(tool: OperationTool, args: Record<string, unknown> | undefined, options: McpOptions) {
  let request;
  try {
    request = requestOf(tool, args);
  } catch (err) {
    if (err instanceof ToolArgumentError) return result(err.message, true);
    throw err;
  }
  const { method, target, headers, body } = request;
  try {
    const response = await fetchInTime(
      new Request(`${baseUrlOf(options.apiUrl)}${target}`, {
        method: method.toUpperCase(),
        headers: {
          ...apiHeaders(options.apiKey),
          ...headers,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    const text = await response.text();
    return result(text === "" ? `${response.status} ${response.statusText}` : text, !response.ok);
  } catch (err) {
    const line = failureLine(unreachable(err), options.apiUrl);
    options.log(`lm mcp: ${tool.tool.name}: ${line}`);
    return result(line, true);
  }
}

/**
 * Serves MCP on this process's stdin and stdout until the client closes stdin or the user interrupts.
 * @throws Error when the OpenAPI document cannot be read or made into tools (a bug of the document)
 */
export async function runMcp(options: McpOptions): Promise<void> {
  const { access, log } = options;
  const tools = merchantTools(await loadDocument(options.apiUrl, log));
  const server = new Server(
    { name: "lm", title: "LM Pix merchant API", version },
    { capabilities: { tools: {} }, instructions: instructions(access) },
  );
  const offered = tools.filter((tool) => withheldBecause(tool, access) === null).map(({ tool }) => tool);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: offered }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
    const tool = tools.find((candidate) => candidate.tool.name === params.name);
    if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${params.name}.`);
    const withheld = withheldBecause(tool, access);
    return withheld === null ? call(tool, params.arguments, options) : result(withheld, true);
  });

  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
    // MCP's stdio shutdown: the client closes the server's stdin, then waits for it to exit.
    process.stdin.once("end", resolve);
  });
  await server.connect(new StdioServerTransport());
  log(`lm mcp: serving ${offered.length} merchant API tools for a ${access.mode} key (${options.apiUrl}).`);
  await Promise.race([closed, options.interrupted]);
  await server.close();
}
