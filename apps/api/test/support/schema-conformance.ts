/**
 * The reply check (reply-check.ts, ajv on the document with its objects closed) in the form a test calls by name:
 * `useDocumentedReplies` asserts that a reply is the one an operation documents for a status; `replyProblems` checks a
 * body against any document given (openapi-docs.test.ts checks the document's own examples with it). Every reply is
 * also checked without being named, by reply-check.setup.ts.
 */
import { readFileSync } from "node:fs";
import request from "supertest";
import type { ApiTestContext } from "./harness";
import { deref, isObject, type Json, type JsonObject } from "./openapi-document";
import { createDocumentChecker, replyProblems as documentedReplyProblems, type DocumentChecker } from "./reply-check";

const checkers = new WeakMap<JsonObject, DocumentChecker>();

/**
 * The checker of `document`'s components. Documents that share their `components` object (copies of one document with
 * other `paths`, as openapi-docs.test.ts makes to probe a schema) share one checker and its compiled schemas.
 */
function componentsChecker(document: JsonObject): DocumentChecker {
  const key = isObject(document.components) ? document.components : document;
  let checker = checkers.get(key);
  if (!checker) {
    checker = createDocumentChecker({ openapi: document.openapi ?? "3.1.0", components: key });
    checkers.set(key, checker);
  }
  return checker;
}

/**
 * What is wrong with `body` as the reply `status` of `operation` (`"GET /v1/events/{id}"`) of `document`: the
 * documented response for that status (else `default`) must exist and its JSON schema must accept the body, objects
 * closed (a field the document does not name is a problem).
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
  return componentsChecker(document).schemaProblems(`${operation} ${status}`, content.schema ?? {}, body);
}

/**
 * Returns `expectDocumented(operation, res, status)`, which asserts that `res` has `status` and that its body is a
 * documented reply of `operation` (e.g. `"GET /health"`) in `apps/api/openapi.json`; `beforeAll` first asserts that the
 * application serves that very document (its `servers` aside, which name the deployment).
 */
export function useDocumentedReplies(ctx: Pick<ApiTestContext, "app">) {
  beforeAll(async () => {
    const served = (await request(ctx.app).get("/openapi.json").expect(200)).body as JsonObject;
    const file = JSON.parse(readFileSync(require.resolve("@lm/api/openapi.json"), "utf8")) as JsonObject;
    expect({ ...served, servers: null }).toEqual({ ...file, servers: null });
  });
  return (operation: string, res: request.Response, status: number): void => {
    expect({ operation, status: res.status }).toEqual({ operation, status });
    expect(documentedReplyProblems(operation, res.status, res.body)).toEqual([]);
  };
}
