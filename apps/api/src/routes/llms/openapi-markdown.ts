/**
 * Markdown of parts of the OpenAPI document, for the pages an assistant reads (DESIGN §17, `GET /docs/<page>.md`):
 * an operation (its route, description, parameters, body fields, replies and examples) and the objects its replies
 * return, field by field. Everything comes from the document, so the pages change with the route contracts.
 */
import type { Json, JsonObject } from "../openapi/openapi-document";

/** One operation of the document, found by its `operationId`. */
export interface DocumentedOperation {
  method: string;
  path: string;
  operation: JsonObject;
}

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

/** Whether `value` is a JSON object (not an array, not null). */
export const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `value` when it is a non-empty string, else undefined. */
const text = (value: Json | undefined): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;

/** A description as one line of a list item: its paragraphs joined. */
const oneLine = (description: string): string => description.replace(/\s*\n+\s*/g, " ");

/** The component name a `$ref` points to (`#/components/schemas/Transaction` → `Transaction`). */
const refName = (ref: string): string => ref.slice(ref.lastIndexOf("/") + 1);

/** The member of `document` at the local reference `ref`, or undefined. */
function resolved(document: JsonObject, ref: string): Json | undefined {
  let found: Json | undefined = document;
  for (const key of ref.replace(/^#\//, "").split("/")) found = isObject(found) ? found[key] : undefined;
  return found;
}

/** `value`, or what it refers to when it is a `$ref`. */
function deref(document: JsonObject, value: Json | undefined): JsonObject {
  const ref = isObject(value) ? value.$ref : undefined;
  const target = typeof ref === "string" ? resolved(document, ref) : value;
  return isObject(target) ? target : {};
}

/** Every operation of the document, in its order. */
export function documentedOperations(document: JsonObject): DocumentedOperation[] {
  const paths = isObject(document.paths) ? document.paths : {};
  return Object.entries(paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = isObject(item) ? item[method] : undefined;
      return isObject(operation) ? [{ method, path, operation }] : [];
    }),
  );
}

/**
 * The operation of the document named `operationId`.
 * @throws Error when the document has none (a page names an operation that was renamed or removed)
 */
export function operationById(document: JsonObject, operationId: string): DocumentedOperation {
  const found = documentedOperations(document).find(({ operation }) => operation.operationId === operationId);
  if (found === undefined) throw new Error(`the OpenAPI document has no operation ${operationId}`);
  return found;
}

/** Whether an operation is the merchant API's: its security names the API key scheme (DESIGN §3). */
export const isMerchantOperation = ({ operation }: DocumentedOperation): boolean =>
  Array.isArray(operation.security) &&
  operation.security.some((requirement) => isObject(requirement) && "apiKey" in requirement);

/** A schema's type in a few words: `string (date-time)`, `` one of `paid`, `expired` ``, `Transaction or null`. */
export function typeLabel(document: JsonObject, schema: Json | undefined): string {
  if (!isObject(schema)) return "any";
  if (typeof schema.$ref === "string") {
    const target = deref(document, schema);
    return isObject(target.properties) ? `\`${refName(schema.$ref)}\`` : typeLabel(document, target);
  }
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants))
    return [...new Set(variants.map((variant) => typeLabel(document, variant)))].join(" or ");
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1) return typeLabel(document, schema.allOf[0]);
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((value) => `\`${String(value)}\``).join(", ")}`;
  if (schema.type === "array") return `array of ${typeLabel(document, schema.items)}`;
  const format = text(schema.format);
  return `${typeof schema.type === "string" ? schema.type : "any"}${format === undefined ? "" : ` (${format})`}`;
}

/** The inline object a property describes (itself, or the object among its `anyOf` variants), to list its fields. */
function inlineObject(schema: Json | undefined): JsonObject | undefined {
  if (!isObject(schema)) return undefined;
  if (isObject(schema.properties) && Object.keys(schema.properties).length > 0) return schema;
  const variants = schema.anyOf ?? schema.oneOf;
  return Array.isArray(variants) ? variants.map(inlineObject).find((found) => found !== undefined) : undefined;
}

/**
 * The fields of an object schema as a Markdown list, `- \`name\` (type, required): description`, the fields of inline
 * objects nested below theirs (named objects are described in their own section).
 */
export function fieldList(document: JsonObject, schema: JsonObject, indent = ""): string[] {
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const properties = isObject(schema.properties) ? schema.properties : {};
  return Object.entries(properties).flatMap(([name, property]) => {
    const description = isObject(property) ? text(property.description) : undefined;
    const line =
      `${indent}- \`${name}\` (${typeLabel(document, property)}${required.has(name) ? ", required" : ""})` +
      (description === undefined ? "" : `: ${oneLine(description)}`);
    const nested = isObject(property) && property.$ref === undefined ? inlineObject(property) : undefined;
    return [line, ...(nested === undefined ? [] : fieldList(document, nested, `${indent}  `))];
  });
}

/** A fenced JSON block of `value`. */
export const jsonBlock = (value: Json): string => `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;

/** The examples of a media type: its `example`, or each of its named `examples` under its summary. */
function examplesOf(media: JsonObject, heading: string): string[] {
  if (media.example !== undefined) return [`${heading}:`, jsonBlock(media.example)];
  const named = isObject(media.examples) ? Object.values(media.examples).filter(isObject) : [];
  return named.flatMap((example) => [
    `${heading}, ${text(example.summary) ?? "example"}:`,
    jsonBlock(example.value ?? null),
  ]);
}

/** The JSON media type of a request body or reply. */
export const jsonMedia = (holder: JsonObject): JsonObject | undefined => {
  const content = isObject(holder.content) ? holder.content : {};
  const media = content["application/json"];
  return isObject(media) ? media : undefined;
};

/**
 * One operation as a Markdown section (`## <summary>`): route, `operationId`, description, parameters, body fields,
 * replies by status, and the document's example request and reply.
 */
export function operationMarkdown(document: JsonObject, { method, path, operation }: DocumentedOperation): string {
  const parts = [
    `## ${text(operation.summary) ?? String(operation.operationId)}`,
    `\`${method.toUpperCase()} ${path}\` (operationId \`${String(operation.operationId)}\`)`,
  ];
  const description = text(operation.description);
  if (description !== undefined) parts.push(description);

  const parameters = (Array.isArray(operation.parameters) ? operation.parameters : []).map((p) => deref(document, p));
  if (parameters.length > 0) {
    parts.push(
      "Parameters:",
      parameters
        .map((parameter) => {
          const about = text(parameter.description);
          return (
            `- \`${String(parameter.name)}\` (${String(parameter.in)}, ${typeLabel(document, parameter.schema)}` +
            `${parameter.required === true ? ", required" : ""})${about === undefined ? "" : `: ${oneLine(about)}`}`
          );
        })
        .join("\n"),
    );
  }

  const requestBody = isObject(operation.requestBody) ? operation.requestBody : undefined;
  const body = requestBody === undefined ? undefined : jsonMedia(requestBody);
  if (requestBody !== undefined && body !== undefined) {
    const schema = deref(document, body.schema);
    const about = text(schema.description);
    parts.push(
      `Body (JSON, ${requestBody.required === true ? "required" : "optional"}):${about === undefined ? "" : ` ${about}`}`,
      fieldList(document, schema).join("\n"),
      ...examplesOf(body, "Example body"),
    );
  }

  const responses = isObject(operation.responses) ? operation.responses : {};
  const replies = Object.entries(responses).filter(([status]) => status !== "default");
  parts.push(
    "Replies:",
    replies
      .map(([status, reply]) => {
        const media = isObject(reply) ? jsonMedia(reply) : undefined;
        const success = status.startsWith("2") && media !== undefined;
        const shape = success ? ` ${typeLabel(document, media.schema)}` : "";
        return `- \`${status}\`${shape}: ${oneLine(text(deref(document, reply).description) ?? "")}`;
      })
      .join("\n"),
  );
  for (const [status, reply] of replies) {
    const media = status.startsWith("2") && isObject(reply) ? jsonMedia(reply) : undefined;
    if (media !== undefined) parts.push(...examplesOf(media, `Example reply (${status})`));
  }
  return parts.join("\n\n");
}

/** The names of the object components `value` refers to, at any depth, and those they refer to in turn. */
export function objectsReferredBy(
  document: JsonObject,
  value: Json | undefined,
  found = new Set<string>(),
): Set<string> {
  if (Array.isArray(value)) for (const item of value) objectsReferredBy(document, item, found);
  if (!isObject(value)) return found;
  if (typeof value.$ref === "string" && value.$ref.startsWith("#/components/schemas/")) {
    const name = refName(value.$ref);
    const target = deref(document, value);
    if (!found.has(name) && isObject(target.properties)) {
      found.add(name);
      objectsReferredBy(document, target, found);
    }
  }
  for (const item of Object.values(value)) objectsReferredBy(document, item, found);
  return found;
}

/** The component schema `name` as a Markdown section (`### <name>`): its description and its fields. */
export function objectMarkdown(document: JsonObject, name: string): string {
  const schema = deref(document, { $ref: `#/components/schemas/${name}` });
  const description = text(schema.description);
  return [
    `### ${name}`,
    ...(description === undefined ? [] : [description]),
    fieldList(document, schema).join("\n"),
  ].join("\n\n");
}
