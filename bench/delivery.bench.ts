/**
 * `npm run bench:delivery`: throughput and latency of the webhook delivery engine, printed as one JSON object.
 *
 * Processes, as deployed: a local receiver answering 200 (child process), the real worker (`apps/worker/src/main.ts`,
 * child process) and, in this process, the API side: N events fanned out to M account endpoints each, written the way
 * the API writes them (event and first delivery rows in one transaction, jobs enqueued after commit). Measured in the
 * same run, the baseline is a bare BullMQ worker (child process) doing the same signed HTTP POSTs with no database;
 * `ratio` = engine / baseline. Both bursts end when their last POST ended: the baseline's worker reports it, the
 * engine's is read from its attempt rows. The bench makes its own database and queue prefixes and removes them at the
 * end.
 *
 * Two more phases go through the real domain path, charges paid through the inbound path (`simulatePayment`: a signed
 * sandbox notification stored and processed by the worker, which records `transaction.paid` and fans it out):
 * `open_loop` pays charges on a clock at BENCH_OPEN_LOOP_RATE a second for BENCH_OPEN_LOOP_SECONDS to
 * BENCH_OPEN_LOOP_ENDPOINTS endpoints, after BENCH_OPEN_LOOP_WARMUP_SECONDS at the same rate to another store (not
 * measured: a deployed service is warm, and the first seconds of a cold worker measure its start), and measures
 * event → attempt 1 (and notification received → event recorded), the worker's CPU per paid event and this process's (`receipt_cpu_ms_per_event`: the charge read, signing, the
 * notification's receipt, its inbox row and job, as the API would spend them), the PostgreSQL backends' of the
 * bench's database (`postgres_cpu_ms_per_event`, to the last first attempt), the Redis server's and the receiver's; `inbound_events_recorded_per_s` receives
 * BENCH_EVENTS payments to a store with BENCH_ENDPOINTS endpoints while inbox processing is paused, then times the
 * worker settling them and recording their events and fan-out once it resumes. `events_recorded_per_s` is the
 * recording's capacity: the drain phase's events recorded with `recordEvent` (BENCH_ENDPOINTS endpoints each,
 * BENCH_FANOUT_CONCURRENCY at once, their jobs enqueued) while the queue is paused; `live.events_recorded_per_s` is the
 * same while the worker delivers them on the same cores.
 * `redis_bytes_per_pending_delivery` is Redis's `used_memory` growth per job while the drain phase's jobs wait.
 *
 * Environment: BENCH_EVENTS (default 2000), BENCH_ENDPOINTS (5), BENCH_FANOUT_CONCURRENCY (16), WORKER_CONCURRENCY (100),
 * BENCH_OPEN_LOOP_RATE (500), BENCH_OPEN_LOOP_SECONDS (10), BENCH_OPEN_LOOP_ENDPOINTS (1), BENCH_OPEN_LOOP_WARMUP_SECONDS
 * (2); BENCH_PROFILE_DIR writes a CPU profile of the worker process there.
 */
import { createPixApiClient } from "@lm/pix-api";
import type { ChildProcess } from "node:child_process";
import { Queue, Worker } from "bullmq";
import { createDb, createRepositories, type Db, type Repositories } from "@lm/db";
import {
  buildEventEnvelope,
  deliveryIdsOfJob,
  deliveryJobId,
  deliveryJobsOf,
  newId,
  recordEvent,
  signedDeliveryHeaders,
  simulatePayment,
  type UseCaseDeps,
} from "@lm/domain";
import { createLogger } from "@lm/logging";
import { createMailer } from "@lm/mail";
import { JOB_ATTEMPTS, closeRedis, createProducer, createRedis } from "@lm/queue";
import {
  createEndpointRow,
  createStoreRow,
  createTestDatabase,
  deleteQueueKeys,
  ensureTemplateDatabase,
  testConfig,
  uniqueQueuePrefix,
  waitUntil,
} from "@lm/testing";
import { createWebhookHttpClient } from "../apps/worker/src/delivery/http-client";
import { pendingCharges } from "./support/charges";
import {
  backendCpuMs,
  backendCpuSince,
  cpuMs,
  redisCpuMs,
  redisServerPid,
  redisUsedMemory,
  round,
  runReceiver,
  startChild,
  startWorker,
  waitForOutput,
  workerEnv,
  workerNodeFlags,
} from "./support/children";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);
const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 5);
const FANOUT_CONCURRENCY = Number(process.env.BENCH_FANOUT_CONCURRENCY ?? 16);
const OPEN_LOOP_RATE = Number(process.env.BENCH_OPEN_LOOP_RATE ?? 500);
const OPEN_LOOP_SECONDS = Number(process.env.BENCH_OPEN_LOOP_SECONDS ?? 10);
const OPEN_LOOP_ENDPOINTS = Number(process.env.BENCH_OPEN_LOOP_ENDPOINTS ?? 1);
const OPEN_LOOP_WARMUP_SECONDS = Number(process.env.BENCH_OPEN_LOOP_WARMUP_SECONDS ?? 2);
const WORKER_CONCURRENCY = Number(process.env.WORKER_CONCURRENCY ?? 100);

/** The use cases' dependencies, and the client the bench reads its figures and writes its fixtures with. */
type BenchDeps = UseCaseDeps & { db: Db };
/** When set, the worker process writes a V8 CPU profile there (open it in Chrome DevTools). */
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
const SECRET = "whsec_benchbenchbenchbenchbenchbenchbenchbenc";

/** A transaction-like `data.object`, the size of a real one. */
const OBJECT = {
  id: "txn_01JD3Z8W1Q2R3S4T5V6W7X8Y9Z",
  object: "transaction",
  status: "paid",
  mode: "test",
  amount: 1990,
  currency: "BRL",
  description: "Pedido 1234",
  external_id: "order-1234",
  txid: "7f3c2a9b8d1e4f6a0b5c9d2e8f1a3b4c",
  customer: { name: "Maria Silva", document_masked: "***.456.789-**", email: "maria@example.com" },
  metadata: { order: "1234" },
  expires_in: 86400,
  paid_at: "2026-11-21T12:00:00.000Z",
  created_at: "2026-11-21T11:59:00.000Z",
};

async function main(): Promise<void> {
  const mode = process.argv[2];
  if (mode === "receiver") return runReceiver();
  if (mode === "baseline-worker") return runBaselineWorker();

  await ensureTemplateDatabase();
  const database = await createTestDatabase();
  const config = testConfig(database.url, { WORKER_CONCURRENCY: String(WORKER_CONCURRENCY) });
  const baselinePrefix = uniqueQueuePrefix();
  const children: ChildProcess[] = [];
  try {
    const receiver = await startChild(children, ["bench/delivery.bench.ts", "receiver"], {}, /listening (\d+)/);
    const receiverUrl = `http://127.0.0.1:${receiver.match[1]}`;
    const baseline = await measureBaseline(children, config.redisUrl, baselinePrefix, receiverUrl);
    const engine = await measureEngine(children, config, { url: receiverUrl, pid: receiver.child.pid as number });
    const ratio = engine.deliveries_per_s / baseline.deliveries_per_s;
    process.stdout.write(
      `${JSON.stringify(
        {
          events: EVENTS,
          endpoints_per_event: ENDPOINTS,
          deliveries: EVENTS * ENDPOINTS,
          worker_concurrency: WORKER_CONCURRENCY,
          ...engine,
          baseline,
          ratio: round(ratio, 2),
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    for (const child of children) child.kill("SIGKILL");
    await deleteQueueKeys(config.redisUrl, config.queuePrefix);
    await deleteQueueKeys(config.redisUrl, baselinePrefix);
    await database.drop();
  }
}

/**
 * The engine, in two phases over one real worker process: `live` fans events out while the worker runs (latency from
 * event to first attempt, and the pipeline's throughput, which the fan-out's own pace may cap); `drain` fans the same
 * number out while the queue is paused, then times the worker emptying it, which is what the baseline measures too.
 */
async function measureEngine(
  children: ChildProcess[],
  config: ReturnType<typeof testConfig>,
  receiver: { url: string; pid: number },
) {
  const receiverUrl = receiver.url;
  const db = createDb(config.databaseUrl, { maxConnections: FANOUT_CONCURRENCY + 2 });
  const redis = createRedis(config.redisUrl, "producer");
  const producer = createProducer(redis, config, () => undefined);
  const shards = producer.shards("webhook-delivery");
  try {
    const worker = await startWorker(
      children,
      workerEnv(config, WORKER_CONCURRENCY),
      PROFILE_DIR === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`],
    );

    const live = await storeWithEndpoints(db, config.encryptionKey, receiverUrl);
    const liveStarted = Date.now();
    await fanOutAll(db, producer, live);
    const liveFanOutMs = Date.now() - liveStarted;
    await waitForAttempts(db, live);

    const drain = await storeWithEndpoints(db, config.encryptionKey, receiverUrl);
    await Promise.all(shards.map((shard) => shard.pause()));
    const memoryBefore = await redisUsedMemory(redis);
    const recordingStarted = Date.now();
    await fanOutAll(db, producer, drain);
    const recordingMs = Date.now() - recordingStarted;
    const redisBytesPerPendingDelivery =
      Math.round((await redisUsedMemory(redis)) - memoryBefore) / (EVENTS * ENDPOINTS);
    const drainStarted = Date.now();
    await Promise.all(shards.map((shard) => shard.resume()));
    const drainMs = (await waitForAttempts(db, drain)) - drainStarted;

    const deps: BenchDeps = {
      config,
      db,
      repos: createRepositories(db),
      connectBank: createPixApiClient,
      producer,
      logger: createLogger({ level: "error", service: "bench", silent: true }),
      mailer: createMailer(config),
      now: () => new Date(),
    };
    const workerPid = worker.child.pid as number;
    const openLoop = await measureOpenLoop(deps, receiverUrl, {
      worker: workerPid,
      receiver: receiver.pid,
      redis: await redisServerPid(redis),
    });
    const inbound = await measureEventRecording(deps, producer, receiverUrl, workerPid);

    // A graceful stop, so that BENCH_PROFILE_DIR gets its profile written.
    const exited = new Promise((resolve) => worker.child.once("exit", resolve));
    worker.child.kill("SIGTERM");
    await exited;
    const total = EVENTS * ENDPOINTS;
    return {
      deliveries_per_s: round((total / drainMs) * 1000, 0),
      drain_ms: drainMs,
      live: {
        fan_out_ms: liveFanOutMs,
        events_recorded_per_s: round((EVENTS / liveFanOutMs) * 1000, 0),
        ...(await liveFigures(db, live)),
      },
      open_loop: openLoop,
      events_recorded_per_s: round((EVENTS / recordingMs) * 1000, 0),
      inbound_events_recorded_per_s: inbound.events_per_s,
      inbound_worker_cpu_ms_per_event: inbound.worker_cpu_ms_per_event,
      redis_bytes_per_pending_delivery: round(redisBytesPerPendingDelivery, 0),
    };
  } finally {
    await producer.close();
    await closeRedis(redis);
    await db.$disconnect();
  }
}

/** A store and its endpoints, as the fan-out needs them. */
interface BenchStore {
  id: string;
  endpoints: Array<{ id: string; url: string }>;
}

/** A store with `count` enabled endpoints on the receiver, subscribed to everything. */
async function storeWithEndpoints(
  db: Db,
  encryptionKey: Buffer,
  receiverUrl: string,
  count = ENDPOINTS,
): Promise<BenchStore> {
  const { store } = await createStoreRow(db, encryptionKey);
  const endpoints = [];
  for (let i = 0; i < count; i++) {
    const { endpoint } = await createEndpointRow(db, encryptionKey, {
      storeId: store.id,
      url: `${receiverUrl}/endpoint-${i}`,
    });
    endpoints.push({ id: endpoint.id, url: endpoint.url });
  }
  return { id: store.id, endpoints };
}

/** Fans {@link EVENTS} events of `storeId` out, {@link FANOUT_CONCURRENCY} at a time, enqueueing after each commit. */
async function fanOutAll(db: Db, producer: ReturnType<typeof createProducer>, store: BenchStore): Promise<void> {
  const repos = createRepositories(db);
  let next = 0;
  await Promise.all(
    Array.from({ length: FANOUT_CONCURRENCY }, async () => {
      while (next < EVENTS) {
        next += 1;
        const deliveryIds = await fanOut(repos, store);
        await producer.enqueueBulk("webhook-delivery", await deliveryJobsOf(repos, deliveryIds));
      }
    }),
  );
}

/**
 * Open loop through the real domain path: pays {@link OPEN_LOOP_RATE} charges a second on a clock (a tick every 10 ms
 * starts the payments due, whatever the engine does), then waits for every paid event's first attempts. The first
 * {@link OPEN_LOOP_WARMUP_SECONDS} of payments go to a store of their own and are left out of every figure.
 */
async function measureOpenLoop(
  deps: BenchDeps,
  receiverUrl: string,
  pids: { worker: number; receiver: number; redis: number },
) {
  const warm = await storeWithEndpoints(deps.db, deps.config.encryptionKey, receiverUrl, OPEN_LOOP_ENDPOINTS);
  const store = await storeWithEndpoints(deps.db, deps.config.encryptionKey, receiverUrl, OPEN_LOOP_ENDPOINTS);
  const warmUp = OPEN_LOOP_RATE * OPEN_LOOP_WARMUP_SECONDS;
  const total = OPEN_LOOP_RATE * OPEN_LOOP_SECONDS;
  const payments = [
    ...(await pendingCharges(deps.db, warm.id, warmUp)).map((id) => ({ storeId: warm.id, id })),
    ...(await pendingCharges(deps.db, store.id, total)).map((id) => ({ storeId: store.id, id })),
  ];
  const databaseName = new URL(deps.config.databaseUrl).pathname.slice(1);
  let before = { worker: 0, receipt: 0, receiver: 0, redis: 0, database: new Map<number, number>(), at: 0 };
  const started = Date.now();
  const running: Array<Promise<unknown>> = [];
  let paid = 0;
  let failed = 0;
  let firstFailure: unknown;
  while (paid < payments.length) {
    const due = Math.min(payments.length, Math.floor(((Date.now() - started) / 1000) * OPEN_LOOP_RATE));
    for (; paid < due; paid++) {
      // The measured window starts with the first payment after the warm-up, on the same clock.
      if (paid === warmUp) {
        before = {
          worker: cpuMs(pids.worker),
          receipt: cpuMs(process.pid),
          receiver: cpuMs(pids.receiver),
          redis: redisCpuMs(pids.redis),
          database: backendCpuMs(databaseName),
          at: Date.now(),
        };
      }
      const { storeId, id } = payments[paid] as { storeId: string; id: string };
      const payment = simulatePayment(deps, { storeId, mode: "test" }, id);
      running.push(
        payment.catch((err: unknown) => {
          failed += 1;
          firstFailure ??= err;
        }),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await Promise.all(running);
  if (failed > 0)
    throw new Error(`${failed} of ${payments.length} open-loop payments failed, the first: ${String(firstFailure)}`);
  const payingMs = Date.now() - before.at;
  const receiptCpuMsPerEvent = round((cpuMs(process.pid) - before.receipt) / total, 2);
  await waitForFirstAttempts(deps.db, store, total * OPEN_LOOP_ENDPOINTS);
  const workerCpuMsPerEvent = round((cpuMs(pids.worker) - before.worker) / total, 2);
  const receiverCpuMsPerEvent = round((cpuMs(pids.receiver) - before.receiver) / total, 2);
  const redisCpuMsPerEvent = round((redisCpuMs(pids.redis) - before.redis) / total, 2);
  const databaseCpuMsPerEvent = round(backendCpuSince(before.database, backendCpuMs(databaseName)) / total, 2);
  const figures = await firstAttemptFigures(deps.db, store.id);
  const [settling] = await deps.db.$queryRaw<Array<{ p50: number; p99: number }>>`
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM e.created_at - i.received_at) * 1000) AS p50,
           percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM e.created_at - i.received_at) * 1000) AS p99
    FROM inbox_items i JOIN events e ON e.data->>'id' = i.transaction_id AND e.type = 'transaction.paid'
    WHERE e.store_id = ${store.id}`;
  return {
    events_per_s: OPEN_LOOP_RATE,
    achieved_events_per_s: round((total / payingMs) * 1000, 0),
    endpoints: OPEN_LOOP_ENDPOINTS,
    events: total,
    warm_up_s: OPEN_LOOP_WARMUP_SECONDS,
    event_to_first_attempt_ms: figures,
    received_to_event_ms: { p50: round(Number(settling?.p50), 1), p99: round(Number(settling?.p99), 1) },
    worker_cpu_ms_per_event: workerCpuMsPerEvent,
    receipt_cpu_ms_per_event: receiptCpuMsPerEvent,
    postgres_cpu_ms_per_event: databaseCpuMsPerEvent,
    redis_cpu_ms_per_event: redisCpuMsPerEvent,
    receiver_cpu_ms_per_event: receiverCpuMsPerEvent,
  };
}

/**
 * Events recorded through the inbound path: {@link EVENTS} payments to a store with {@link ENDPOINTS} endpoints are
 * received (stored and enqueued, 16 at a time) while the `inbox-processing` queue is paused, then the queue resumes and
 * the worker's recording of their `transaction.paid` events and fan-out is timed, from the resume to the last event
 * written: the capacity of recording, whatever the pace of the notifications' senders.
 */
async function measureEventRecording(
  deps: BenchDeps,
  producer: ReturnType<typeof createProducer>,
  receiverUrl: string,
  workerPid: number,
): Promise<{ events_per_s: number; worker_cpu_ms_per_event: number }> {
  const store = await storeWithEndpoints(deps.db, deps.config.encryptionKey, receiverUrl, ENDPOINTS);
  const charges = await pendingCharges(deps.db, store.id, EVENTS);
  const inbox = producer.shards("inbox-processing");
  await Promise.all(inbox.map((shard) => shard.pause()));
  let next = 0;
  await Promise.all(
    Array.from({ length: FANOUT_CONCURRENCY }, async () => {
      while (next < EVENTS) {
        const id = charges[next++] as string;
        await simulatePayment(deps, { storeId: store.id, mode: "test" }, id);
      }
    }),
  );
  const cpuBefore = cpuMs(workerPid);
  const resumed = Date.now();
  await Promise.all(inbox.map((shard) => shard.resume()));
  const deadline = Date.now() + 300_000;
  for (;;) {
    const recorded = await deps.db.event.count({ where: { store_id: store.id, type: "transaction.paid" } });
    if (recorded >= EVENTS || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const [row] = await deps.db.$queryRaw<Array<{ n: bigint; last: Date }>>`
    SELECT count(*) AS n, max(created_at) AS last FROM events WHERE store_id = ${store.id} AND type = 'transaction.paid'`;
  const windowMs = Math.max(1, (row?.last.getTime() ?? resumed) - resumed);
  const recorded = Number(row?.n ?? 0);
  return {
    events_per_s: round((recorded / windowMs) * 1000, 0),
    // The worker's CPU over the window (to the last poll, 20 ms at most after the last event), including the deliveries
    // of the events already recorded, which run at the same time.
    worker_cpu_ms_per_event: round((cpuMs(workerPid) - cpuBefore) / Math.max(1, recorded), 2),
  };
}

/**
 * Waits until `expected` first attempts to `store`'s endpoints have been made (at most 5 minutes). It counts by
 * endpoint (an index), not by store (a scan of every delivery of the run, ten times a second, on the engine's cores).
 */
async function waitForFirstAttempts(db: Db, store: BenchStore, expected: number): Promise<void> {
  const where = {
    endpoint_id: { in: store.endpoints.map((e) => e.id) },
    attempt: 1,
    status: { not: "pending" as const },
  };
  await waitUntil(
    `${expected} first attempts made`,
    async () => (await db.webhookDelivery.count({ where })) >= expected,
    { timeoutMs: 300_000, intervalMs: 100 },
  );
}

/** Event → attempt 1 of `storeId`'s deliveries, p50 and p99, ms. */
async function firstAttemptFigures(db: Db, storeId: string) {
  const [row] = await db.$queryRaw<Array<{ p50: number; p99: number }>>`
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM d.attempted_at - e.created_at) * 1000) AS p50,
           percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM d.attempted_at - e.created_at) * 1000) AS p99
    FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
    WHERE d.attempt = 1 AND d.store_id = ${storeId}`;
  return { p50: round(Number(row?.p50), 1), p99: round(Number(row?.p99), 1) };
}

/**
 * Waits until every first attempt of `store`'s deliveries has been made, and returns when the last one ended (its
 * `attempted_at` plus `duration_ms`, epoch ms): the end of a burst read from the rows, as the baseline's worker reports
 * its own, so that neither the polling's delay nor its cost on the engine's cores is measured. It polls the store's
 * pending first attempts (found by the partial index of pending rows, fewer as the burst goes) ten times a second.
 */
async function waitForAttempts(db: Db, store: BenchStore): Promise<number> {
  const where = { store_id: store.id, attempt: 1, status: "pending" as const, job_given_up_at: null };
  await waitUntil("every first attempt made", async () => (await db.webhookDelivery.count({ where })) === 0, {
    timeoutMs: 600_000,
    intervalMs: 100,
  });
  const [row] = await db.$queryRaw<Array<{ ended: Date }>>`
    SELECT max(attempted_at + duration_ms * interval '1 millisecond') AS ended
    FROM webhook_deliveries WHERE store_id = ${store.id} AND attempt = 1`;
  if (!row?.ended) throw new Error("no attempts");
  return row.ended.getTime();
}

/**
 * One event recorded the way the API and the worker record theirs: the domain's `recordEvent` on the pool (the
 * subscribed endpoints read, then the event and its first delivery rows written in one statement).
 */
async function fanOut(repos: Repositories, store: BenchStore): Promise<string[]> {
  const { deliveryIds } = await recordEvent(repos, {
    scope: { storeId: store.id, mode: "test" },
    type: "transaction.paid",
    object: OBJECT,
    now: new Date(),
  });
  return deliveryIds;
}

/** From the rows of `store`: first event written to last attempt finished; event to attempt 1. */
async function liveFigures(db: Db, store: BenchStore) {
  const [row] = await db.$queryRaw<
    Array<{ deliveries: bigint; succeeded: bigint; window_ms: number; p50: number; p99: number }>
  >`
    SELECT count(*) AS deliveries,
           count(*) FILTER (WHERE d.status = 'succeeded') AS succeeded,
           extract(epoch FROM max(d.attempted_at + d.duration_ms * interval '1 millisecond') - min(e.created_at)) * 1000
             AS window_ms,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM d.attempted_at - e.created_at) * 1000) AS p50,
           percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM d.attempted_at - e.created_at) * 1000) AS p99
    FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
    WHERE d.attempt = 1 AND d.store_id = ${store.id}`;
  if (!row) throw new Error("no deliveries");
  return {
    succeeded: Number(row.succeeded),
    window_ms: Math.round(Number(row.window_ms)),
    pipeline_deliveries_per_s: round((Number(row.deliveries) / Number(row.window_ms)) * 1000, 0),
    event_to_first_attempt_ms: { p50: round(Number(row.p50), 1), p99: round(Number(row.p99), 1) },
  };
}

/** The baseline: the same number of jobs through a bare BullMQ worker process doing the same POST, no database. */
async function measureBaseline(children: ChildProcess[], redisUrl: string, prefix: string, receiverUrl: string) {
  const total = EVENTS * ENDPOINTS;
  const redis = createRedis(redisUrl, "producer");
  // One plain BullMQ queue, as a bare service would have, with the engine's job shape.
  const queue = new Queue("webhook-delivery", { connection: redis, prefix });
  try {
    const worker = await startChild(
      children,
      ["bench/delivery.bench.ts", "baseline-worker"],
      { BENCH_PREFIX: prefix, BENCH_TOTAL: String(total), BENCH_RECEIVER: receiverUrl, REDIS_URL: redisUrl },
      /baseline ready/,
      workerNodeFlags(),
    );
    await queue.pause();
    for (let i = 0; i < total; i += 1000) {
      const ids = Array.from({ length: Math.min(1000, total - i) }, () => deliveryJobId(newId("delivery")));
      await queue.addBulk(ids.map((jobId) => ({ name: "", data: {}, opts: { jobId, attempts: JOB_ATTEMPTS } })));
    }
    const started = Date.now();
    await queue.resume();
    const done = await waitForOutput(worker.child, /baseline done (\d+)/);
    const ms = Number(done[1]) - started;
    return { deliveries: total, window_ms: ms, deliveries_per_s: round((total / ms) * 1000, 0) };
  } finally {
    await queue.close();
    await closeRedis(redis);
  }
}

/** Child: a bare BullMQ worker that signs and POSTs each job's envelope and reports when all are done. */
async function runBaselineWorker(): Promise<void> {
  const total = Number(process.env.BENCH_TOTAL);
  const receiverUrl = process.env.BENCH_RECEIVER as string;
  const client = createWebhookHttpClient();
  const policy = { allowLocal: true, resolve: async () => ["127.0.0.1"] };
  const connection = createRedis(process.env.REDIS_URL as string, "worker");
  let completed = 0;
  let started = 0;
  const worker = new Worker(
    "webhook-delivery",
    async (job) => {
      // Jobs carry their id only, as the engine's do: the endpoints take turns.
      const deliveryId = deliveryIdsOfJob(String(job.id), job.data)[0] as string;
      const endpoint = (started += 1) % ENDPOINTS;
      const created = new Date();
      const body = JSON.stringify(
        buildEventEnvelope({
          id: newId("event"),
          type: "transaction.paid",
          mode: "test",
          data: OBJECT,
          created_at: created,
        }),
      );
      const headers = signedDeliveryHeaders({
        scheme: "stripe",
        secrets: [SECRET],
        eventId: "evt_bench",
        eventType: "transaction.paid",
        deliveryId,
        attempt: 1,
        body,
        timestampSeconds: Math.floor(created.getTime() / 1000),
      });
      const outcome = await client.post(`${receiverUrl}/endpoint-${endpoint}`, body, headers, policy);
      if (outcome.error !== null) throw new Error(outcome.error);
      completed += 1;
      if (completed === total) process.stdout.write(`baseline done ${Date.now()}\n`);
    },
    { connection, prefix: process.env.BENCH_PREFIX as string, concurrency: WORKER_CONCURRENCY },
  );
  await worker.waitUntilReady();
  process.stdout.write("baseline ready\n");
}

main().then(
  () => {
    if (process.argv[2] === undefined) process.exit(0);
  },
  (err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
