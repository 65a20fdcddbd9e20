/**
 * Checks a real reply body against the schema `openapi.json` documents for it: the subset of JSON Schema 2020-12 the
 * document uses ($ref, allOf, oneOf, type, const, enum, properties, required, additionalProperties, items, lengths,
 * ranges, pattern, date-time). Objects are closed: a field the document does not name is a problem, so a serializer
 * that grows a field fails until the document says so.
 */
import request from "supertest";
import type { ApiTestContext } from "./harness";
import { deref, isObject, type Json, type JsonObject } from "./openapi-document";

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function typeOf(value: Json): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function typeMatches(expected: Json | undefined, value: Json): boolean {
  if (expected === undefined) return true;
  const actual = typeOf(value);
  const allowed = Array.isArray(expected) ? expected : [expected];
  return allowed.some((t) => t === actual || (t === "number" && actual === "integer"));
}

/** Property names a schema declares itself or through its `allOf` parts. */
function declaredProperties(document: JsonObject, schema: JsonObject): string[] {
  const own = isObject(schema.properties) ? Object.keys(schema.properties) : [];
  const parts = Array.isArray(schema.allOf) ? schema.allOf : [];
  return [
    ...own,
    ...parts.flatMap((part) => {
      const resolved = deref(document, part);
      return isObject(resolved) ? declaredProperties(document, resolved) : [];
    }),
  ];
}

function check(document: JsonObject, raw: Json | undefined, value: Json, at: string, closed: boolean): string[] {
  const schema = deref(document, raw);
  if (!isObject(schema)) return [`${at}: no schema`];
  const problems: string[] = [];
  const fail = (what: string) => problems.push(`${at}: ${what}`);

  for (const part of Array.isArray(schema.allOf) ? schema.allOf : [])
    problems.push(...check(document, part, value, at, false));
  if (Array.isArray(schema.oneOf)) {
    const outcomes = schema.oneOf.map((branch) => check(document, branch, value, at, closed));
    const matching = outcomes.filter((branchProblems) => branchProblems.length === 0).length;
    if (matching !== 1)
      fail(`matches ${matching} of the oneOf branches (${outcomes.map((o) => o.join("; ")).join(" | ")})`);
  }
  if (!typeMatches(schema.type, value))
    return [...problems, `${at}: ${typeOf(value)} is not ${JSON.stringify(schema.type)}`];
  if ("const" in schema && JSON.stringify(schema.const) !== JSON.stringify(value))
    fail(`not ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value)))
    fail(`${JSON.stringify(value)} not in enum`);

  if (typeof value === "string") {
    if (typeof schema.minLength === "number" && value.length < schema.minLength) fail("too short");
    if (typeof schema.maxLength === "number" && value.length > schema.maxLength) fail("too long");
    if (typeof schema.pattern === "string" && !new RegExp(schema.pattern, "u").test(value))
      fail(`does not match ${schema.pattern}`);
    if (schema.format === "date-time" && !DATE_TIME.test(value)) fail("not a date-time");
  }
  if (typeof value === "number") {
    if (typeof schema.minimum === "number" && value < schema.minimum) fail("below minimum");
    if (typeof schema.maximum === "number" && value > schema.maximum) fail("above maximum");
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === "number" && value.length < schema.minItems) fail("too few items");
    if (typeof schema.maxItems === "number" && value.length > schema.maxItems) fail("too many items");
    if (schema.items !== undefined)
      value.forEach((item, i) => problems.push(...check(document, schema.items, item, `${at}[${i}]`, true)));
  }
  if (isObject(value)) {
    const properties = isObject(schema.properties) ? schema.properties : {};
    for (const name of Array.isArray(schema.required) ? schema.required : []) {
      if (!(String(name) in value)) fail(`missing ${String(name)}`);
    }
    if (typeof schema.maxProperties === "number" && Object.keys(value).length > schema.maxProperties)
      fail("too many properties");
    const declared = declaredProperties(document, schema);
    // A property that an allOf part also declares is refined here (e.g. `error.code` pinned to one code); the part
    // checks its fields, so this refinement does not close it.
    const inherited = declaredProperties(document, { allOf: schema.allOf ?? [] });
    for (const [name, child] of Object.entries(value)) {
      const childClosed = !inherited.includes(name);
      if (name in properties) problems.push(...check(document, properties[name], child, `${at}.${name}`, childClosed));
      else if (isObject(schema.additionalProperties))
        problems.push(...check(document, schema.additionalProperties, child, `${at}.${name}`, true));
      else if (closed && schema.additionalProperties !== true && !declared.includes(name) && declared.length > 0)
        fail(`undocumented field ${name}`);
    }
  }
  return problems;
}

/**
 * What is wrong with `body` as the reply `status` of `operation` (`"GET /v1/events/{id}"`): the documented response
 * for that status (else `default`) must exist and its JSON schema must accept the body.
 * @returns the problems, empty when the body conforms
 */
export function replyProblems(document: JsonObject, operation: string, status: number, body: Json): string[] {
  const [method = "", path = ""] = operation.split(" ");
  const pathItem = isObject(document.paths) ? document.paths[path] : undefined;
  const op = isObject(pathItem) ? pathItem[method.toLowerCase()] : undefined;
  const responses = isObject(op) && isObject(op.responses) ? op.responses : undefined;
  if (!responses) return [`${operation} is not documented`];
  const response = deref(document, responses[String(status)] ?? responses.default);
  if (!isObject(response)) return [`${operation} documents no ${status} reply`];
  const content = isObject(response.content) ? response.content["application/json"] : undefined;
  if (!isObject(content))
    return body === "" || body === null || (isObject(body) && Object.keys(body).length === 0)
      ? []
      : ["no body documented"];
  return check(document, content.schema, body, "body", true);
}

/**
 * Loads the served `openapi.json` once (in `beforeAll`) and returns `expectDocumented(operation, res, status)`, which
 * asserts that `res` has `status` and that its body is a documented reply of `operation` (e.g. `"GET /health"`).
 */
export function useDocumentedReplies(ctx: Pick<ApiTestContext, "app">) {
  let document: JsonObject;
  beforeAll(async () => {
    document = (await request(ctx.app).get("/openapi.json").expect(200)).body as JsonObject;
  });
  return (operation: string, res: request.Response, status: number): void => {
    expect({ operation, status: res.status }).toEqual({ operation, status });
    expect(replyProblems(document, operation, res.status, res.body as Json)).toEqual([]);
  };
}
