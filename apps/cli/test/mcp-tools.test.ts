/**
 * The tools of `lm mcp` as the OpenAPI document makes them: one per merchant operation, with input schemas a JSON
 * Schema 2020-12 validator compiles and the document's own request examples satisfy, withheld by the key's mode.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import {
  merchantTools,
  requestOf,
  ToolArgumentError,
  withheldBecause,
  type OpenApiDocument,
  type OperationTool,
} from "../src/mcp-tools";
import { operationsOf, parametersOf, refsUnder, type JsonObject } from "../../api/test/support/openapi-document";

const documentJson = JSON.parse(readFileSync(path.join(__dirname, "../../api/openapi.json"), "utf8")) as JsonObject &
  OpenApiDocument;

/** The merchant operations, found as the reference groups them: by the API key security scheme. */
const merchantOperations = operationsOf(documentJson).filter(({ operation }) =>
  JSON.stringify(operation.security).includes('"apiKey"'),
);

const tools = merchantTools(documentJson);
const toolNamed = (name: string): OperationTool => {
  const found = tools.find(({ tool }) => tool.name === name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
};
const offeredTo = (mode: "test" | "live", allowLiveWrites = false) =>
  tools.filter((tool) => withheldBecause(tool, { mode, allowLiveWrites }) === null).map(({ tool }) => tool.name);

describe("the tools of lm mcp", () => {
  test("when the document has merchant operations, then each has one tool named by its operationId, for its method and path", () => {
    const expected = merchantOperations.map(({ method, path: route, operation }) => ({
      name: operation.operationId,
      method,
      path: route,
    }));

    expect(tools.map(({ tool, method, path: route }) => ({ name: tool.name, method, path: route }))).toEqual(expected);
    expect(tools.length).toBeGreaterThanOrEqual(20);
  });

  test("when a tool is made, then its description starts with the summary and its schema has every parameter and the body, with no $ref left", () => {
    for (const operation of merchantOperations) {
      const { tool } = toolNamed(String(operation.operation.operationId));
      const properties = Object.keys(tool.inputSchema.properties ?? {});
      const expected = parametersOf(documentJson, operation).map((parameter) => String(parameter.name));
      if (operation.operation.requestBody !== undefined) expected.push("body");

      expect(tool.description?.startsWith(String(operation.operation.summary))).toBe(true);
      expect(properties).toEqual(expected);
      expect(refsUnder(tool.inputSchema as JsonObject)).toEqual([]);
    }
  });

  test("when the input schemas are compiled as JSON Schema 2020-12 in strict mode, then each compiles and the document's request examples are valid bodies", () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats(ajv);
    let checked = 0;
    for (const { tool } of tools) {
      ajv.compile(tool.inputSchema);
      const body = tool.inputSchema.properties?.body as { examples?: unknown[] } | undefined;
      if (body === undefined) continue;
      const validate = ajv.compile(body);
      for (const example of body.examples ?? []) {
        checked += 1;

        expect({ tool: tool.name, errors: validate(example) ? null : validate.errors }).toEqual({
          tool: tool.name,
          errors: null,
        });
      }
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });

  test("when the key is a test key, then every tool is offered, the simulate ones included", () => {
    expect(offeredTo("test")).toEqual(tools.map(({ tool }) => tool.name));
    expect(offeredTo("test")).toEqual(expect.arrayContaining(["simulatePayment", "simulateExpiration"]));
  });

  test("when the key is a live key, then only the tools that read are offered, and no test helper even with --allow-live-writes", () => {
    const testHelpers = tools.filter(({ testOnly }) => testOnly).map(({ tool }) => tool.name);
    const reads = tools
      .filter(({ method, tool }) => method === "get" && !testHelpers.includes(tool.name))
      .map(({ tool }) => tool.name);

    expect(offeredTo("live")).toEqual(reads);
    expect(testHelpers).toEqual(expect.arrayContaining(["simulatePayment", "simulateExpiration", "simulateDispute"]));
    expect(offeredTo("live", true)).toEqual(expect.arrayContaining(["createTransaction", "createRefund"]));
    expect(offeredTo("live", true).filter((name) => testHelpers.includes(name))).toEqual([]);
    expect(withheldBecause(toolNamed("createTransaction"), { mode: "live", allowLiveWrites: false })).toMatch(
      /--allow-live-writes/,
    );
  });

  test("when a call gives path, query and body arguments, then its request has them in place, and a fresh Idempotency-Key", () => {
    const refund = requestOf(toolNamed("createRefund"), { id: "txn_a/b", body: { amount: 100 } });
    const again = requestOf(toolNamed("createRefund"), { id: "txn_a/b", body: { amount: 100 } });
    const events = requestOf(toolNamed("listEvents"), { type: "transaction.paid", limit: 5 });
    const given = requestOf(toolNamed("createRefund"), { id: "txn_1", "Idempotency-Key": "order-42" });

    expect(refund).toEqual({
      method: "post",
      target: "/v1/transactions/txn_a%2Fb/refunds",
      headers: { "Idempotency-Key": expect.stringMatching(/^[0-9a-f-]{36}$/) },
      body: { amount: 100 },
    });
    expect(again.headers["Idempotency-Key"]).not.toBe(refund.headers["Idempotency-Key"]);
    expect(events).toEqual({ method: "get", target: "/v1/events?limit=5&type=transaction.paid", headers: {} });
    expect(given.headers).toEqual({ "Idempotency-Key": "order-42" });
  });

  test("when a call lacks a path parameter or names an argument the tool lacks, then a ToolArgumentError says which", () => {
    expect(() => requestOf(toolNamed("getTransaction"), {})).toThrow(new ToolArgumentError("getTransaction needs id."));
    expect(() => requestOf(toolNamed("getTransaction"), { id: "txn_1", amount: 1 })).toThrow(/has no argument amount/);
  });
});
