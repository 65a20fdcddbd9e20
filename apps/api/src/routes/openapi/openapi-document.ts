/**
 * Builds the OpenAPI 3.1 document from the route contracts, the event catalog and the hand-kept overlay
 * (`apps/api/openapi.overlay.json`: info, tag prose, shared headers and parameters, examples). `npm run openapi` writes
 * it to `apps/api/openapi.json`, which the API serves and CI compares with a fresh build.
 *
 * Reply and event schemas are TypeBox (`@lm/wire`): every schema carrying an `$id` becomes `components.schemas.<$id>`
 * and a `$ref` wherever it appears. Request schemas are joi, converted by `joi-to-json`. Errors are `Error.<code>`
 * components built from the catalog, so a route lists codes, never envelopes.
 */
import type { TSchema } from "@sinclair/typebox";
import Joi from "joi";
import joiToJson from "joi-to-json";
import {
  ERROR_CATALOG,
  ErrorEnvelope,
  EventEnvelope,
  PING_EVENT,
  PING_EVENT_TYPE,
  SUBSCRIBABLE_EVENTS,
  type ErrorCode,
  type EventTypeEntry,
} from "@lm/wire";
import type { ErrorReplyContract, ReplyContract, RouteContract } from "../../http/contract";

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object. */
export type JsonObject = { [key: string]: Json };

/** The hand-kept part of the document (`apps/api/openapi.overlay.json`). */
export interface OpenApiOverlay {
  openapi: string;
  info: JsonObject;
  servers: Json[];
  tags: Json[];
  "x-tagGroups": Json[];
  components: { securitySchemes: JsonObject; parameters: JsonObject; headers: JsonObject; responses: JsonObject };
  /** What every webhook shares: the receiving advice, the delivery headers, the replies, each family's tag. */
  webhook: { receiving: string; parameters: Json[]; responses: JsonObject; tags: Record<string, string> };
  examples: {
    /** A request body per operationId. */
    requests: Record<string, Json>;
    /**
     * Further request bodies of an operation whose body takes several shapes (a charge with a due date), by
     * operationId then name; shown beside `requests`' own, which is named `default` and summarised by the operation's
     * summary.
     */
    requestVariants: Record<string, Record<string, { summary: string; value: Json }>>;
    /** An example per named schema; a list's is built from its item's. */
    objects: Record<string, Json>;
    /**
     * A message per error code; where it depends on who calls (`authentication_required`), one per security scheme,
     * the first of the operation's schemes choosing.
     */
    errorMessages: Partial<Record<ErrorCode, string | Record<string, string>>>;
    /** Where an operation's refusal deserves its own example: by operationId, then code. */
    operationErrors: Record<string, Partial<Record<ErrorCode, { message: string; param?: string }>>>;
  };
}

const REQUEST_ID_EXAMPLE = "req_01M8CKV5T7W9P5KS5KMGEX6HPZ";
const EVENT_ID_EXAMPLE = "evt_01M8CKX3Z8Q4S7V1X3Z6C9E2HJ";
const EVENT_CREATED_AT_EXAMPLE = "2026-11-26T19:03:19.103Z";

/** The named schemas met so far, by `$id`, as JSON with their own named parts replaced by `$ref`s. */
class SchemaRegistry {
  readonly components: Record<string, JsonObject> = {};

  /** `schema` as document JSON: a named schema becomes a `$ref` (and a component, the first time). */
  use(schema: TSchema): JsonObject {
    return this.convert(JSON.parse(JSON.stringify(schema)) as JsonObject, false);
  }

  private convert(node: JsonObject, isComponentRoot: boolean): JsonObject {
    const id = node.$id;
    if (typeof id === "string" && !isComponentRoot) {
      if (!(id in this.components)) {
        this.components[id] = {}; // reserved first: a schema may refer to itself through its parts
        this.components[id] = this.convert(node, true);
      }
      return { $ref: `#/components/schemas/${id}` };
    }
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "$id") continue;
      out[key] = this.convertValue(value);
    }
    return out;
  }

  private convertValue(value: Json): Json {
    if (Array.isArray(value)) return value.map((item) => this.convertValue(item));
    if (value !== null && typeof value === "object") return this.convert(value, false);
    return value;
  }
}

/**
 * The JSON Schema of a joi schema, as the document shows a request. Two corrections of `joi-to-json`'s output:
 * - it lists an object's pattern keys (`Joi.object().pattern(/re/, value)`) both as `patternProperties` and, wrongly,
 *   as properties named `/re/`: those are dropped;
 * - it closes every object (`additionalProperties: false`), but validation strips unknown fields (apps/api/src/http/
 *   validate.ts) unless the schema refuses them (`prefs({ stripUnknown: false })`): a stripping schema is left open.
 */
function joiSchema(schema: Joi.Schema): JsonObject {
  const refusesUnknown =
    (schema.describe().preferences as { stripUnknown?: boolean } | undefined)?.stripUnknown === false;
  return corrected(joiToJson(schema, "open-api-3.1") as Json, refusesUnknown) as JsonObject;
}

function corrected(node: Json, refusesUnknown: boolean): Json {
  if (Array.isArray(node)) return node.map((item) => corrected(item, refusesUnknown));
  if (node === null || typeof node !== "object") return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "additionalProperties" && value === false && !refusesUnknown) continue;
    if (key === "properties" && value !== null && typeof value === "object" && !Array.isArray(value)) {
      const kept = Object.entries(value).filter(([name]) => !/^\/.*\/[a-z]*$/.test(name));
      out[key] = Object.fromEntries(kept.map(([name, child]) => [name, corrected(child, refusesUnknown)]));
    } else out[key] = corrected(value, refusesUnknown);
  }
  return out;
}

/** A request body's schema: joi when the route validates it, TypeBox when it only describes it. */
function bodySchema(body: Joi.Schema | TSchema, registry: SchemaRegistry): JsonObject {
  return Joi.isSchema(body) ? joiSchema(body) : registry.use(body as TSchema);
}

/** The path or query parameters of a joi object schema, one per key, each with its description lifted. */
function parameters(schema: Joi.ObjectSchema | undefined, where: "path" | "query"): JsonObject[] {
  if (schema === undefined) return [];
  const json = joiSchema(schema);
  const required = new Set(Array.isArray(json.required) ? json.required : []);
  const properties = (json.properties ?? {}) as Record<string, JsonObject>;
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === "path" || required.has(name),
      ...(description === undefined ? {} : { description }),
      schema: rest,
    };
  });
}

/** The example of the schema named `name`: the overlay's, or for a list, a page of one item built from its item's. */
function objectExample(
  overlay: OpenApiOverlay,
  components: Record<string, JsonObject>,
  name: string,
): Json | undefined {
  const own = overlay.examples.objects[name];
  if (own !== undefined) return own;
  const items = (components[name]?.properties as JsonObject | undefined)?.data as JsonObject | undefined;
  const itemRef = (items?.items as JsonObject | undefined)?.$ref;
  if (typeof itemRef !== "string") return undefined;
  const item = overlay.examples.objects[itemRef.split("/").pop() ?? ""];
  return item === undefined ? undefined : { object: "list", data: [item], has_more: false };
}

/** The component name a converted schema refers to, if it is a `$ref`. */
function refName(schema: JsonObject): string | undefined {
  return typeof schema.$ref === "string" ? schema.$ref.split("/").pop() : undefined;
}

/** Reply headers: named ones from the overlay, plus `Set-Cookie` when the reply sets one. */
function replyHeaders(names: string[] = [], setCookie?: string): JsonObject | undefined {
  const headers: JsonObject = {};
  for (const name of names)
    headers[name.replace(/([a-z])([A-Z])/g, "$1-$2")] = { $ref: `#/components/headers/${name}` };
  if (setCookie !== undefined) headers["Set-Cookie"] = { description: setCookie, schema: { type: "string" } };
  return Object.keys(headers).length === 0 ? undefined : headers;
}

/** The document's reply of one successful status. */
function successReply(reply: ReplyContract, registry: SchemaRegistry, overlay: OpenApiOverlay): JsonObject {
  const headers = replyHeaders(reply.headers, reply.setCookie);
  let content: JsonObject | undefined;
  if (reply.schema !== undefined) {
    const schema = registry.use(reply.schema);
    const name = refName(schema);
    const example = name === undefined ? undefined : objectExample(overlay, registry.components, name);
    content = { "application/json": { schema, ...(example === undefined ? {} : { example }) } };
  } else if (reply.mediaType !== undefined) {
    const types = typeof reply.mediaType === "string" ? [reply.mediaType] : reply.mediaType;
    content = Object.fromEntries(types.map((type) => [type, { schema: { type: "string" } }]));
  }
  return {
    description: reply.description,
    ...(headers === undefined ? {} : { headers }),
    ...(content === undefined ? {} : { content }),
  };
}

/**
 * The document's reply of one error status of `contract`: its codes' envelopes, one example each (the operation's
 * own example of a code, else the code's).
 */
function errorReply(contract: RouteContract, reply: ErrorReplyContract, overlay: OpenApiOverlay): JsonObject {
  const refs = reply.codes.map((code) => ({ $ref: `#/components/schemas/Error.${code}` }));
  const scheme = contract.security.flatMap((requirement) => Object.keys(requirement))[0] ?? "";
  const examples: JsonObject = {};
  for (const code of reply.codes) {
    const own = overlay.examples.operationErrors[contract.operationId]?.[code];
    const generic = overlay.examples.errorMessages[code];
    const message = own?.message ?? (typeof generic === "object" ? generic[scheme] : generic);
    if (message === undefined) continue;
    const { type } = ERROR_CATALOG[code];
    const param: JsonObject = own?.param === undefined ? {} : { param: own.param };
    examples[code] = {
      summary: code,
      value: { error: { type, code, message, ...param, request_id: REQUEST_ID_EXAMPLE } } as JsonObject,
    };
  }
  const headers = replyHeaders(reply.headers);
  return {
    description: reply.description,
    ...(headers === undefined ? {} : { headers }),
    content: {
      "application/json": {
        schema: refs.length === 1 ? (refs[0] as JsonObject) : { oneOf: refs },
        ...(Object.keys(examples).length === 0 ? {} : { examples }),
      },
    },
  };
}

/** The document's operation of one contract. */
function operation(contract: RouteContract, registry: SchemaRegistry, overlay: OpenApiOverlay): JsonObject {
  const parameterList: Json[] = [
    ...parameters(contract.params as Joi.ObjectSchema | undefined, "path"),
    ...parameters(contract.query as Joi.ObjectSchema | undefined, "query"),
    ...(contract.headers ?? []).map((name) => ({ $ref: `#/components/parameters/${name}` })),
  ];
  const responses: JsonObject = {};
  for (const [status, reply] of Object.entries(contract.replies))
    responses[status] = successReply(reply, registry, overlay);
  for (const [status, reply] of Object.entries(contract.errors))
    responses[status] = errorReply(contract, reply, overlay);
  responses.default = { $ref: "#/components/responses/Error" };
  const example = overlay.examples.requests[contract.operationId];
  const variants = overlay.examples.requestVariants[contract.operationId];
  const examples: JsonObject =
    example === undefined
      ? {}
      : variants === undefined
        ? { example }
        : { examples: { default: { summary: contract.summary, value: example }, ...variants } };
  return {
    operationId: contract.operationId,
    tags: [contract.tag],
    summary: contract.summary,
    ...(contract.description === undefined ? {} : { description: contract.description }),
    security: contract.security as Json,
    ...(parameterList.length === 0 ? {} : { parameters: parameterList }),
    ...(contract.body === undefined
      ? {}
      : {
          requestBody: {
            required: contract.bodyRequired ?? true,
            content: {
              "application/json": {
                schema: bodySchema(contract.body as Joi.Schema | TSchema, registry),
                ...examples,
              },
            },
          },
        }),
    responses,
  };
}

/** The `Error.<code>` component of every code of the catalog: the envelope with its type and code pinned. */
function errorComponents(): Record<string, JsonObject> {
  const components: Record<string, JsonObject> = {};
  for (const [code, { status, type }] of Object.entries(ERROR_CATALOG)) {
    components[`Error.${code}`] = {
      description: `HTTP ${status}.`,
      allOf: [{ $ref: "#/components/schemas/Error" }],
      properties: { error: { properties: { type: { const: type }, code: { const: code } } } },
    };
  }
  return components;
}

/** `camelCase` of an event type, as the operationId of its webhook: `transaction.paid` → `transactionPaidEvent`. */
function eventOperationId(type: string): string {
  return `${type.replace(/[._](\w)/g, (_m, c: string) => c.toUpperCase())}Event`;
}

/**
 * The `$ref` of the envelope of a family of events (`TransactionEvent` for `transaction.*`): the envelope with
 * `data.object` pinned to `object`, defined the first time a type of the family is met.
 */
function familyEnvelope(family: string, object: JsonObject, registry: SchemaRegistry): JsonObject {
  // `transaction_batch` → `TransactionBatchEvent`.
  const name = `${family.replace(/(?:^|_)([a-z])/g, (_, letter: string) => letter.toUpperCase())}Event`;
  registry.components[name] ??= {
    description: `The event envelope of \`${family}\` events, with \`data.object\` as its read operation returns it.`,
    allOf: [registry.use(EventEnvelope)],
    type: "object",
    properties: { data: { type: "object", required: ["object"], properties: { object } } },
  };
  return { $ref: `#/components/schemas/${name}` };
}

/** The document's webhook of one event type: its family's envelope with `type` pinned. */
function webhook(type: string, entry: EventTypeEntry, registry: SchemaRegistry, overlay: OpenApiOverlay): JsonObject {
  const object = registry.use(entry.object);
  const objectName = refName(object);
  const family = type.split(".")[0] ?? type;
  // Only a charge's events also go to its postback URL (SPEC "Postbacks").
  const postback = family === "transaction" ? ", and to the charge's `postback_url` when it has one" : "";
  const signedBy = postback === "" ? "" : " (signed with the store's postback secret)";
  const objectExample = objectName === undefined ? undefined : overlay.examples.objects[objectName];
  return {
    post: {
      operationId: eventOperationId(type),
      summary: type,
      description:
        `${entry.description}\n\nA signed POST to every endpoint of the event's mode that subscribes to \`${type}\`` +
        `${postback}${signedBy}. ${overlay.webhook.receiving}`,
      tags: [overlay.webhook.tags[family] ?? family],
      security: [],
      parameters: overlay.webhook.parameters,
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              allOf: [familyEnvelope(family, object, registry)],
              type: "object",
              properties: { type: { const: type } },
            },
            ...(objectExample === undefined
              ? {}
              : {
                  example: {
                    id: EVENT_ID_EXAMPLE,
                    object: "event",
                    type,
                    mode: "test",
                    created_at: EVENT_CREATED_AT_EXAMPLE,
                    data: { object: objectExample },
                  },
                }),
          },
        },
      },
      responses: overlay.webhook.responses,
    },
  };
}

/**
 * The OpenAPI 3.1 document of `contracts`, the event catalog and `overlay`. Deterministic: the same inputs give the
 * same document, key for key, so the committed file can be compared with a fresh build.
 * @throws Error when two contracts share an operationId or a method and path
 */
export function buildOpenApiDocument(contracts: RouteContract[], overlay: OpenApiOverlay): JsonObject {
  const registry = new SchemaRegistry();
  registry.use(ErrorEnvelope);
  const paths: Record<string, JsonObject> = {};
  const operationIds = new Set<string>();
  for (const contract of contracts) {
    if (operationIds.has(contract.operationId)) throw new Error(`operationId ${contract.operationId} is used twice`);
    operationIds.add(contract.operationId);
    const item = (paths[contract.path] ??= {});
    if (contract.method in item) throw new Error(`${contract.method.toUpperCase()} ${contract.path} has two contracts`);
    item[contract.method] = operation(contract, registry, overlay);
  }
  const webhooks: JsonObject = {};
  for (const [type, entry] of Object.entries(SUBSCRIBABLE_EVENTS))
    webhooks[type] = webhook(type, entry, registry, overlay);
  webhooks[PING_EVENT_TYPE] = webhook(PING_EVENT_TYPE, PING_EVENT, registry, overlay);

  const schemas: JsonObject = {};
  for (const name of Object.keys(registry.components).sort()) schemas[name] = registry.components[name]!;
  Object.assign(schemas, errorComponents());
  return {
    openapi: overlay.openapi,
    info: overlay.info,
    servers: overlay.servers,
    tags: overlay.tags,
    "x-tagGroups": overlay["x-tagGroups"],
    paths,
    webhooks,
    components: { ...overlay.components, schemas },
  };
}
