/**
 * The service through PgBouncer in transaction pooling mode (DESIGN §10 "PostgreSQL through a pooler"): does every
 * charge creation and payment succeed with `DATABASE_POOLING=transaction`, and what does the pooler cost in creation
 * throughput and CPU?
 *
 * On a PostgreSQL, a Redis and a PgBouncer of the bench's own (Debian's 1.18, `default_pool_size` {@link POOL_SIZE}),
 * two API processes run as deployed (the bundles `npm run build` writes): one straight to PostgreSQL (session pooling,
 * prepared statements), one through PgBouncer (`DATABASE_POOLING=transaction`, every statement unnamed; its change
 * feed listens on `DATABASE_DIRECT_URL`), beside one worker that also goes through PgBouncer. Creations
 * (`POST /v1/transactions`, {@link CONCURRENCY} at a time, by {@link KEYS} merchants in turn) alternate between the
 * two APIs in {@link ROUNDS} rounds of `BENCH_POOLER_CREATIONS` (300) each, after a warm-up of each; the CPU of each
 * API process, of PostgreSQL's backends and of PgBouncer is read around each round. Then `BENCH_POOLER_PAYMENTS` (200)
 * charges are created and paid through the pooled API, and the bench waits until each is `paid` and its
 * `transaction.paid` webhook reached a local receiver.
 *
 * `measurePooler()` returns `{creations_per_round, rounds, concurrency, direct: {...}, pooled: {...},
 * creation_throughput_ratio, payments: {...}, errors, settings}` (throughput in creations per second, CPU in ms per
 * creation); run alone (`npx tsx bench/scale/pooler.ts`), it prints that as JSON. It takes about a minute on the
 * 2-core machine (66 s with a load average of 6 to 9).
 */
import type { ChildProcess } from "node:child_process";
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "pg";
import { createDb } from "@lm/db";
import {
  createEndpointRow,
  createTestMerchant,
  REPO_ROOT,
  startPgBouncer,
  startPostgres,
  startRedis,
  TEST_ENCRYPTION_KEY,
  waitUntil,
  type TestMerchant,
} from "@lm/testing";
import { ensureDatabaseExists } from "../../packages/db/src/migrate";
import {
  backendCpuMs,
  backendCpuSince,
  cpuMs,
  round,
  runBenchPart,
  startApi,
  startChild,
  startWorker,
  workerEnv,
} from "../support/children";
import { INTEGRATOR_CHARGE } from "../support/charges";

const run = promisify(execFile);

/** Creations per API in each measured round. */
const CREATIONS = Number(process.env.BENCH_POOLER_CREATIONS ?? 300);
/** Charges created and paid through the pooler. */
const PAYMENTS = Number(process.env.BENCH_POOLER_PAYMENTS ?? 200);
/** Rounds of creations, alternating between the direct and the pooled API. */
const ROUNDS = 3;
/** Creations before the measurement, per API: connections open, statements planned, code warm. */
const WARM_UP = 100;
/** Requests in flight at once. */
const CONCURRENCY = 16;
/** Merchants the requests take turns between: each key's rate limit (100 requests/s) stays on. */
const KEYS = 20;
/** PgBouncer's server connections to the bench's database (for the API's 10 and the worker's pool). */
const POOL_SIZE = 20;
/** The bench's database. */
const DATABASE = "lm_pooler";

/** A charge as an integrator sends it. */
const CHARGE_BODY = JSON.stringify(INTEGRATOR_CHARGE);

/** The requests that did not answer as expected, by kind, with the first few answers for the report. */
interface Failures {
  count: number;
  samples: string[];
}

/**
 * Sends `count` requests made by `one` (true: answered as expected), `CONCURRENCY` at a time.
 * @returns the wall time, ms
 */
async function runRequests(count: number, one: () => Promise<true | string>, failures: Failures): Promise<number> {
  let started = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (started < count) {
        started += 1;
        const outcome = await one().catch((err: unknown) => (err instanceof Error ? err.message : String(err)));
        if (outcome === true) continue;
        failures.count += 1;
        if (failures.samples.length < 5) failures.samples.push(outcome);
      }
    }),
  );
  return performance.now() - began;
}

/** Creates one charge through `apiBase`; its id, or why it failed. */
async function createCharge(apiBase: string, key: string): Promise<{ id: string } | string> {
  const res = await fetch(`${apiBase}/v1/transactions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": randomUUID() },
    body: CHARGE_BODY,
  });
  const text = await res.text();
  return res.status === 201 ? (JSON.parse(text) as { id: string }) : `creation answered ${res.status}: ${text}`;
}

/** Creates and pays one charge through `apiBase`; `true`, or why it failed. */
async function createAndPay(apiBase: string, key: string): Promise<true | string> {
  const created = await createCharge(apiBase, key);
  if (typeof created === "string") return created;
  const res = await fetch(`${apiBase}/v1/transactions/${created.id}/simulate-payment`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: "{}",
  });
  const text = await res.text();
  return res.status === 202 || `simulate-payment answered ${res.status}: ${text}`;
}

/** One API's totals over the measured rounds. */
interface Side {
  name: "direct" | "pooled";
  base: string;
  pid: number;
  ms: number;
  apiCpuMs: number;
  postgresCpuMs: number;
  pgbouncerCpuMs: number;
}

/** Measures creations and payments through PgBouncer against creations straight to PostgreSQL (see the comment). */
export async function measurePooler(): Promise<Record<string, unknown>> {
  const children: ChildProcess[] = [];
  const postgres = await startPostgres();
  const redis = await startRedis();
  const directUrl = postgres.url(DATABASE);
  const bouncer = await startPgBouncer({ serverUrl: directUrl, poolSize: POOL_SIZE });
  const pooledUrl = bouncer.url(DATABASE);
  const db = createDb(directUrl);
  const client = new Client({ connectionString: directUrl });
  try {
    await ensureDatabaseExists(directUrl);
    await run(path.join(REPO_ROOT, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_URL: directUrl, DATABASE_DIRECT_URL: directUrl },
    });
    await client.connect();
    const receiver = await startChild(children, [__filename, "receiver"], {}, /listening (\d+)/);
    const base = {
      ...workerEnv({ databaseUrl: directUrl, redisUrl: redis.url, queuePrefix: "lm" }, 50),
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY.toString("base64"),
    };
    const pooled = {
      ...base,
      DATABASE_URL: pooledUrl,
      DATABASE_POOLING: "transaction",
      DATABASE_DIRECT_URL: directUrl,
    };
    await startWorker(children, pooled);
    const apis = {
      direct: await startApi(children, base),
      pooled: await startApi(children, pooled),
    };
    const merchants: TestMerchant[] = [];
    for (let i = 0; i < KEYS; i++) merchants.push(await createTestMerchant(db));
    let turn = 0;
    const nextKey = () => merchants[turn++ % KEYS]!.testKey;
    const failures: Record<"creations" | "payments", Failures> = {
      creations: { count: 0, samples: [] },
      payments: { count: 0, samples: [] },
    };
    const createOne = (apiBase: string) => async () => {
      const created = await createCharge(apiBase, nextKey());
      return typeof created === "string" ? created : true;
    };

    const sides: Side[] = (["direct", "pooled"] as const).map((name) => ({
      name,
      base: apis[name].base,
      pid: apis[name].child.pid ?? 0,
      ms: 0,
      apiCpuMs: 0,
      postgresCpuMs: 0,
      pgbouncerCpuMs: 0,
    }));
    for (const side of sides) await runRequests(WARM_UP, createOne(side.base), failures.creations);
    for (let r = 0; r < ROUNDS; r++) {
      for (const side of sides) {
        const api = cpuMs(side.pid);
        const backends = backendCpuMs(DATABASE);
        const pooler = cpuMs(bouncer.pid);
        side.ms += await runRequests(CREATIONS, createOne(side.base), failures.creations);
        side.apiCpuMs += cpuMs(side.pid) - api;
        side.postgresCpuMs += backendCpuSince(backends, backendCpuMs(DATABASE));
        side.pgbouncerCpuMs += cpuMs(bouncer.pid) - pooler;
      }
    }

    for (const { storeId } of merchants) {
      await createEndpointRow(db, TEST_ENCRYPTION_KEY, {
        storeId,
        url: `http://127.0.0.1:${receiver.match[1]}/paid`,
        events: ["transaction.paid"],
      });
    }
    const paymentsMs = await runRequests(PAYMENTS, () => createAndPay(apis.pooled.base, nextKey()), failures.payments);
    const count = async (statement: string) => Number((await client.query<{ n: string }>(statement)).rows[0]?.n);
    const paid = () => count("SELECT count(*) AS n FROM transactions WHERE status = 'paid'");
    const delivered = () =>
      count(
        "SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'succeeded' AND event_type = 'transaction.paid'",
      );
    const expected = PAYMENTS - failures.payments.count;
    await waitUntil(
      "every payment settled and told",
      async () => (await paid()) >= expected && (await delivered()) >= expected,
      {
        timeoutMs: 60_000,
        intervalMs: 250,
      },
    ).catch(() => undefined);
    const [paidCount, deliveredCount] = [await paid(), await delivered()];

    const creations = CREATIONS * ROUNDS;
    const figures = (side: Side) => ({
      creations_per_s: round((creations / side.ms) * 1000, 0),
      api_cpu_ms_per_creation: round(side.apiCpuMs / creations, 2),
      postgres_cpu_ms_per_creation: round(side.postgresCpuMs / creations, 2),
      pgbouncer_cpu_ms_per_creation: round(side.pgbouncerCpuMs / creations, 2),
    });
    const [direct, pooledSide] = sides as [Side, Side];
    return {
      creations_per_round: CREATIONS,
      rounds: ROUNDS,
      concurrency: CONCURRENCY,
      direct: figures(direct),
      pooled: figures(pooledSide),
      creation_throughput_ratio: round(direct.ms / pooledSide.ms, 2),
      payments: {
        created_and_paid: PAYMENTS,
        per_s: round((PAYMENTS / paymentsMs) * 1000, 0),
        paid: paidCount,
        webhooks_delivered: deliveredCount,
      },
      errors: {
        creations: failures.creations.count,
        payments: failures.payments.count,
        unpaid: PAYMENTS - paidCount,
        webhooks_missing: PAYMENTS - deliveredCount,
        samples: [...failures.creations.samples, ...failures.payments.samples],
      },
      settings:
        `PgBouncer 1.18 pool_mode=transaction default_pool_size=${POOL_SIZE}; pooled API and worker with ` +
        `DATABASE_POOLING=transaction; PostgreSQL without fsync; creation_throughput_ratio = pooled / direct`,
    };
  } finally {
    for (const child of children) child.kill("SIGKILL");
    await client.end().catch(() => undefined);
    await db.$disconnect();
    await bouncer.stop();
    await redis.destroy();
    await postgres.destroy();
  }
}

if (require.main === module) runBenchPart(measurePooler);
