import request from "supertest";
import { ERROR_CATALOG, type ErrorCode } from "@lm/domain";
import { useApiTestContext } from "../support/harness";
import { mountedRoutes } from "../support/mounted-routes";
import {
  deref,
  errorCodesOf,
  isObject,
  operationsOf,
  parametersOf,
  refsUnder,
  resolvePointer,
  schemasUnder,
  type JsonObject,
} from "../support/openapi-document";

/** The message of the app's unknown-route 404 (error-handler.ts `unknownRoute`). */
const UNKNOWN_ROUTE_MESSAGE = "Unrecognised request URL.";

describe("openapi.json", () => {
  // METRICS_TOKEN mounts GET /metrics on the public port, so it is checked against the document like every route.
  const ctx = useApiTestContext({ METRICS_TOKEN: "metrics-token-for-tests-0123456789abcdef" });
  let document: JsonObject;

  beforeAll(async () => {
    const res = await request(ctx.app).get("/openapi.json");
    if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}`);
    document = res.body as JsonObject;
  });

  const components = (kind: string): JsonObject => {
    const all = isObject(document.components) ? document.components : {};
    const found = all[kind];
    return isObject(found) ? found : {};
  };

  test("when GET /openapi.json is asked without credentials, then 200 with OpenAPI 3.1, version 0.0.0 and PUBLIC_BASE_URL as server", async () => {
    const res = await request(ctx.app).get("/openapi.json");

    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.body.openapi).toMatch(/^3\.1\.\d+$/);
    expect(res.body.info).toEqual(expect.objectContaining({ title: expect.any(String), version: "0.0.0" }));
    expect(res.body.servers).toEqual([{ url: ctx.config.publicBaseUrl }]);
  });

  describe("routes", () => {
    test("when the app mounts a route, then openapi.json documents its method and path", () => {
      const documented = new Set(operationsOf(document).map((op) => op.route));

      const undocumented = mountedRoutes(ctx.app).filter((route) => !documented.has(route));

      expect(undocumented).toEqual([]);
    });

    test("when openapi.json documents an operation, then the app mounts that method and path", () => {
      const mounted = new Set(mountedRoutes(ctx.app));

      const phantom = operationsOf(document)
        .map((op) => op.route)
        .filter((route) => !mounted.has(route));

      expect(phantom).toEqual([]);
    });

    test("when each documented operation is requested, then a route answers it rather than the unknown-route 404", async () => {
      const unanswered: string[] = [];
      for (const op of operationsOf(document)) {
        const url = op.path.replace(/\{\w+\}/g, "x");
        const res = await request(ctx.app)[op.method](url);
        if (res.status === 404 && res.body?.error?.message === UNKNOWN_ROUTE_MESSAGE) unanswered.push(op.route);
      }

      expect(unanswered).toEqual([]);
      expect(operationsOf(document).length).toBeGreaterThan(30);
    }, 30_000);
  });

  describe("structure", () => {
    test("when the document refers to a component with $ref, then the reference resolves", () => {
      const dangling = refsUnder(document).filter(({ ref }) => resolvePointer(document, ref) === undefined);

      expect(dangling).toEqual([]);
    });

    test("when a path has a {parameter}, then each operation declares it in: path, required, and declares no other path parameter", () => {
      const problems: string[] = [];
      for (const op of operationsOf(document)) {
        const inTemplate = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
        const declared = parametersOf(document, op).filter((p) => p.in === "path");
        const names = declared.map((p) => String(p.name)).sort();
        if (JSON.stringify(names) !== JSON.stringify(inTemplate))
          problems.push(`${op.route}: declares [${names.join(", ")}]`);
        for (const p of declared) if (p.required !== true) problems.push(`${op.route}: ${String(p.name)} not required`);
      }

      expect(problems).toEqual([]);
    });

    test("when an operation is documented, then it has a unique operationId, a declared tag, explicit known security and a 2xx reply", () => {
      const schemes = Object.keys(components("securitySchemes"));
      const tags = (Array.isArray(document.tags) ? document.tags : []).map((t) => (isObject(t) ? t.name : undefined));
      const problems: string[] = [];
      const ids = new Set<string>();
      for (const { route, operation } of operationsOf(document)) {
        const id = operation.operationId;
        if (typeof id !== "string" || ids.has(id)) problems.push(`${route}: operationId ${String(id)}`);
        ids.add(String(id));
        const opTags = Array.isArray(operation.tags) ? operation.tags : [];
        if (opTags.length === 0 || opTags.some((t) => !tags.includes(t))) problems.push(`${route}: tags`);
        if (!Array.isArray(operation.security)) problems.push(`${route}: no explicit security`);
        const required = (Array.isArray(operation.security) ? operation.security : []).flatMap((r) =>
          isObject(r) ? Object.keys(r) : [],
        );
        for (const name of required)
          if (!schemes.includes(name)) problems.push(`${route}: unknown security scheme ${name}`);
        const statuses = Object.keys(isObject(operation.responses) ? operation.responses : {});
        if (!statuses.some((s) => /^2\d\d$/.test(s))) problems.push(`${route}: no 2xx reply`);
        if (statuses.some((s) => !/^([1-5]\d\d|[1-5]XX|default)$/.test(s))) problems.push(`${route}: bad status key`);
      }

      expect(problems).toEqual([]);
    });

    test("when an operation always needs a session or API key, then it documents 401 authentication_required", () => {
      const missing = operationsOf(document)
        .filter(({ operation }) => {
          const security = Array.isArray(operation.security) ? operation.security : [];
          return security.length > 0 && security.every((r) => isObject(r) && Object.keys(r).length > 0);
        })
        .filter(({ operation }) => {
          const responses = isObject(operation.responses) ? operation.responses : {};
          return !errorCodesOf(document, responses["401"]).includes("authentication_required");
        })
        .map((op) => op.route);

      expect(missing).toEqual([]);
    });

    test("when a schema lists required properties, then each is among its properties or those of its allOf parts", () => {
      const problems: string[] = [];
      for (const schema of schemasUnder(document)) {
        if (!Array.isArray(schema.required)) continue;
        const parts = [schema, ...(Array.isArray(schema.allOf) ? schema.allOf : [])].map((p) =>
          isObject(p) && typeof p.$ref === "string" ? resolvePointer(document, p.$ref) : p,
        );
        const known = parts.flatMap((p) => (isObject(p) && isObject(p.properties) ? Object.keys(p.properties) : []));
        for (const name of schema.required) if (!known.includes(String(name))) problems.push(String(name));
      }

      expect(problems).toEqual([]);
    });
  });

  describe("errors", () => {
    test("when an operation documents an error envelope, then it names codes of the error catalog with that HTTP status", () => {
      const problems: string[] = [];
      for (const { route, operation } of operationsOf(document)) {
        for (const [status, response] of Object.entries(isObject(operation.responses) ? operation.responses : {})) {
          const codes = errorCodesOf(document, response);
          if (status === "default" || Number(status) < 400) {
            if (codes.length > 0 && status !== "default") problems.push(`${route} ${status}: error codes on a success`);
            continue;
          }
          // A reply outside the envelope (503 of /ready) names no code; an envelope must name its codes.
          const generic = refsUnder(deref(document, response)).some(({ ref }) => ref === "#/components/schemas/Error");
          if (generic) problems.push(`${route} ${status}: names no Error.<code>`);
          for (const code of codes) {
            const entry = ERROR_CATALOG[code as ErrorCode] as { status: number } | undefined;
            if (entry?.status !== Number(status))
              problems.push(`${route} ${status}: ${code} is ${String(entry?.status)}`);
          }
        }
      }

      expect(problems).toEqual([]);
    });

    test("when the error catalog has a code, then the Error schema and an Error.<code> schema name it with its type", () => {
      const schemas = components("schemas");
      const envelope = resolvePointer(document, "#/components/schemas/Error/properties/error/properties/code/enum");
      const typed = Object.keys(ERROR_CATALOG).map((code) => [
        code,
        resolvePointer(document, `#/components/schemas/Error.${code}/properties/error/properties/type/const`),
        resolvePointer(document, `#/components/schemas/Error.${code}/properties/error/properties/code/const`),
      ]);

      expect(envelope).toEqual(Object.keys(ERROR_CATALOG));
      expect(typed).toEqual(Object.entries(ERROR_CATALOG).map(([code, { type }]) => [code, type, code]));
      expect(Object.keys(schemas).filter((name) => name.startsWith("Error.")).length).toBe(
        Object.keys(ERROR_CATALOG).length,
      );
    });
  });
});
