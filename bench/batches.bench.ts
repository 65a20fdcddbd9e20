/**
 * `npm run bench:batches`: how long a batch of due-date charges takes from `POST /v1/transaction-batches` to
 * `completed` (DESIGN §13 "Batches"; target: 1,000 charges in under 60 s), in test mode. The API and the worker run as
 * deployed (the bundles `npm run build` writes, as `start:api` and `start:worker` run them), with `BENCH_ENDPOINTS`
 * (default 1) account endpoints on a local receiver answering 200, so each charge's `transaction.created` is delivered
 * as it would be. One batch of `BENCH_CHARGES` (default 1,000) items, each with a customer, a fine, interest, a
 * discount tier, an `external_id` and metadata, is posted once; its status is read every 50 ms until `completed`.
 * Prints one JSON object: `{charges, succeeded, failed, body_bytes, post_ms, ms_to_completed, charges_per_s,
 * target_ms, api_cpu_ms_per_charge, worker_cpu_ms_per_charge, postgres_cpu_ms_per_charge, endpoints,
 * worker_concurrency}` (CPU from /proc over the whole run, the deliveries made meanwhile included). Not a timed test.
 */
import { createDb } from "@lm/db";
import { isBusinessDay, saoPauloDate } from "@lm/domain";
import {
  TEST_ENCRYPTION_KEY,
  createEndpointRow,
  createTestDatabase,
  createTestMerchant,
  deleteQueueKeys,
  ensureTemplateDatabase,
  testConfig,
} from "@lm/testing";
import type { ChildProcess } from "node:child_process";
import {
  backendCpuMs,
  backendCpuSince,
  cpuMs,
  round,
  runReceiver,
  startApi,
  startChild,
  startWorker,
  workerEnv,
} from "./support/children";

const CHARGES = Number(process.env.BENCH_CHARGES ?? 1_000);
const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 1);
const WORKER_CONCURRENCY = Number(process.env.WORKER_CONCURRENCY ?? 100);
/** The target of DESIGN §13's batches: a batch of 1,000 completed within a minute of its POST. */
const TARGET_MS = 60_000;
const POLL_MS = 50;
const DAY_MS = 86_400_000;

/** The first business day two weeks or more from today in São Paulo, so that no term moves it. */
function dueDate(): string {
  let due = new Date(Date.parse(saoPauloDate(new Date())) + 14 * DAY_MS).toISOString().slice(0, 10);
  while (!isBusinessDay(due)) due = new Date(Date.parse(due) + DAY_MS).toISOString().slice(0, 10);
  return due;
}

/** Item `i` of the batch: a month's fee with the terms a school or a condominium would set. */
function item(i: number, due: string): Record<string, unknown> {
  const early = new Date(Date.parse(due) - 5 * DAY_MS).toISOString().slice(0, 10);
  return {
    amount: 15_000 + i,
    due_date: due,
    description: `Mensalidade, unidade ${i}`,
    external_id: `bench-${i}`,
    customer: { name: `Cliente ${i}`, document: "529.982.247-25", email: `cliente${i}@example.com` },
    fine: { type: "percent", value: "2.00" },
    interest: { type: "percent_per_month", days: "calendar", value: "1.00" },
    discount: { type: "fixed_until", tiers: [{ until: early, value: 500 }] },
    metadata: { unit: String(i) },
  };
}

async function main(): Promise<void> {
  if (process.argv[2] === "receiver") return runReceiver();
  await ensureTemplateDatabase();
  const database = await createTestDatabase();
  const config = testConfig(database.url);
  const db = createDb(config.databaseUrl);
  const children: ChildProcess[] = [];
  try {
    const merchant = await createTestMerchant(db);
    const receiver = await startChild(children, ["bench/batches.bench.ts", "receiver"], {}, /listening (\d+)/);
    for (let i = 0; i < ENDPOINTS; i++) {
      await createEndpointRow(db, TEST_ENCRYPTION_KEY, {
        storeId: merchant.storeId,
        url: `http://127.0.0.1:${receiver.match[1]}/e${i}`,
        events: ["*"],
      });
    }
    const env = { ...workerEnv(config, WORKER_CONCURRENCY), ENCRYPTION_KEY: TEST_ENCRYPTION_KEY.toString("base64") };
    const worker = await startWorker(children, env);
    const api = await startApi(children, env);
    const headers = { authorization: `Bearer ${merchant.testKey}`, "content-type": "application/json" };
    const due = dueDate();
    const body = JSON.stringify({ transactions: Array.from({ length: CHARGES }, (_, i) => item(i, due)) });

    const cpuBefore = { api: cpuMs(api.child.pid!), worker: cpuMs(worker.child.pid!), pg: backendCpuMs(database.name) };
    const started = performance.now();
    const posted = await fetch(`${api.base}/v1/transaction-batches`, { method: "POST", headers, body });
    const postMs = performance.now() - started;
    const batch = (await posted.json()) as { id: string; status: string };
    if (posted.status !== 202) throw new Error(`POST answered ${posted.status}: ${JSON.stringify(batch)}`);
    let read: { status: string; succeeded: number; failed: number } = { status: batch.status, succeeded: 0, failed: 0 };
    while (read.status !== "completed") {
      if (performance.now() - started > 10 * TARGET_MS)
        throw new Error(`not completed after 10 min: ${JSON.stringify(read)}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      read = (await (await fetch(`${api.base}/v1/transaction-batches/${batch.id}`, { headers })).json()) as typeof read;
    }
    const ms = performance.now() - started;
    const cpu = {
      api: cpuMs(api.child.pid!) - cpuBefore.api,
      worker: cpuMs(worker.child.pid!) - cpuBefore.worker,
      pg: backendCpuSince(cpuBefore.pg, backendCpuMs(database.name)),
    };
    process.stdout.write(
      `${JSON.stringify({
        charges: CHARGES,
        succeeded: read.succeeded,
        failed: read.failed,
        body_bytes: Buffer.byteLength(body),
        post_ms: Math.round(postMs),
        ms_to_completed: Math.round(ms),
        charges_per_s: Math.round((read.succeeded / ms) * 1000),
        target_ms: TARGET_MS,
        api_cpu_ms_per_charge: round(cpu.api / CHARGES, 2),
        worker_cpu_ms_per_charge: round(cpu.worker / CHARGES, 2),
        postgres_cpu_ms_per_charge: round(cpu.pg / CHARGES, 2),
        endpoints: ENDPOINTS,
        worker_concurrency: WORKER_CONCURRENCY,
      })}\n`,
    );
  } finally {
    for (const child of children) child.kill("SIGKILL");
    await db.$disconnect();
    await deleteQueueKeys(config.redisUrl, config.queuePrefix);
    await database.drop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
