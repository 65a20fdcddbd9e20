/**
 * Checks each request against the schemas of its operation (schemas/) with ajv 8 and ajv-formats, and states every
 * failure as the standard's `Violacao` (`razao`, `propriedade`, `valor`).
 */
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { Violation } from "./problems";
import { payoutPathSchema, payoutRequestSchema } from "./schemas/efi.schemas";
import { tokenRequestSchema } from "./schemas/oauth.schemas";
import {
  cobRPathSchema,
  cobRRetryPathSchema,
  cobRRevisadaSchema,
  cobRSolicitadaSchema,
  locRecPathSchema,
  recListQuerySchema,
  recPathSchema,
  recQuerySchema,
  recRevisadaSchema,
  recSolicitadaSchema,
  solicRecPathSchema,
  solicRecSolicitadaSchema,
} from "./schemas/recurrence.schemas";
import {
  cobPathSchema,
  cobQuerySchema,
  cobRevisadaSchema,
  cobSolicitadaSchema,
  cobvRevisadaSchema,
  cobvSolicitadaSchema,
  loteCobvPathSchema,
  loteCobvSchema,
  devolucaoPathSchema,
  devolucaoSolicitadaSchema,
  pixListQuerySchema,
  pixPathSchema,
  webhookPathSchema,
  webhookSolicitadoSchema,
} from "./schemas/standard.schemas";

/** The operations the emulator serves. */
export type OperationName =
  | "token"
  | "cob.put"
  | "cob.get"
  | "cob.patch"
  | "cobv.put"
  | "cobv.get"
  | "cobv.patch"
  | "lotecobv.put"
  | "lotecobv.get"
  | "pix.get"
  | "pix.list"
  | "devolucao.put"
  | "devolucao.get"
  | "webhook.put"
  | "webhook.get"
  | "webhook.delete"
  | "payout.put"
  | "payout.get"
  | "locrec.post"
  | "locrec.get"
  | "rec.post"
  | "rec.list"
  | "rec.get"
  | "rec.patch"
  | "solicrec.post"
  | "solicrec.get"
  | "cobr.put"
  | "cobr.get"
  | "cobr.patch"
  | "cobr.retry"
  | "webhookrec.put"
  | "webhookrec.get"
  | "webhookcobr.put"
  | "webhookcobr.get";

/** A request's parts as the server parsed them: path parameters (decoded), query parameters, JSON body. */
export interface RequestParts {
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** `undefined` when the request had no body, or when it was not JSON (then `unparsableBody` is set). */
  body: unknown;
  unparsableBody?: boolean;
}

interface OperationSchemas {
  /** Prefix of a body field's `propriedade` (`cob.valor.original`). */
  resource: string;
  params?: object;
  /** Absent: the operation takes no query parameters. */
  query?: object;
  /** Absent: the operation takes no body (one sent anyway is ignored, as HTTP allows). */
  body?: object;
}

const NO_QUERY = { type: "object", additionalProperties: false } as const;

const OPERATIONS: Record<OperationName, OperationSchemas> = {
  token: { resource: "token", body: tokenRequestSchema },
  "cob.put": { resource: "cob", params: cobPathSchema, body: cobSolicitadaSchema },
  "cob.get": { resource: "cob", params: cobPathSchema, query: cobQuerySchema },
  "cob.patch": { resource: "cob", params: cobPathSchema, body: cobRevisadaSchema },
  "cobv.put": { resource: "cobv", params: cobPathSchema, body: cobvSolicitadaSchema },
  "cobv.get": { resource: "cobv", params: cobPathSchema, query: cobQuerySchema },
  "cobv.patch": { resource: "cobv", params: cobPathSchema, body: cobvRevisadaSchema },
  "lotecobv.put": { resource: "lotecobv", params: loteCobvPathSchema, body: loteCobvSchema },
  "lotecobv.get": { resource: "lotecobv", params: loteCobvPathSchema },
  "pix.get": { resource: "pix", params: pixPathSchema },
  "pix.list": { resource: "pix", query: pixListQuerySchema },
  "devolucao.put": { resource: "devolucao", params: devolucaoPathSchema, body: devolucaoSolicitadaSchema },
  "devolucao.get": { resource: "devolucao", params: devolucaoPathSchema },
  "webhook.put": { resource: "webhook", params: webhookPathSchema, body: webhookSolicitadoSchema },
  "webhook.get": { resource: "webhook", params: webhookPathSchema },
  "webhook.delete": { resource: "webhook", params: webhookPathSchema },
  "payout.put": { resource: "envio", params: payoutPathSchema, body: payoutRequestSchema },
  "payout.get": { resource: "envio", params: payoutPathSchema },
  "locrec.post": { resource: "locrec" },
  "locrec.get": { resource: "locrec", params: locRecPathSchema },
  "rec.post": { resource: "rec", body: recSolicitadaSchema },
  "rec.list": { resource: "rec", query: recListQuerySchema },
  "rec.get": { resource: "rec", params: recPathSchema, query: recQuerySchema },
  "rec.patch": { resource: "rec", params: recPathSchema, body: recRevisadaSchema },
  "solicrec.post": { resource: "solicrec", body: solicRecSolicitadaSchema },
  "solicrec.get": { resource: "solicrec", params: solicRecPathSchema },
  "cobr.put": { resource: "cobr", params: cobRPathSchema, body: cobRSolicitadaSchema },
  "cobr.get": { resource: "cobr", params: cobRPathSchema },
  "cobr.patch": { resource: "cobr", params: cobRPathSchema, body: cobRRevisadaSchema },
  "cobr.retry": { resource: "cobr", params: cobRRetryPathSchema },
  "webhookrec.put": { resource: "webhookrec", body: webhookSolicitadoSchema },
  "webhookrec.get": { resource: "webhookrec" },
  "webhookcobr.put": { resource: "webhookcobr", body: webhookSolicitadoSchema },
  "webhookcobr.get": { resource: "webhookcobr" },
};

/**
 * A compiler per part: query and path strings are coerced to the schema's types (`"2"` → 2, `"true"` → true).
 * Strict, except that `required` may name properties declared beside it rather than inside (`not: {required}`).
 */
function compiler(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, verbose: true, coerceTypes });
  addFormats(ajv);
  return ajv;
}

interface CompiledOperation {
  resource: string;
  params?: ValidateFunction;
  query: ValidateFunction;
  body?: ValidateFunction;
}

/** Every operation's validators, compiled once at load so that a schema mistake fails at start, not mid-request. */
const COMPILED = ((): Record<OperationName, CompiledOperation> => {
  const bodyAjv = compiler(false);
  const paramAjv = compiler(true);
  const entries = Object.entries(OPERATIONS).map(([name, schemas]) => [
    name,
    {
      resource: schemas.resource,
      params: schemas.params && paramAjv.compile(schemas.params),
      query: paramAjv.compile(schemas.query ?? NO_QUERY),
      body: schemas.body && bodyAjv.compile(schemas.body),
    },
  ]);
  return Object.fromEntries(entries) as Record<OperationName, CompiledOperation>;
})();

/** The standard's dotted field path of an ajv error, under `prefix` (empty for parameters). */
function propertyOf(error: ErrorObject, prefix: string): string {
  const segments = error.instancePath.split("/").slice(1);
  if (error.keyword === "required") segments.push(String(error.params.missingProperty));
  if (error.keyword === "additionalProperties") segments.push(String(error.params.additionalProperty));
  return [prefix, ...segments].filter((segment) => segment !== "").join(".");
}

function toViolations(errors: ErrorObject[] | null | undefined, prefix: string): Violation[] {
  return (errors ?? []).map((error) => {
    const violation: Violation = {
      razao:
        error.keyword === "additionalProperties" ? "is not a field of the standard's schema" : (error.message ?? ""),
      propriedade: propertyOf(error, prefix) || prefix || "(request)",
    };
    if (["string", "number", "boolean"].includes(typeof error.data) && error.keyword !== "additionalProperties") {
      violation.valor = String(error.data);
    }
    return violation;
  });
}

/**
 * Every way `request` breaks the schemas of `operation` (empty when it conforms). Query values are coerced in
 * place to the types the schema names, so the route reads numbers and booleans.
 */
export function validateRequest(operation: OperationName, request: RequestParts): Violation[] {
  const compiled = COMPILED[operation];
  const violations: Violation[] = [];
  if (compiled.params && !compiled.params(request.params)) {
    violations.push(...toViolations(compiled.params.errors, ""));
  }
  if (!compiled.query(request.query)) violations.push(...toViolations(compiled.query.errors, ""));
  if (compiled.body) {
    if (request.unparsableBody) {
      violations.push({
        razao: "the body could not be parsed (JSON, or a form for the token)",
        propriedade: compiled.resource,
      });
    } else if (request.body === undefined) {
      violations.push({ razao: "a JSON body is required", propriedade: compiled.resource });
    } else if (!compiled.body(request.body)) {
      violations.push(...toViolations(compiled.body.errors, compiled.resource));
    }
  }
  return violations;
}

/** A violation as one line (`cob.valor.original: must match pattern …`), for `requests()` and `violations()`. */
export function describeViolation(violation: Violation): string {
  return `${violation.propriedade}: ${violation.razao}`;
}
