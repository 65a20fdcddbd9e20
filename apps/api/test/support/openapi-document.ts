/**
 * Reading an OpenAPI 3.1 document in tests: its operations, its `$ref`s and their targets, and the parameters and
 * error codes of each operation. Only what the sync and structure tests of `openapi.json` need; no validator library.
 */

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object. */
export type JsonObject = { [key: string]: Json };

/** The operation methods of an OpenAPI path item. */
export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** One documented operation with where it sits. */
export interface DocumentedOperation {
  method: (typeof HTTP_METHODS)[number];
  path: string;
  pathItem: JsonObject;
  operation: JsonObject;
  /** `"<METHOD> <path>"`, the form `mountedRoutes` lists. */
  route: string;
}

/** Narrows `value` to a JSON object. */
export function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Every operation of `document`, in document order. */
export function operationsOf(document: JsonObject): DocumentedOperation[] {
  const paths = isObject(document.paths) ? document.paths : {};
  return Object.entries(paths).flatMap(([path, pathItem]) =>
    HTTP_METHODS.flatMap((method) => {
      const operation = isObject(pathItem) ? pathItem[method] : undefined;
      return isObject(pathItem) && isObject(operation)
        ? [{ method, path, pathItem, operation, route: `${method.toUpperCase()} ${path}` }]
        : [];
    }),
  );
}

/**
 * The target of a local reference such as `#/components/schemas/Transaction` (RFC 6901 pointer after the `#`).
 * @returns undefined when the reference is not local or leads nowhere
 */
export function resolvePointer(document: JsonObject, ref: string): Json | undefined {
  if (!ref.startsWith("#/")) return undefined;
  let current: Json | undefined = document;
  for (const token of ref.slice(2).split("/")) {
    const key = token.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(current)) current = current[Number(key)];
    else current = isObject(current) ? current[key] : undefined;
  }
  return current;
}

/** `value` itself, or the target of its `$ref` (one level; documents here never chain references). */
export function deref(document: JsonObject, value: Json | undefined): Json | undefined {
  return isObject(value) && typeof value.$ref === "string" ? resolvePointer(document, value.$ref) : value;
}

/** Every `$ref` under `value`, with the JSON pointer of where it was found. */
export function refsUnder(value: Json | undefined, at = "#"): { ref: string; at: string }[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => refsUnder(item, `${at}/${i}`));
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([key, child]) =>
    key === "$ref" && typeof child === "string"
      ? [{ ref: child, at }]
      : refsUnder(child, `${at}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`),
  );
}

/** Every JSON Schema object under `value` (anything with `type`, `properties`, `allOf` or `oneOf`). */
export function schemasUnder(value: Json | undefined): JsonObject[] {
  if (Array.isArray(value)) return value.flatMap((item) => schemasUnder(item));
  if (!isObject(value)) return [];
  const self = ["type", "properties", "allOf", "oneOf"].some((key) => key in value) ? [value] : [];
  return [...self, ...Object.values(value).flatMap((child) => schemasUnder(child))];
}

/** The parameters of an operation: its path item's, overridden by its own of the same name and place. */
export function parametersOf(document: JsonObject, op: DocumentedOperation): JsonObject[] {
  const all = [op.pathItem.parameters, op.operation.parameters]
    .flatMap((list) => (Array.isArray(list) ? list : []))
    .map((p) => deref(document, p))
    .filter(isObject);
  const byKey = new Map(all.map((p) => [`${String(p.in)}:${String(p.name)}`, p]));
  return [...byKey.values()];
}

/** The error codes a documented error reply names: the `Error.<code>` schemas its JSON body refers to. */
export function errorCodesOf(document: JsonObject, response: Json | undefined): string[] {
  const resolved = deref(document, response);
  const content = isObject(resolved) && isObject(resolved.content) ? resolved.content["application/json"] : undefined;
  const schema = isObject(content) ? content.schema : undefined;
  return refsUnder(schema).flatMap(({ ref }) => {
    const match = /^#\/components\/schemas\/Error\.(\w+)$/.exec(ref);
    return match?.[1] ? [match[1]] : [];
  });
}
