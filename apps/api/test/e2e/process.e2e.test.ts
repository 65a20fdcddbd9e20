/**
 * The API and worker as real processes: start-up refuses bad configuration, serves probes, stops on SIGTERM.
 */
import { spawn } from "node:child_process";
import { REPO_ROOT, createTestDatabase, testConfig, type TestDatabase } from "@lm/testing";

function startProcess(entry: string, env: Record<string, string>) {
  // As `npm run start:api` does: node loads tsx as a module hook, so signals reach our own handlers directly.
  const child = spawn(process.execPath, ["--import", "tsx", entry], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const waitFor = async (pattern: RegExp, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(output)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`did not see ${pattern} in:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return output;
  };
  return { child, exited, waitFor, output: () => output };
}

describe("processes", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  test("when DATABASE_URL is nonsense, then the API exits 1 with a message naming the variable", async () => {
    const proc = startProcess("apps/api/src/main.ts", { DATABASE_URL: "nonsense", PORT: "0" });

    expect(await proc.exited).toBe(1);
    expect(proc.output()).toMatch(/DATABASE_URL/);
  }, 30_000);

  test("when the API gets SIGTERM, then it stops accepting, closes its connections and exits 0", async () => {
    const proc = startProcess("apps/api/src/main.ts", { DATABASE_URL: database.url, PORT: "0", LOG_LEVEL: "info" });
    const out = await proc.waitFor(/"port":\d+/);
    const port = Number(/"port":(\d+)/.exec(out)?.[1]);
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.status).toBe(200);

    proc.child.kill("SIGTERM");

    expect(await proc.exited).toBe(0);
    expect(proc.output()).toMatch(/api stopped/);
  }, 30_000);

  test("when the worker starts, then it logs that it is consuming; on SIGTERM it exits 0", async () => {
    const prefix = testConfig(database.url).queuePrefix;
    const proc = startProcess("apps/worker/src/main.ts", {
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
    const api = startProcess("apps/api/src/main.ts", env);
    const worker = startProcess("apps/worker/src/main.ts", env);
    const scrape = async (proc: ReturnType<typeof startProcess>) => {
      const port = Number(/"metrics_port":(\d+)/.exec(await proc.waitFor(/"metrics_port":\d+/))?.[1]);
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
});
