/**
 * Replies and webhook bodies checked against the OpenAPI document by ajv: JSON Schema 2020-12 (the dialect of OpenAPI
 * 3.1) with ajv-formats, on the copy of the document whose objects are closed (closed-schemas.ts), so that a field the
 * document does not name is a problem like a wrong type or a missing required field. Strict mode is off because the
 * document carries OpenAPI's own keywords (`example`, `discriminator`) beside JSON Schema's.
 */
import { readFileSync } from "node:fs";
import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { closeObjects, closeSchema } from "./closed-schemas";
import { deref, isObject, operationsOf, type Json, type JsonObject } from "./openapi-document";

/** The id the closed document is registered under; its `#/components/...` references resolve inside it. */
const DOCUMENT_ID = "openapi.json";

/** Checks against one OpenAPI document. Each problem reads `<label>: <field>: <reason>`. */
export interface DocumentChecker {
  /**
   * What is wrong with `body` as the reply `status` of `operation` (`"POST /v1/transactions"`): the document must have
   * the operation and a response for the status (else `default`), and its JSON schema must accept the body.
   * @returns the problems, empty when the body conforms
   */
  replyProblems(operation: string, status: number, body: unknown): string[];
  /** What is wrong with `body` as the webhook of its own `type` (`webhooks[type]`'s request body schema). */
  webhookProblems(body: unknown): string[];
  /**
   * What is wrong with `body` as the reply `status` to `route`, a request the document has no operation for: it must
   * be an error (4xx, 5xx) in the document's error envelope, `components.schemas.Error`.
   */
  undocumentedRouteProblems(route: string, status: number, body: unknown): string[];
  /**
   * What is wrong with `body` against `schema`, a schema written against this document's components (its `$ref`s are
   * `#/components/schemas/...`), closed like the document's own.
   */
  schemaProblems(label: string, schema: Json, body: unknown): string[];
  /**
   * The documented operation (`"GET /v1/transactions/{id}"`) that a request for `method` and `path` (the query is
   * ignored) reaches, matched as Express matches its routes: literal segments without regard to case, one trailing
   * slash allowed, a `{parameter}` standing for one non-empty segment, literal segments preferred.
   */
  operationOf(method: string, path: string): string | undefined;
  /**
   * The media types of the reply `status` of `operation`: empty when it is documented without a body, undefined when
   * the operation or the status (and `default`) is not documented.
   */
  replyMediaTypes(operation: string, status: number): string[] | undefined;
}

/** An RFC 6901 pointer into the registered document, as a URI fragment. */
function pointerTo(tokens: string[]): string {
  const escaped = tokens.map((token) => encodeURIComponent(token.replace(/~/g, "~0").replace(/\//g, "~1")));
  return `${DOCUMENT_ID}#/${escaped.join("/")}`;
}

/** `schema` with its local references (`#/components/...`) made to lead into the registered document. */
function inDocument(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(inDocument);
  if (!isObject(schema)) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) =>
      key === "$ref" && typeof value === "string" && value.startsWith("#")
        ? [key, DOCUMENT_ID + value]
        : [key, inDocument(value)],
    ),
  );
}

/** The value at an ajv `instancePath` of `body`. */
function valueAt(body: unknown, instancePath: string): unknown {
  if (instancePath === "") return body;
  return instancePath
    .slice(1)
    .split("/")
    .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>((current, key) => (isObject(current as Json) ? (current as JsonObject)[key] : undefined), body);
}

/** A short rendering of a value sent, for a problem's reason. */
function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * Ajv's errors as `<field>: <reason>` lines, the field an instance path (`/pix/copy_paste`), `(body)` for the root. The
 * `const` errors at one field (from several `oneOf` branches) merge into one line naming every value allowed, and an
 * `enum` error beside them is left out (the constants say more).
 */
function describeErrors(errors: ErrorObject[], body: unknown): string[] {
  const at = (path: string) => path || "(body)";
  const sent = (path: string) => `(sent ${preview(valueAt(body, path))})`;
  const constants = new Map<string, Set<string>>();
  for (const error of errors) {
    if (error.keyword !== "const") continue;
    const allowed = constants.get(error.instancePath) ?? new Set<string>();
    allowed.add(preview((error.params as { allowedValue: unknown }).allowedValue));
    constants.set(error.instancePath, allowed);
  }
  const lines = errors.flatMap((error) => {
    const params = error.params as { unevaluatedProperty?: string; missingProperty?: string };
    if (error.keyword === "unevaluatedProperties" && params.unevaluatedProperty !== undefined) {
      const field = `${error.instancePath}/${params.unevaluatedProperty.replace(/~/g, "~0").replace(/\//g, "~1")}`;
      return [`${field}: not in the document ${sent(field)}`];
    }
    if (error.keyword === "required" && params.missingProperty !== undefined)
      return [`${error.instancePath}/${params.missingProperty}: missing, the document requires it`];
    const allowed = constants.get(error.instancePath);
    if (allowed && error.keyword === "enum") return [];
    if (allowed && error.keyword === "const")
      return [`${at(error.instancePath)}: must be ${[...allowed].join(" or ")} ${sent(error.instancePath)}`];
    return [`${at(error.instancePath)}: ${error.message ?? error.keyword} ${sent(error.instancePath)}`];
  });
  return [...new Set(lines)];
}

/** Builds the checker of `document` (an OpenAPI 3.1 document; left unchanged). Validators compile on first use. */
export function createDocumentChecker(document: JsonObject): DocumentChecker {
  const closed = closeObjects(document);
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ ...closed, $id: DOCUMENT_ID });

  const validator = (pointer: string): ValidateFunction => {
    const validate = ajv.getSchema(pointer);
    if (!validate) throw new Error(`no schema at ${pointer}`);
    return validate;
  };
  /** The problems of `body` against the schema at `tokens`, a top-level `oneOf` judged branch by branch. */
  const problemsAt = (label: string, tokens: string[], body: unknown): string[] => {
    const schema = tokens.reduce<Json | undefined>(
      (current, key) => (isObject(current) ? current[key] : undefined),
      closed,
    );
    const branches = isObject(schema) && Array.isArray(schema.oneOf) && !("allOf" in schema) ? schema.oneOf : undefined;
    const withPrefix = (found: string[]) => found.map((problem) => `${label}: ${problem}`);
    if (!branches) return withPrefix(describeErrors(errorsOf(validator(pointerTo(tokens)), body), body));
    // A body that fits no branch is told against the nearest ones (fewest errors): ajv's own report would list every
    // branch's errors, most of them only saying that the body is not that branch.
    const outcomes = branches.map((branch, i) => ({
      name: isObject(branch) && typeof branch.$ref === "string" ? branch.$ref.split("/").pop() : `oneOf/${i}`,
      errors: errorsOf(validator(pointerTo([...tokens, "oneOf", String(i)])), body),
    }));
    const matching = outcomes.filter((outcome) => outcome.errors.length === 0);
    if (matching.length === 1) return [];
    if (matching.length > 1)
      return withPrefix([
        `(body): matches ${matching.length} branches of oneOf (${matching.map((m) => m.name).join(", ")})`,
      ]);
    const fewest = Math.min(...outcomes.map((outcome) => outcome.errors.length));
    const nearest = outcomes.filter((outcome) => outcome.errors.length === fewest);
    const which =
      nearest.length === 1
        ? `against ${String(nearest[0]?.name)}`
        : `nearest: ${nearest.map((n) => n.name).join(", ")}`;
    const lines = describeErrors(
      nearest.flatMap((outcome) => outcome.errors),
      body,
    );
    return withPrefix(lines.map((line) => `${line} [${which}]`));
  };
  const errorsOf = (validate: ValidateFunction, body: unknown): ErrorObject[] =>
    validate(body) ? [] : (validate.errors ?? []);

  const operations = operationsOf(document).map((op) => ({
    ...op,
    segments: op.path.split("/"),
    literals: op.path.split("/").filter((segment) => !/^\{.*\}$/.test(segment)).length,
  }));
  const operationOf = (method: string, path: string): string | undefined => {
    const bare = path.split("?")[0] ?? "";
    const segments = (bare.length > 1 && bare.endsWith("/") ? bare.slice(0, -1) : bare).split("/");
    const fits = operations.filter(
      (op) =>
        op.method === method.toLowerCase() &&
        op.segments.length === segments.length &&
        op.segments.every((expected, i) => {
          const actual = segments[i] ?? "";
          return /^\{.*\}$/.test(expected) ? actual !== "" : expected.toLowerCase() === actual.toLowerCase();
        }),
    );
    return fits.sort((a, b) => b.literals - a.literals)[0]?.route;
  };

  /** The response object of `status` of `operation` with the pointer tokens of where it is, following one `$ref`. */
  const responseOf = (operation: string, status: number) => {
    const [method = "", path = ""] = operation.split(" ");
    const op = operations.find((candidate) => candidate.route === `${method.toUpperCase()} ${path}`);
    const responses = isObject(op?.operation.responses) ? op.operation.responses : {};
    const key = String(status) in responses ? String(status) : "default";
    const raw = responses[key];
    if (!op || raw === undefined) return undefined;
    const tokens =
      isObject(raw) && typeof raw.$ref === "string"
        ? raw.$ref
            .slice(2)
            .split("/")
            .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"))
        : ["paths", op.path, op.method, "responses", key];
    const response = deref(document, raw);
    return isObject(response) ? { response, tokens } : undefined;
  };

  return {
    replyProblems(operation, status, body) {
      const label = `${operation} ${status}`;
      const found = responseOf(operation, status);
      if (!found) return [`${label}: the document has no such reply (sent ${preview(body)})`];
      const media = isObject(found.response.content) ? found.response.content["application/json"] : undefined;
      const empty =
        body === undefined || body === "" || (isObject(body as Json) && Object.keys(body as object).length === 0);
      if (!isObject(media)) return empty ? [] : [`${label}: (body): the document has no JSON body for this reply`];
      return problemsAt(label, [...found.tokens, "content", "application/json", "schema"], body);
    },
    webhookProblems(body) {
      const type = isObject(body as Json) ? (body as JsonObject).type : undefined;
      const webhooks = isObject(document.webhooks) ? document.webhooks : {};
      if (typeof type !== "string" || !isObject(webhooks[type])) {
        const label = `webhook ${typeof type === "string" ? type : "(no type)"}`;
        return [`${label}: /type: no webhook of this type in the document (sent ${preview(type)})`];
      }
      return problemsAt(
        `webhook ${type}`,
        ["webhooks", type, "post", "requestBody", "content", "application/json", "schema"],
        body,
      );
    },
    undocumentedRouteProblems(route, status, body) {
      const label = `${route} ${status} (no such operation)`;
      if (status < 400) return [`${label}: (body): a success from a route the document does not have`];
      return problemsAt(label, ["components", "schemas", "Error"], body);
    },
    schemaProblems(label, schema, body) {
      const validate = ajv.compile(inDocument(closeSchema(document, schema)) as JsonObject);
      return describeErrors(errorsOf(validate, body), body).map((problem) => `${label}: ${problem}`);
    },
    operationOf,
    replyMediaTypes(operation, status) {
      const found = responseOf(operation, status);
      if (!found) return undefined;
      return isObject(found.response.content) ? Object.keys(found.response.content) : [];
    },
  };
}

let apiChecker: DocumentChecker | undefined;

/** The checker of `apps/api/openapi.json`, read from disk and compiled once per test file. */
export function apiDocumentChecker(): DocumentChecker {
  apiChecker ??= createDocumentChecker(
    JSON.parse(readFileSync(require.resolve("@lm/api/openapi.json"), "utf8")) as JsonObject,
  );
  return apiChecker;
}

/**
 * What is wrong with `body` as the reply `status` of `operation` (`"POST /v1/transactions"`) of
 * `apps/api/openapi.json`.
 * @returns problems such as `POST /v1/transactions 201: /pix/copy_paste: must match pattern "..." (sent "x")`; empty
 *   when the body conforms
 */
export function replyProblems(operation: string, status: number, body: unknown): string[] {
  return apiDocumentChecker().replyProblems(operation, status, body);
}

/**
 * What is wrong with `body` as a webhook of `apps/api/openapi.json`: `webhooks[body.type]`'s request body schema.
 * @returns problems such as `webhook transaction.paid: /data/object/amount: must be integer (sent 1.5)`
 */
export function webhookProblems(body: unknown): string[] {
  return apiDocumentChecker().webhookProblems(body);
}
