/**
 * A property-based fuzzer of the whole HTTP surface, shared by the Jest test and
 * `npm run fuzz`. Every operation of `apps/api/openapi.json` is reached through supertest against `createApp`, with
 * generated hostile path parameters (bad percent-encoding, NUL, lone surrogates, long and odd text), query strings,
 * JSON bodies built from the documented fields (and stray ones), raw bodies, content types and headers, with no
 * credentials, a test API key, a stepped-up owner's session or an operator's session.
 *
 * The properties checked for each case: no 5xx; every 4xx is the spec's envelope with a catalog code and the reply's
 * request id; the reply comes within {@link CASE_DEADLINE_MS}; and a refused request (4xx) changed no row (a digest
 * of every table before and after, leaving out the columns that record a visit: a session's sliding life and an API
 * key's `last_used_at`, which any authenticated request may touch).
 */
import fc from "fast-check";
import { readFileSync } from "node:fs";
import path from "node:path";
import request from "supertest";
import { ERROR_CATALOG } from "@lm/domain";
import type { ApiTestContext } from "../support/harness";
import {
  deref,
  isObject,
  operationsOf,
  parametersOf,
  type DocumentedOperation,
  type JsonObject,
} from "../support/openapi-document";
import { PANEL_ORIGIN, signInOps } from "../support/panel";
import { signUpSteppedUp } from "../support/two-factor";
import { createTestMerchant } from "@lm/testing";

/** Longest a reply may take before the case counts as a hang, ms. */
export const CASE_DEADLINE_MS = 10_000;

/** The OpenAPI document, read once. */
const DOCUMENT = JSON.parse(readFileSync(path.join(__dirname, "../../openapi.json"), "utf8")) as JsonObject;
/** Every documented operation: the fuzzer's targets. */
export const OPERATIONS: DocumentedOperation[] = operationsOf(DOCUMENT);

/** Operations whose success would end the seeded sessions: fuzzed without them, so later cases stay authenticated. */
const ENDS_THE_SESSION = new Set([
  "POST /v1/me/auth/sign-out",
  "DELETE /v1/me/sessions/{id}",
  "POST /v1/me/auth/two-factor/disable",
]);

/** Credentials a case may carry, and ids of real resources for path parameters. */
export interface FuzzCredentials {
  apiKey: string;
  /** `lm.session=...` of an owner with 2FA on and a live step-up. */
  ownerCookie: string;
  /** `lm.session=...` of an operator. */
  opsCookie: string;
  /** Ids of the seeded charge, its event, its inbox item, an endpoint and a delivery, so cases reach past the 404s. */
  resourceIds: string[];
}

/** Seeds a merchant with a paid-for charge, a stepped-up owner with an endpoint and a ping, and an operator. */
export async function seedCredentials(ctx: ApiTestContext): Promise<FuzzCredentials> {
  const merchant = await createTestMerchant(ctx.db, { encryptionKey: ctx.config.encryptionKey });
  const owner = await signUpSteppedUp(ctx);
  const ops = await signInOps(ctx);
  const asMerchant = (r: request.Test) => r.set("Authorization", `Bearer ${merchant.testKey}`);
  const asOwner = (r: request.Test) => r.set("Cookie", owner.cookie).set("Origin", PANEL_ORIGIN);
  const charge = await asMerchant(request(ctx.app).post("/v1/transactions")).send({ amount: 1000 }).expect(201);
  await asMerchant(request(ctx.app).post(`/v1/transactions/${charge.body.id}/simulate-payment`)).expect(202);
  const endpoint = await asOwner(request(ctx.app).post("/v1/me/webhook-endpoints"))
    .send({ url: "http://localhost:9/fuzz", events: ["*"] })
    .expect(201);
  const ping = await asOwner(request(ctx.app).post(`/v1/me/webhook-endpoints/${endpoint.body.id}/ping`)).expect(202);
  const event = await ctx.db.event.findFirstOrThrow({ where: { type: "transaction.created" } });
  const item = await ctx.db.inboxItem.findFirstOrThrow();
  return {
    apiKey: merchant.testKey,
    ownerCookie: owner.cookie,
    opsCookie: ops.cookie,
    resourceIds: [charge.body.id, event.id, item.id, endpoint.body.id, ping.body.id],
  };
}

// ---- generated input ----------------------------------------------------------------------------------------------

/** Text a database, a URL decoder or a validator may choke on. */
const NASTY_TEXT = [
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udfff",
  "\udc00\ud800",
  "😀",
  "%",
  "%FF",
  "%E0%A4%A",
  "%C0%AE",
  "../../etc/passwd",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "${jndi:ldap://x}",
  "\r\nX-Injected: 1",
  "txn_01HZZZZZZZZZZZZZZZZZZZZZZZ",
  "sk_test_0000000000000000000000000000000",
  "ses_00000000000000000000000000000000",
  "00000000-0000-0000-0000-000000000000",
  "sandbox",
  "-1",
  "1e309",
  "NaN",
  "",
  " ",
  "\u202e",
  "\ufeff",
];

/** Any string, often a hostile one, sometimes long. */
const text: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_TEXT) },
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.string({ maxLength: 10 }), fc.constantFrom(...NASTY_TEXT)).map(([a, b]) => a + b),
  },
  { weight: 1, arbitrary: fc.nat({ max: 1500 }).map((n) => "a".repeat(n)) },
);

/** Any JSON value, hostile strings included, nested a little. */
const jsonValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    text,
    fc.integer(),
    fc.double(),
    fc.constantFrom(0, -1, 1, 2 ** 31, 2 ** 53, Number.MAX_SAFE_INTEGER + 2, 1.5, true, false, null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(text, tie("value"), { maxKeys: 4 }),
  ),
})).value;

/** Percent-encodes every UTF-8 byte that is not unreserved (lone surrogates become U+FFFD, as Buffer writes them). */
function percentEncode(value: string): string {
  return [...Buffer.from(value, "utf8")]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");
}

/** A path or query value as it goes on the wire: encoded, or raw bad encodings and NUL escapes. */
const wireText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: text.map(percentEncode) },
  { weight: 2, arbitrary: fc.constantFrom("%FF", "%E0%A4%A", "%C0%AE", "%00", "%", "%ED%A0%80", "%2F..%2F", "%25") },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 8 }).map(percentEncode), fc.constantFrom("%FF", "%00", "%C0"))
      .map(([a, b]) => a + b),
  },
);

/** Header values Node's HTTP client accepts (no control characters but tab, Latin-1 at most). */
const headerValue: fc.Arbitrary<string> = fc.oneof(
  fc.string({
    unit: fc
      .integer({ min: 0x20, max: 0xff })
      .filter((c) => c !== 0x7f)
      .map((c) => String.fromCharCode(c)),
    maxLength: 200,
  }),
  fc.constantFrom("", "\t", "ÿÿÿ", "x".repeat(2000), "req_ok-123", "Bearer sk_test_xxx", "http://panel.test", "null"),
);

/** One generated request. */
export interface FuzzCase {
  operation: number;
  auth: "none" | "apiKey" | "owner" | "ops";
  pathValues: string[];
  query: Array<[string, string]>;
  body: { kind: "none" } | { kind: "json"; value: unknown } | { kind: "raw"; text: string; contentType: string };
  headers: Array<[string, string]>;
}

/** A body for `op`: its documented fields with any values, plus stray ones; or any JSON; or raw text. */
function bodyFor(op: DocumentedOperation): fc.Arbitrary<FuzzCase["body"]> {
  const content = deref(DOCUMENT, op.operation.requestBody);
  const media = isObject(content) && isObject(content.content) ? content.content["application/json"] : undefined;
  const schema = deref(DOCUMENT, isObject(media) ? media.schema : undefined);
  const fields = isObject(schema) && isObject(schema.properties) ? Object.keys(schema.properties) : [];
  const documented = fc
    .tuple(fc.subarray(fields), fc.dictionary(text, jsonValue, { maxKeys: 2 }))
    .chain(([names, stray]) =>
      fc
        .tuple(...names.map(() => jsonValue))
        .map((values) => ({ ...stray, ...Object.fromEntries(names.map((n, i) => [n, values[i]])) })),
    );
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant({ kind: "none" as const }) },
    { weight: 5, arbitrary: documented.map((value) => ({ kind: "json" as const, value })) },
    { weight: 2, arbitrary: jsonValue.map((value) => ({ kind: "json" as const, value })) },
    {
      weight: 1,
      arbitrary: fc
        .record({
          text: fc.oneof(text, fc.constantFrom('{"a":', "[[[[", '{"a":"\\ud800"}', '{"a":"\\u0000"}', "{}")),
          contentType: fc.constantFrom(
            "application/json",
            "text/plain",
            "application/x-www-form-urlencoded",
            "application/json; charset=latin1",
            "",
          ),
        })
        .map((raw) => ({ kind: "raw" as const, ...raw })),
    },
  );
}

/** Cases over every documented operation; path parameters are hostile text or the ids of `resourceIds`. */
export function fuzzCases(resourceIds: string[]): fc.Arbitrary<FuzzCase> {
  const pathValue = fc.oneof(
    { weight: 3, arbitrary: wireText },
    { weight: 1, arbitrary: fc.constantFrom(...resourceIds) },
  );
  return fc.nat({ max: OPERATIONS.length - 1 }).chain((index) => {
    const op = OPERATIONS[index]!;
    const params = parametersOf(DOCUMENT, op);
    const pathNames = params.filter((p) => p.in === "path").map((p) => String(p.name));
    const queryNames = params.filter((p) => p.in === "query").map((p) => String(p.name));
    const queryName =
      queryNames.length > 0
        ? fc.oneof(fc.constantFrom(...queryNames), text.map(percentEncode))
        : text.map(percentEncode);
    return fc.record({
      operation: fc.constant(index),
      auth: fc.constantFrom("none" as const, "apiKey" as const, "owner" as const, "ops" as const),
      pathValues: fc.tuple(...pathNames.map(() => pathValue)),
      query: fc.array(fc.tuple(queryName, wireText), { maxLength: 4 }),
      body: bodyFor(op),
      headers: fc.array(
        fc.tuple(
          fc.constantFrom(
            "user-agent",
            "x-request-id",
            "idempotency-key",
            "origin",
            "referer",
            "authorization",
            "cookie",
            "x-forwarded-for",
            "accept",
            "x-acquirer-signature",
            "content-encoding",
          ),
          fc.oneof(headerValue, fc.constantFrom("gzip", "deflate", "br", "identity")),
        ),
        { maxLength: 3 },
      ),
    });
  });
}

// ---- running and judging a case -------------------------------------------------------------------------------------

/** Columns that record a visit, touched by authenticated requests whatever their outcome. */
const VISIT_COLUMNS: Record<string, string[]> = {
  sessions: ["last_seen_at", "expires_at"],
  api_keys: ["last_used_at"],
};

/**
 * A digest of every row of every table (visit columns left out), in one statement.
 * @returns table name → md5 of its rows
 */
export async function tableDigests(db: ApiTestContext["db"]): Promise<Record<string, string>> {
  const tables = await db.$queryRaw<Array<{ table_name: string }>>`
    SELECT table_name FROM information_schema.tables
    WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations' ORDER BY table_name`;
  const parts = tables.map(({ table_name: table }) => {
    const dropped = (VISIT_COLUMNS[table] ?? []).map((column) => ` - '${column}'`).join("");
    return `SELECT '${table}' AS name, coalesce(md5(string_agg(md5((to_jsonb(t)${dropped})::text), ',' ORDER BY md5((to_jsonb(t)${dropped})::text))), '') AS digest FROM "${table}" t`;
  });
  const rows = await db.$queryRawUnsafe<Array<{ name: string; digest: string }>>(parts.join(" UNION ALL "));
  return Object.fromEntries(rows.map((row) => [row.name, row.digest]));
}

/** What a case did and what was wrong with it (empty when every property held). */
export interface CaseOutcome {
  route: string;
  status: number | null;
  problems: string[];
}

const ERROR_TYPES = new Set(Object.values(ERROR_CATALOG).map((entry) => entry.type));

/** The envelope problems of a 4xx reply. */
function envelopeProblems(res: request.Response): string[] {
  const error = isObject(res.body) ? (res.body as JsonObject).error : undefined;
  if (!isObject(error)) return [`${res.status} without the error envelope: ${res.text.slice(0, 200)}`];
  const problems: string[] = [];
  const entry =
    typeof error.code === "string"
      ? (ERROR_CATALOG as Record<string, { status: number; type: string }>)[error.code]
      : undefined;
  if (!entry) problems.push(`unknown error code ${String(error.code)}`);
  else if (entry.status !== res.status) problems.push(`code ${String(error.code)} with status ${res.status}`);
  if (typeof error.type !== "string" || !ERROR_TYPES.has(error.type as never))
    problems.push(`bad error type ${String(error.type)}`);
  if (typeof error.message !== "string") problems.push("error without a message");
  if (error.param !== undefined && typeof error.param !== "string") problems.push("param is not a string");
  if (typeof error.request_id !== "string" || error.request_id !== res.headers["x-request-id"])
    problems.push("request_id differs from X-Request-Id");
  const extra = Object.keys(error).filter((key) => !["type", "code", "message", "param", "request_id"].includes(key));
  if (extra.length > 0) problems.push(`extra envelope fields ${extra.join(", ")}`);
  return problems;
}

/** The request of `fuzz` for `credentials`, ready to send. */
function buildRequest(
  ctx: ApiTestContext,
  credentials: FuzzCredentials,
  fuzz: FuzzCase,
): { route: string; test: request.Test } {
  const op = OPERATIONS[fuzz.operation]!;
  let index = 0;
  const urlPath = op.path.replace(/\{[^}]+\}/g, () => fuzz.pathValues[index++] ?? "x");
  const query = fuzz.query.map(([name, value]) => `${name}=${value}`).join("&");
  const url = query === "" ? urlPath : `${urlPath}?${query}`;
  let test = (request(ctx.app) as unknown as Record<string, (url: string) => request.Test>)[op.method]!(url);
  const endsSession = ENDS_THE_SESSION.has(op.route);
  if (fuzz.auth === "apiKey") test = test.set("Authorization", `Bearer ${credentials.apiKey}`);
  if (fuzz.auth === "owner" && !endsSession)
    test = test.set("Cookie", credentials.ownerCookie).set("Origin", PANEL_ORIGIN);
  if (fuzz.auth === "ops" && !endsSession) test = test.set("Cookie", credentials.opsCookie).set("Origin", PANEL_ORIGIN);
  for (const [name, value] of fuzz.headers) {
    // A stray cookie or authorization header must not replace the seeded ones of a session-ending route.
    if (endsSession && (name === "cookie" || name === "authorization")) continue;
    test = test.set(name, value);
  }
  if (fuzz.body.kind === "json")
    test = test.set("Content-Type", "application/json").send(JSON.stringify(fuzz.body.value ?? null));
  if (fuzz.body.kind === "raw") {
    if (fuzz.body.contentType !== "") test = test.set("Content-Type", fuzz.body.contentType);
    test = test.send(fuzz.body.text);
  }
  return { route: op.route, test: test.timeout({ deadline: CASE_DEADLINE_MS }) };
}

/**
 * Sends one case and judges it.
 * @param before - the table digests before the case (from the previous case's `after`)
 * @returns the outcome and the digests after the case
 */
export async function runCase(
  ctx: ApiTestContext,
  credentials: FuzzCredentials,
  fuzz: FuzzCase,
  before: Record<string, string>,
): Promise<{ outcome: CaseOutcome; after: Record<string, string> }> {
  const { route, test } = buildRequest(ctx, credentials, fuzz);
  let res: request.Response;
  try {
    res = await test;
  } catch (err) {
    const timedOut = (err as { timeout?: unknown }).timeout !== undefined;
    const after = await tableDigests(ctx.db);
    return {
      outcome: {
        route,
        status: null,
        problems: [timedOut ? `no reply within ${CASE_DEADLINE_MS} ms` : `request failed: ${String(err)}`],
      },
      after,
    };
  }
  const after = await tableDigests(ctx.db);
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`${res.status}: ${res.text.slice(0, 300)}`);
  if (res.status >= 400 && res.status < 500) {
    problems.push(...envelopeProblems(res));
    const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
    if (changed.length > 0) problems.push(`refused with ${res.status} but changed ${changed.join(", ")}`);
  }
  return { outcome: { route, status: res.status, problems }, after };
}
