/**
 * The API and worker as real processes, run as `npm start` runs them (the bundles `npm run build` writes, with the
 * flags of `npm run start:api` and `start:worker`): start-up refuses bad configuration, serves probes, stops on
 * SIGTERM, and a charge's event goes from the API through the worker to the store's endpoint.
 */
import type { ChildProcess } from "node:child_process";
import { createDb } from "@lm/db";
import {
  REPO_ROOT,
  TEST_ENCRYPTION_KEY,
  createEndpointRow,
  createTestDatabase,
  createTestMerchant,
  serviceCommand,
  startWatchedProcess,
  startWebhookReceiver,
  testConfig,
  type ServiceName,
  type TestDatabase,
} from "@lm/testing";
import { buildServices } from "../../../../scripts/build";

/** Every process a test started, so that one a failed test left running is stopped after it (else Jest never exits). */
const started = new Set<ChildProcess>();

function startProcess(service: ServiceName, env: Record<string, string>) {
  // node itself runs the bundle (no npm in between), so signals reach our own handlers directly.
  const { nodeArgs, bundle } = serviceCommand(service);
  const proc = startWatchedProcess(process.execPath, [...nodeArgs, bundle], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
  });
  started.add(proc.child);
  proc.child.on("exit", () => started.delete(proc.child));
  return proc;
}

describe("processes", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    await buildServices();
    database = await createTestDatabase();
  }, 60_000);
  afterEach(() => {
    for (const child of started) child.kill("SIGKILL");
  });
  afterAll(async () => {
    await database.drop();
  });

  test("when DATABASE_URL is nonsense, then the API exits 1 with a message naming the variable", async () => {
    const proc = startProcess("api", { DATABASE_URL: "nonsense", PORT: "0" });

    expect(await proc.exited).toBe(1);
    expect(proc.output()).toMatch(/DATABASE_URL/);
  }, 30_000);

  test("when the API gets SIGTERM after serving, then it stops accepting, closes its connections and exits 0", async () => {
    const proc = startProcess("api", { DATABASE_URL: database.url, PORT: "0", LOG_LEVEL: "info" });
    const port = Number((await proc.waitFor(/"port":(\d+)/))[1]);
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    // Files the bundle finds at run time: the OpenAPI document, the reference page the build rendered, and its menu
    // script.
    const document = await fetch(`http://127.0.0.1:${port}/openapi.json`);
    const docs = await fetch(`http://127.0.0.1:${port}/docs`);
    const nav = await fetch(`http://127.0.0.1:${port}/docs/nav.js`);
    expect(health.status).toBe(200);
    expect(((await document.json()) as { openapi: string }).openapi).toMatch(/^3\./);
    expect({ status: docs.status, rendered: (await docs.text()).includes("Create a Pix charge") }).toEqual({
      status: 200,
      rendered: true,
    });
    expect(nav.status).toBe(200);

    proc.child.kill("SIGTERM");

    expect(await proc.exited).toBe(0);
    expect(proc.output()).toMatch(/api stopped/);
  }, 30_000);

  test("when the worker starts, then it logs that it is consuming; on SIGTERM it exits 0", async () => {
    const prefix = testConfig(database.url).queuePrefix;
    const proc = startProcess("worker", {
      DATABASE_URL: database.url,
      QUEUE_PREFIX: prefix,
      LOG_LEVEL: "info",
    });
    await proc.waitFor(/worker consuming/);

    proc.child.kill("SIGTERM");

    expect(await proc.exited).toBe(0);
    expect(proc.output()).toMatch(/worker stopped/);
  }, 30_000);

  test("when the API and the worker run with METRICS_PORT, then each serves its own metrics there, without a token", async () => {
    const prefix = testConfig(database.url).queuePrefix;
    const env = { DATABASE_URL: database.url, QUEUE_PREFIX: prefix, LOG_LEVEL: "info", PORT: "0", METRICS_PORT: "0" };
    const api = startProcess("api", env);
    const worker = startProcess("worker", env);
    const scrape = async (proc: ReturnType<typeof startProcess>) => {
      const port = Number((await proc.waitFor(/"metrics_port":(\d+)/))[1]);
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      return { status: res.status, text: await res.text() };
    };

    try {
      const apiMetrics = await scrape(api);
      const workerMetrics = await scrape(worker);

      expect(apiMetrics.status).toBe(200);
      expect(apiMetrics.text).toContain("# TYPE lm_http_request_duration_seconds histogram");
      expect(apiMetrics.text).not.toContain("lm_queue_jobs");
      expect(workerMetrics.status).toBe(200);
      expect(workerMetrics.text).toMatch(/^lm_queue_jobs\{queue="webhook-delivery",state="waiting"\} \d+$/m);
      expect(workerMetrics.text).toContain("# TYPE lm_webhook_delivery_attempts_total counter");
      expect(workerMetrics.text).not.toContain("lm_http_request_duration_seconds");
    } finally {
      api.child.kill("SIGTERM");
      worker.child.kill("SIGTERM");
    }
    expect(await api.exited).toBe(0);
    expect(await worker.exited).toBe(0);
  }, 40_000);
  test("when a charge is created through the API, then the worker delivers its transaction.created to the store's endpoint and the list reads the charge back", async () => {
    const prefix = testConfig(database.url).queuePrefix;
    const receiver = await startWebhookReceiver();
    const db = createDb(database.url);
    const env = {
      DATABASE_URL: database.url,
      QUEUE_PREFIX: prefix,
      LOG_LEVEL: "info",
      PORT: "0",
      WEBHOOK_ALLOW_LOCAL_DESTINATIONS: "true",
    };
    const api = startProcess("api", env);
    const worker = startProcess("worker", env);
    try {
      const { testKey, storeId } = await createTestMerchant(db);
      await createEndpointRow(db, TEST_ENCRYPTION_KEY, { storeId, url: `${receiver.url}/hook` });
      const port = Number((await api.waitFor(/"port":(\d+)/))[1]);
      await worker.waitFor(/worker consuming/);
      const headers = { authorization: `Bearer ${testKey}`, "content-type": "application/json" };

      const created = await fetch(`http://127.0.0.1:${port}/v1/transactions`, {
        method: "POST",
        headers: { ...headers, "idempotency-key": "bundle-1" },
        body: JSON.stringify({ amount: 1990 }),
      });
      const charge = (await created.json()) as { id: string; status: string; pix: { qr_code_png_base64: string } };
      const [delivery] = await receiver.waitForRequests(1, { path: "/hook" });
      const listed = await fetch(`http://127.0.0.1:${port}/v1/transactions?status=pending`, { headers });

      expect(created.status).toBe(201);
      expect(charge.status).toBe("pending");
      expect(Buffer.from(charge.pix.qr_code_png_base64, "base64").subarray(1, 4).toString()).toBe("PNG");
      const event = JSON.parse(delivery?.rawBody.toString() ?? "{}") as {
        type: string;
        data: { object: { id: string } };
      };
      expect(event.type).toBe("transaction.created");
      expect(event.data.object.id).toBe(charge.id);
      expect(listed.status).toBe(200);
      expect(((await listed.json()) as { data: { id: string }[] }).data.map((row) => row.id)).toEqual([charge.id]);
    } finally {
      api.child.kill("SIGTERM");
      worker.child.kill("SIGTERM");
      await db.$disconnect();
      await receiver.close();
    }
    expect(await api.exited).toBe(0);
    expect(await worker.exited).toBe(0);
  }, 60_000);
});
