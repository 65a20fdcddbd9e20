/**
 * The tools of `lm mcp` (DESIGN §17), made from the OpenAPI document rather than listed by hand: one per merchant
 * operation (an operation whose `security` names the `apiKey` scheme), so a new route of the merchant API is a new
 * tool. A tool's name is the `operationId`, its description the summary, route and description, and its input schema
 * the operation's path, query and header parameters beside `body`, the JSON request body's schema, every `$ref`
 * inlined so that a client needs nothing but the tool. The schemas stay the document's JSON Schema (no zod copy).
 */
import { randomUUID } from "node:crypto";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";

/** A JSON object as parsed. */
type Json = Record<string, unknown>;

/** The OpenAPI 3.1 document as parsed from JSON; only its paths are read by name, the rest through `$ref`s. */
export interface OpenApiDocument {
  paths: Record<string, Json>;
  [member: string]: unknown;
}

/** The methods an operation of the document can have. */
const METHODS = ["get", "put", "post", "delete", "patch"] as const;

/** An HTTP method of an operation, lower case as the document keys it. */
export type HttpMethod = (typeof METHODS)[number];

/** The security scheme of the merchant API (DESIGN §3): its operations are the tools. */
const MERCHANT_SCHEME = "apiKey";

/** The error a live key gets from a test-mode helper (`simulate-*`, test withdrawals): what makes a tool test-only. */
const TEST_MODE_ONLY = "#/components/schemas/Error.test_mode_only";

/** The header of writes that may be retried (SPEC "Idempotency"). */
const IDEMPOTENCY_KEY = "Idempotency-Key";

/** The argument holding the JSON request body. */
const BODY = "body";

/** Where an argument of a tool goes in its request. */
interface ToolParameter {
  name: string;
  in: "path" | "query" | "header";
}

/** A tool and the operation it calls. */
export interface OperationTool {
  /** What `tools/list` shows. */
  tool: Tool;
  method: HttpMethod;
  /** The path template, e.g. `/v1/transactions/{id}`. */
  path: string;
  parameters: ToolParameter[];
  /** Not a GET: it creates or changes something, so a live key gets it only with `--allow-live-writes`. */
  writes: boolean;
  /** A test-mode helper: the operation answers a live key 403 `test_mode_only`, so only test keys get it. */
  testOnly: boolean;
}

/** The request one call of a tool makes: its method, the path with its parameters, query, headers and JSON body. */
export interface ToolRequest {
  method: HttpMethod;
  /** The path with its parameters in place, percent-encoded, and the query; e.g. `/v1/events?type=transaction.paid`. */
  target: string;
  headers: Record<string, string>;
  /** The JSON body, when the call gave one. */
  body?: unknown;
}

/** A call whose arguments do not fit its tool: the message says which and why, for the assistant to fix. */
export class ToolArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolArgumentError";
  }
}

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The member of `document` at the local JSON pointer `ref` (`#/components/parameters/IdempotencyKey`). */
function pointer(document: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith("#/")) throw new Error(`${ref}: only references inside the document are followed`);
  let found: unknown = document;
  for (const part of ref.slice(2).split("/")) {
    const key = part.replace(/~1/g, "/").replace(/~0/g, "~");
    found = isObject(found) ? found[key] : undefined;
  }
  if (found === undefined) throw new Error(`${ref} refers to nothing in the OpenAPI document`);
  return found;
}

/**
 * `value` with every `$ref` replaced by what it refers to (its sibling keywords kept beside), at any depth.
 * @throws Error for a reference outside the document, a dangling one, or one that contains itself
 */
function inlined(document: OpenApiDocument, value: unknown, within: string[] = []): unknown {
  if (Array.isArray(value)) return value.map((item) => inlined(document, item, within));
  if (!isObject(value)) return value;
  const { $ref: ref, ...siblings } = value;
  if (typeof ref === "string") {
    if (within.includes(ref)) throw new Error(`${ref} contains itself: a tool's schema cannot inline it`);
    const target = pointer(document, ref);
    return inlined(document, isObject(target) ? { ...target, ...siblings } : target, [...within, ref]);
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, inlined(document, item, within)]));
}

/** Whether `value` holds a `$ref` to `ref` at any depth. */
function refersTo(value: unknown, ref: string): boolean {
  if (Array.isArray(value)) return value.some((item) => refersTo(item, ref));
  return isObject(value) && (value.$ref === ref || Object.values(value).some((item) => refersTo(item, ref)));
}

/** `value` when it is a non-empty string. */
const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

/** The input schema's property for one parameter: its schema, described and exemplified as the parameter is. */
function parameterProperty(parameter: Json): Json {
  const idempotency = parameter.in === "header" && parameter.name === IDEMPOTENCY_KEY;
  const description = [
    text(parameter.description),
    idempotency ? "lm mcp sends a fresh one when it is omitted; give your own to retry a request safely." : undefined,
  ].filter((part) => part !== undefined);
  return {
    ...(isObject(parameter.schema) ? parameter.schema : {}),
    ...(description.length > 0 ? { description: description.join(" ") } : {}),
    ...(parameter.example === undefined ? {} : { examples: [parameter.example] }),
  };
}

/** The input schema's `body` property: the JSON body's schema, with the document's request examples. */
function bodyProperty(media: Json): Json {
  const schema = isObject(media.schema) ? media.schema : {};
  const examples =
    media.example !== undefined
      ? [media.example]
      : Object.values(isObject(media.examples) ? media.examples : {}).flatMap((example) =>
          isObject(example) && example.value !== undefined ? [example.value] : [],
        );
  return {
    ...schema,
    description: ["The JSON request body.", text(schema.description)].filter(Boolean).join(" "),
    ...(examples.length > 0 ? { examples } : {}),
  };
}

/** The tool of one merchant operation. */
function toolOf(document: OpenApiDocument, method: HttpMethod, path: string, raw: Json): OperationTool {
  const operation: Json = {
    ...raw,
    parameters: inlined(document, raw.parameters),
    requestBody: inlined(document, raw.requestBody),
  };
  const name = text(operation.operationId);
  if (name === undefined) throw new Error(`${method.toUpperCase()} ${path} has no operationId to name its tool`);
  const properties: Record<string, Json> = {};
  const required: string[] = [];
  const parameters: ToolParameter[] = [];
  for (const parameter of Array.isArray(operation.parameters) ? operation.parameters.filter(isObject) : []) {
    const where = parameter.in;
    if (where !== "path" && where !== "query" && where !== "header") continue;
    const parameterName = String(parameter.name);
    parameters.push({ name: parameterName, in: where });
    properties[parameterName] = parameterProperty(parameter);
    if (parameter.required === true && parameterName !== IDEMPOTENCY_KEY) required.push(parameterName);
  }
  const requestBody = isObject(operation.requestBody) ? operation.requestBody : {};
  const media = isObject(requestBody.content) ? requestBody.content["application/json"] : undefined;
  if (isObject(media)) {
    properties[BODY] = bodyProperty(media);
    if (requestBody.required === true) required.push(BODY);
  }
  const summary = text(operation.summary) ?? name;
  const writes = method !== "get";
  return {
    tool: {
      name,
      title: summary,
      description: [`${summary} (${method.toUpperCase()} ${path}).`, text(operation.description)]
        .filter(Boolean)
        .join("\n\n"),
      inputSchema: {
        type: "object",
        properties,
        ...(required.length > 0 ? { required } : {}),
        additionalProperties: false,
      },
      annotations: { title: summary, readOnlyHint: !writes },
    },
    method,
    path,
    parameters,
    writes,
    testOnly: refersTo(raw.responses, TEST_MODE_ONLY),
  };
}

/**
 * One tool per merchant operation of `document`, in the document's order.
 * @throws Error when an operation has no `operationId`, or a `$ref` of its parameters or body cannot be inlined
 */
export function merchantTools(document: OpenApiDocument): OperationTool[] {
  const tools: OperationTool[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const security = Array.isArray(operation.security) ? operation.security : [];
      if (security.some((requirement) => isObject(requirement) && MERCHANT_SCHEME in requirement)) {
        tools.push(toolOf(document, method, path, operation));
      }
    }
  }
  return tools;
}

/** Who is calling: the key's mode and whether `--allow-live-writes` was given. */
export interface Access {
  mode: "test" | "live";
  allowLiveWrites: boolean;
}

/**
 * Why `tool` is withheld from `access` (DESIGN §17: test helpers for test keys only; a live key reads only, unless
 * `--allow-live-writes`), in words for the assistant; `null` when it is offered.
 */
export function withheldBecause({ tool, testOnly, writes }: OperationTool, access: Access): string | null {
  if (access.mode === "test") return null;
  if (testOnly) return `${tool.name} is a test-mode helper: give lm mcp a test key (sk_test_…) to use it.`;
  if (writes && !access.allowLiveWrites) {
    return `${tool.name} changes live data, and lm mcp runs read-only with a live key: start it with --allow-live-writes to allow writes.`;
  }
  return null;
}

/**
 * The request a call of `tool` with `args` makes. An operation taking `Idempotency-Key` gets a fresh one unless the
 * call gives it.
 * @throws ToolArgumentError for an argument the tool does not have or a required one missing
 */
export function requestOf({ tool, method, path, parameters }: OperationTool, args: Json = {}): ToolRequest {
  const known = Object.keys(tool.inputSchema.properties ?? {});
  const unknown = Object.keys(args).filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new ToolArgumentError(
      `${tool.name} has no argument ${unknown.join(", ")}; it takes ${known.join(", ") || "none"}.`,
    );
  }
  const missing = (tool.inputSchema.required ?? []).filter((name) => args[name] === undefined);
  if (missing.length > 0) throw new ToolArgumentError(`${tool.name} needs ${missing.join(", ")}.`);

  let target = path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const parameter of parameters) {
    const value = args[parameter.name];
    if (parameter.name === IDEMPOTENCY_KEY && parameter.in === "header" && value === undefined) {
      headers[IDEMPOTENCY_KEY] = randomUUID();
    }
    if (value === undefined) continue;
    const written = typeof value === "string" ? value : JSON.stringify(value);
    if (parameter.in === "path") target = target.replace(`{${parameter.name}}`, encodeURIComponent(written));
    else if (parameter.in === "query") query.set(parameter.name, written);
    else headers[parameter.name] = written;
  }
  const search = query.toString();
  return {
    method,
    target: search === "" ? target : `${target}?${search}`,
    headers,
    ...(args[BODY] === undefined ? {} : { body: args[BODY] }),
  };
}
