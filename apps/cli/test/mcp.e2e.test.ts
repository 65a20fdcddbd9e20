/**
 * `lm mcp` as an assistant's editor runs it: its own process, spoken to over stdio by the official SDK's `Client`,
 * against the API on a real port with the worker running, so that a charge paid with the simulate tool settles and
 * its `transaction.paid` event can be read back through a tool.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createTestMerchant, REPO_ROOT, waitUntil } from "@lm/testing";
import { useE2eTestContext } from "../../api/test/e2e/support/e2e-harness";
import { chargeBody } from "../../api/test/support/merchant-client";

const LM = path.join(__dirname, "..", "bin", "lm.cjs");

/** The text of a tool's result, which `lm mcp` fills with the API's reply. */
function textOf(result: unknown): string {
  const [content] = (result as CallToolResult).content;
  if (content?.type !== "text") throw new Error(`expected text content, got ${JSON.stringify(result)}`);
  return content.text;
}

describe("lm mcp, the merchant API as an assistant's tools", () => {
  const ctx = useE2eTestContext();
  let server: Server;
  let apiUrl: string;
  let testKey: string;
  let liveKey: string;
  const running: { client: Client; stderr: string[] }[] = [];

  /** `lm mcp` started with `key` and `args`, connected (the MCP handshake done), and what it wrote to stderr. */
  const connect = async (key: string, args: string[] = []) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [LM, "mcp", "--api-url", apiUrl, ...args],
      cwd: REPO_ROOT,
      env: { ...(process.env as Record<string, string>), LM_API_KEY: key },
      stderr: "pipe",
    });
    const stderr: string[] = [];
    transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString("utf8")));
    const client = new Client({ name: "lm-mcp-e2e", version: "0.0.0" });
    await client.connect(transport);
    running.push({ client, stderr });
    return { client, stderr };
  };
  const toolNames = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);

  beforeAll(async () => {
    server = ctx.app.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", resolve));
    apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    ({ testKey, liveKey } = await createTestMerchant(ctx.db));
  });

  afterEach(async () => {
    for (const { client } of running.splice(0)) await client.close();
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  test("when an assistant with a test key creates a charge, pays it with the simulate tool and reads its transaction.paid event, then every reply is the API's JSON", async () => {
    const { client, stderr } = await connect(testKey);

    const names = await toolNames(client);
    const created = await client.callTool({ name: "createTransaction", arguments: { body: chargeBody() } });
    const charge = JSON.parse(textOf(created));
    const paid = await client.callTool({ name: "simulatePayment", arguments: { id: charge.id } });
    const event = await waitUntil("the charge's transaction.paid event, read through listEvents", async () => {
      const listed = await client.callTool({ name: "listEvents", arguments: { type: "transaction.paid", limit: 10 } });
      const page = JSON.parse(textOf(listed)) as { data: { data: { object: { id: string } } }[] };
      return page.data.find((candidate) => candidate.data.object.id === charge.id);
    });

    expect(names).toEqual(expect.arrayContaining(["createTransaction", "simulatePayment", "listEvents", "getEvent"]));
    expect(created.isError).toBe(false);
    expect(charge).toMatchObject({ object: "transaction", mode: "test", status: "pending", amount: 1050 });
    expect(paid.isError).toBe(false);
    expect(JSON.parse(textOf(paid))).toMatchObject({ id: charge.id });
    expect(event).toMatchObject({ type: "transaction.paid", data: { object: { id: charge.id, status: "paid" } } });
    // The tools came from the API's own document, not from the checkout's copy.
    expect(stderr.join("")).toMatch(/serving \d+ merchant API tools for a test key/);
    expect(stderr.join("")).not.toMatch(/not from/);
  });

  test("when a tool's body is refused, then the result is an error carrying the API's envelope as it came, naming the field", async () => {
    const { client } = await connect(testKey);

    const refused = await client.callTool({ name: "createTransaction", arguments: { body: { amount: "ten" } } });

    expect(refused.isError).toBe(true);
    expect(JSON.parse(textOf(refused))).toEqual({
      error: {
        type: "invalid_request_error",
        code: "validation_failed",
        message: expect.any(String),
        param: "amount",
        request_id: expect.stringMatching(/^req_/),
      },
    });
  });

  test("when the key is live, then only the tools that read are listed, they work, and a write tool called anyway is refused before any request", async () => {
    const { client } = await connect(liveKey);

    const names = await toolNames(client);
    const refused = await client.callTool({ name: "createTransaction", arguments: { body: chargeBody() } });
    const helper = await client.callTool({ name: "simulatePayment", arguments: { id: "txn_x" } });
    const listed = await client.callTool({ name: "listTransactions", arguments: {} });

    expect(names).toEqual(expect.arrayContaining(["listTransactions", "getTransaction", "listEvents"]));
    expect(names.filter((name) => /^(create|cancel|simulate)/.test(name))).toEqual([]);
    expect(refused).toMatchObject({ isError: true });
    expect(textOf(refused)).toMatch(/read-only with a live key.*--allow-live-writes/);
    expect(textOf(helper)).toMatch(/test-mode helper/);
    expect(listed.isError).toBe(false);
    expect(JSON.parse(textOf(listed))).toEqual({ object: "list", data: [], has_more: false });
  });

  test("when the key is live and --allow-live-writes is given, then the write tools are listed, the test helpers still not", async () => {
    const { client } = await connect(liveKey, ["--allow-live-writes"]);

    const names = await toolNames(client);

    expect(names).toEqual(expect.arrayContaining(["createTransaction", "cancelTransaction", "createRefund"]));
    expect(names.filter((name) => name.startsWith("simulate"))).toEqual([]);
  });
});
