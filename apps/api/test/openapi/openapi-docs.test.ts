/**
 * What openapi.json teaches besides the routes (DESIGN §12 "Docs"): one `webhooks` entry per event type of the
 * catalog (so a new type cannot be forgotten), operations grouped by who calls them, and realistic examples that
 * are checked against the very schemas they illustrate. Reads the file itself: no database, no server.
 */
import { readFileSync } from "node:fs";
import { ERROR_CATALOG, PING_EVENT_TYPE, SUBSCRIBABLE_EVENT_TYPES, type ErrorCode } from "@lm/domain";
import { errorCodesOf, isObject, operationsOf, type Json, type JsonObject } from "../support/openapi-document";
import { replyProblems } from "../support/schema-conformance";

const DOCUMENT = JSON.parse(readFileSync(require.resolve("@lm/api/openapi.json"), "utf8")) as JsonObject;

/** The schema that `data.object` of each event family's envelope must be. */
const DATA_OBJECT_SCHEMA: Record<string, string> = {
  transaction: "Transaction",
  transaction_batch: "TransactionBatch",
  recurrence: "Recurrence",
  refund: "Refund",
  dispute: "Dispute",
  withdrawal: "Withdrawal",
  seller: "Seller",
  ping: "EndpointPing",
};

/** The delivery headers every webhook documents (SPEC "Delivery request", DESIGN §12 "Signature schemes"). */
const DELIVERY_HEADERS = [
  "X-Signature",
  "X-Event-Id",
  "X-Event-Type",
  "X-Delivery-Id",
  "X-Attempt",
  "Idempotency-Key",
  "webhook-id",
  "webhook-timestamp",
  "webhook-signature",
];

const obj = (value: Json | undefined): JsonObject => (isObject(value) ? value : {});
const at = (value: Json | undefined, ...keys: string[]): Json | undefined =>
  keys.reduce<Json | undefined>(
    (current, key) => (Array.isArray(current) ? current[Number(key)] : obj(current)[key]),
    value,
  );
const deref = (value: Json | undefined): Json | undefined => {
  const pointer = at(value, "$ref");
  if (typeof pointer !== "string") return value;
  return pointer
    .slice(2)
    .split("/")
    .reduce<Json | undefined>((current, key) => obj(current)[key], DOCUMENT);
};

/** The problems of `value` against `schema`, by the reply checker of the reply tests (closed objects). */
function schemaProblems(schema: Json | undefined, value: Json): string[] {
  const probe = {
    ...DOCUMENT,
    paths: { "/probe": { post: { responses: { "200": { content: { "application/json": { schema } } } } } } },
  } as JsonObject;
  return replyProblems(probe, "POST /probe", 200, value);
}

/** Every example of a media type: `example`, or each `examples` entry's value (resolving `$ref`). */
function examplesOf(media: JsonObject): Json[] {
  if ("example" in media) return [media.example as Json];
  return Object.values(obj(media.examples)).map((entry) => obj(deref(entry)).value as Json);
}

/** Each JSON media type the document's operations and webhooks take or give, with where it is. */
function jsonMedia(): { where: string; status: string | null; media: JsonObject }[] {
  const found: { where: string; status: string | null; media: JsonObject }[] = [];
  const webhooks = Object.entries(obj(DOCUMENT.webhooks)).map(([name, item]) => ({
    route: `webhook ${name}`,
    operation: obj(obj(item).post),
  }));
  for (const { route, operation } of [...operationsOf(DOCUMENT), ...webhooks]) {
    const body = at(deref(operation.requestBody), "content", "application/json");
    if (isObject(body)) found.push({ where: `${route} request`, status: null, media: body });
    for (const [status, response] of Object.entries(obj(operation.responses))) {
      const media = at(deref(response), "content", "application/json");
      if (isObject(media)) found.push({ where: `${route} ${status}`, status, media });
    }
  }
  return found;
}

/** CRC16/CCITT-FALSE, the checksum that ends an EMV BR Code (`6304` + 4 hex digits). */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, "utf8")) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

/** Every string under `value` at a key named `key`. */
function stringsAt(value: Json | undefined, key: string): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => stringsAt(item, key));
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([k, child]) =>
    k === key && typeof child === "string" ? [child] : stringsAt(child, key),
  );
}

describe("openapi.json webhooks", () => {
  const webhooks = obj(DOCUMENT.webhooks);

  test("when the catalog has an event type (or ping), then webhooks has a POST entry for it, and for nothing else", () => {
    const expected = [...Object.keys(SUBSCRIBABLE_EVENT_TYPES), PING_EVENT_TYPE].sort();

    expect(Object.keys(webhooks).sort()).toEqual(expected);
    expect(Object.keys(webhooks).filter((type) => !isObject(obj(webhooks[type]).post))).toEqual([]);
  });

  test("when a webhook is documented, then its body is the envelope of its family with data.object the resource's schema, and its example is an envelope of that type", () => {
    const problems: string[] = [];
    for (const [type, item] of Object.entries(webhooks)) {
      const media = obj(at(item, "post", "requestBody", "content", "application/json"));
      const family = deref(at(media.schema, "allOf", "0"));
      const objectRef = at(family, "properties", "data", "properties", "object", "$ref");
      const expected = DATA_OBJECT_SCHEMA[type === PING_EVENT_TYPE ? "ping" : (type.split(".")[0] ?? "")];
      if (objectRef !== `#/components/schemas/${expected}`) problems.push(`${type}: data.object ${String(objectRef)}`);
      if (!at(family, "allOf", "0", "$ref")?.toString().endsWith("/EventEnvelope"))
        problems.push(`${type}: not an EventEnvelope`);
      for (const example of examplesOf(media)) {
        if (at(example, "type") !== type) problems.push(`${type}: example of type ${String(at(example, "type"))}`);
        problems.push(...schemaProblems(media.schema, example).map((p) => `${type}: ${p}`));
      }
    }

    expect(problems).toEqual([]);
  });

  test("when a webhook is documented, then it names every delivery header, a tag, a summary, an operationId and a 2xx reply", () => {
    const problems: string[] = [];
    for (const [type, item] of Object.entries(webhooks)) {
      const post = obj(obj(item).post);
      const headers = (Array.isArray(post.parameters) ? post.parameters : [])
        .map((p) => obj(deref(p)))
        .filter((p) => p.in === "header")
        .map((p) => p.name);
      const missing = DELIVERY_HEADERS.filter((name) => !headers.includes(name));
      if (missing.length > 0) problems.push(`${type}: no ${missing.join(", ")}`);
      if (typeof post.summary !== "string" || typeof post.operationId !== "string") problems.push(`${type}: names`);
      if (!Array.isArray(post.tags) || post.tags.length !== 1) problems.push(`${type}: tags`);
      if (!Object.keys(obj(post.responses)).some((status) => /^2\d\d$/.test(status))) problems.push(`${type}: 2xx`);
    }

    expect(problems).toEqual([]);
  });
});

describe("openapi.json tags", () => {
  const groups = (Array.isArray(DOCUMENT["x-tagGroups"]) ? DOCUMENT["x-tagGroups"] : []).map((g) => obj(g));
  const tags = (Array.isArray(DOCUMENT.tags) ? DOCUMENT.tags : []).map((t) => String(obj(t).name));

  test("when tags are grouped, then the groups are who calls: Merchant API, Seller panel, Operators, Acquirers, Webhooks; each tag in exactly one", () => {
    const grouped = groups.flatMap((g) => (Array.isArray(g.tags) ? g.tags.map(String) : []));

    expect(groups.map((g) => g.name)).toEqual(["Merchant API", "Seller panel", "Operators", "Acquirers", "Webhooks"]);
    expect([...grouped].sort()).toEqual([...tags].sort());
    expect(new Set(grouped).size).toBe(grouped.length);
  });

  test("when an operation or webhook is documented, then its tag is a human name (no slug) of the right group", () => {
    const groupOf = new Map(
      groups.flatMap((g) => (Array.isArray(g.tags) ? g.tags.map((t) => [String(t), String(g.name)] as const) : [])),
    );
    const expectedGroup = (path: string): string => {
      if (path.startsWith("/v1/acquirers/")) return "Acquirers";
      // The dashboard's pages: the sellers' application (DESIGN §15).
      if (path === "/dashboard" || path.startsWith("/dashboard/")) return "Seller panel";
      if (path.startsWith("/v1/ops/") || !path.startsWith("/v1/")) return "Operators";
      if (path.startsWith("/v1/me/")) return "Seller panel";
      return "Merchant API";
    };
    const problems: string[] = [];
    for (const { route, path, operation } of operationsOf(DOCUMENT)) {
      const [tag] = Array.isArray(operation.tags) ? operation.tags.map(String) : [];
      if (tag === undefined || /^[a-z-]+$/.test(tag)) problems.push(`${route}: tag ${String(tag)}`);
      else if (groupOf.get(tag) !== expectedGroup(path)) problems.push(`${route}: ${tag} in ${groupOf.get(tag)}`);
      if (typeof operation.summary !== "string" || operation.summary.length < 5) problems.push(`${route}: summary`);
    }
    for (const [type, item] of Object.entries(obj(DOCUMENT.webhooks))) {
      const [tag] = (at(item, "post", "tags") as Json[] | undefined) ?? [];
      if (groupOf.get(String(tag)) !== "Webhooks") problems.push(`webhook ${type}: ${String(tag)}`);
    }

    expect(problems).toEqual([]);
  });
});

describe("openapi.json examples", () => {
  const media = jsonMedia();

  test("when an operation takes a JSON body or answers JSON with 2xx or 4xx, then it shows an example", () => {
    const bare = media
      .filter(({ status }) => status === null || /^[24]\d\d$/.test(status))
      .filter(({ media: m }) => examplesOf(m).length === 0)
      .map(({ where }) => where);

    expect(bare).toEqual([]);
    expect(media.length).toBeGreaterThan(200);
  });

  test("when an example is shown, then it conforms to the schema it illustrates", () => {
    const problems = media.flatMap(({ where, media: m }) =>
      examplesOf(m).flatMap((example) => schemaProblems(m.schema, example).map((p) => `${where}: ${p}`)),
    );

    expect(problems).toEqual([]);
  });

  test("when a 4xx reply names error codes, then it shows an envelope of each code, and only of those, with its type and a request_id", () => {
    const problems: string[] = [];
    for (const { where, status, media: m } of media) {
      if (status === null || !/^4\d\d$/.test(status)) continue;
      const codes = errorCodesOf(DOCUMENT, { content: { "application/json": m } } as JsonObject).sort();
      const shown = examplesOf(m).map((example) => String(at(example, "error", "code")));
      if (JSON.stringify([...shown].sort()) !== JSON.stringify(codes)) problems.push(`${where}: ${shown.join(",")}`);
      for (const example of examplesOf(m)) {
        const code = String(at(example, "error", "code")) as ErrorCode;
        if (at(example, "error", "type") !== ERROR_CATALOG[code]?.type) problems.push(`${where}: type of ${code}`);
        if (!/^req_[0-9A-HJKMNP-TV-Z]{26}$/.test(String(at(example, "error", "request_id"))))
          problems.push(`${where}: request_id`);
      }
    }

    expect(problems).toEqual([]);
  });

  test("when examples show values, then none is a placeholder, and every BR Code ends with its valid CRC16", () => {
    const all = media.flatMap(({ media: m }) => examplesOf(m));
    const placeholders = JSON.stringify(all).match(/"(string|example|foo|bar|xxx)"/gi) ?? [];
    const brCodes = [...new Set(stringsAt(all, "copy_paste"))];

    expect(placeholders).toEqual([]);
    expect(brCodes.length).toBeGreaterThan(0);
    expect(brCodes.filter((code) => !/^000201/.test(code) || code.slice(-4) !== crc16(code.slice(0, -4)))).toEqual([]);
  });

  test("when a refund or panel withdrawal is created, then Idempotency-Key is a required header and the 400 example says so", () => {
    const routes = ["/v1/transactions/{id}/refunds", "/v1/me/withdrawals"];

    const documented = routes.map((path) => {
      const post = obj(at(DOCUMENT.paths, path, "post"));
      const header = (Array.isArray(post.parameters) ? post.parameters : [])
        .map((p) => obj(deref(p)))
        .find((p) => p.in === "header" && p.name === "Idempotency-Key");
      const example = at(post.responses, "400", "content", "application/json", "examples", "validation_failed");
      return { required: header?.required, param: at(example, "value", "error", "param") };
    });

    expect(documented).toEqual(routes.map(() => ({ required: true, param: "Idempotency-Key" })));
  });
});
