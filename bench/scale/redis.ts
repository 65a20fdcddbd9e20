/**
 * What each paid charge costs Redis, and how a Redis Cluster shares it (DESIGN §10 "Redis": no master with more than
 * 60 % of the commands when deliveries go to 20 or more destinations; ≤ 300 bytes per waiting delivery).
 *
 * The service runs as deployed: the API and the worker in their own processes (the bundles `npm run build` writes) on
 * a 3-master Redis Cluster of the bench's own (`startRedisCluster`) and a database cloned from the tests' template.
 * `BENCH_REDIS_STORES` (4) merchants, each with 5 endpoints on a local receiver answering 200 (20 destinations),
 * create charges as an integrator does (`POST /v1/transactions` with a test key and an `Idempotency-Key`) and pay
 * them (`POST /v1/transactions/{id}/simulate-payment`). After a warm-up, every master's statistics are reset, then
 * `BENCH_REDIS_CHARGES` (1,000) charges are paid and their 10 first attempts awaited; the figures are the deltas of
 * `INFO commandstats` (commands, Lua scripts' inner calls included) and `used_cpu_sys + used_cpu_user` over the
 * masters. Then `BENCH_REDIS_WAITING` (20,000) delivery jobs are added over the same destinations under a prefix no
 * worker consumes, due at once, then as many an hour into the future (a retry's wait), and Redis's `used_memory`
 * growth, summed over the masters, is divided by their count (`bytes_per_waiting_delivery: {due, delayed}`). Last,
 * the baseline: as many bare BullMQ jobs (one queue, a no-op worker in this process, completed jobs removed) as the
 * service ran jobs, Redis CPU per job's whole life, in the same run.
 *
 * Before the run the service is watched idle for {@link IDLE_MS} (`idle_redis_cpu_ms_per_second`: stalled-job checks,
 * schedulers, the cluster's own chatter), and the run's CPU less that idle rate is `…_above_idle`. After it, as many
 * charges are paid with the worker stopped, then the worker is started on the backlog (`busy`): Redis then runs the
 * jobs back to back, as when it is the bottleneck, instead of waking for each.
 *
 * `measureRedis()` returns `{charges, stores, destinations, commands_per_master, largest_share,
 * redis_cpu_ms_per_paid_charge, run_seconds, idle_redis_cpu_ms_per_second, redis_cpu_ms_per_paid_charge_above_idle,
 * busy: {redis_cpu_ms_per_paid_charge, drain_seconds}, commands_per_paid_charge, scripts_per_paid_charge,
 * top_commands_per_paid_charge, bytes_per_waiting_delivery, baseline: {jobs, redis_cpu_ms_per_job}}`; run alone
 * (`npx tsx bench/scale/redis.ts`), it prints that as JSON. `BENCH_REDIS_CONCURRENCY` (8) charges are created and paid
 * at once. Not a timed test.
 */
import type { ChildProcess } from "node:child_process";
import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import { createDb } from "@lm/db";
import { deliveryJob, newId } from "@lm/domain";
import { closeRedis, createProducer, createRedis } from "@lm/queue";
import {
  createEndpointRow,
  createTestDatabase,
  createTestMerchant,
  ensureTemplateDatabase,
  startRedisCluster,
  TEST_ENCRYPTION_KEY,
  waitUntil,
} from "@lm/testing";
import { round, runBenchPart, startApi, startChild, startWorker, workerEnv } from "../support/children";
import { payCharges } from "../support/charges";

/** Paid charges measured. */
const CHARGES = Number(process.env.BENCH_REDIS_CHARGES ?? 1_000);
/** Paid charges before the measurement (connections, scripts loaded, first keys). */
const WARM_UP_CHARGES = 40;
/** Merchants, each with {@link ENDPOINTS} endpoints: the destinations are their endpoints. */
const STORES = Number(process.env.BENCH_REDIS_STORES ?? 4);
/** Account endpoints of each merchant, all subscribed to every event. */
const ENDPOINTS = 5;
/** Charges created and paid at once. */
const CONCURRENCY = Number(process.env.BENCH_REDIS_CONCURRENCY ?? 8);
/** Delivery jobs added into the future to weigh one waiting delivery. */
const WAITING = Number(process.env.BENCH_REDIS_WAITING ?? 20_000);
/** `DELIVERY_QUEUE_SHARDS` of the service. */
const SHARDS = Number(process.env.DELIVERY_QUEUE_SHARDS ?? 8);
/** How long the service is watched idle, before the run, to weigh what Redis spends on nothing, ms. */
const IDLE_MS = 10_000;
/** The key prefix of the service (and of the baseline's queue). */
const PREFIX = "lm";

/** A progress line on stderr (stdout carries the figures). */
function progress(message: string): void {
  process.stderr.write(`[bench:redis] ${message}\n`);
}

/** One master's counters: commands by name (`INFO commandstats`), CPU seconds and `used_memory`. */
interface MasterReading {
  commands: Map<string, number>;
  cpuSeconds: number;
  usedMemory: number;
}

async function readMaster(redis: Redis): Promise<MasterReading> {
  const [stats, cpu, memory] = await Promise.all([redis.info("commandstats"), redis.info("cpu"), redis.info("memory")]);
  const commands = new Map<string, number>();
  for (const match of stats.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) commands.set(match[1] ?? "", Number(match[2]));
  const number = (text: string, name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, "m").exec(text)?.[1] ?? NaN);
  return {
    commands,
    cpuSeconds: number(cpu, "used_cpu_sys") + number(cpu, "used_cpu_user"),
    usedMemory: number(memory, "used_memory"),
  };
}

/** Per master, `after - before`: commands by name, CPU ms and memory bytes. */
function deltas(before: MasterReading[], after: MasterReading[]) {
  return after.map((reading, i) => {
    const was = before[i] as MasterReading;
    const commands = new Map<string, number>();
    for (const [name, calls] of reading.commands) {
      const grown = calls - (was.commands.get(name) ?? 0);
      if (grown > 0) commands.set(name, grown);
    }
    return {
      commands,
      total: [...commands.values()].reduce((sum, n) => sum + n, 0),
      cpuMs: (reading.cpuSeconds - was.cpuSeconds) * 1000,
      memory: reading.usedMemory - was.usedMemory,
    };
  });
}

/** The CPU the masters spent between two readings, ms, summed over them. */
function cpuMsOf(grown: ReturnType<typeof deltas>): number {
  return grown.reduce((sum, master) => sum + master.cpuMs, 0);
}

/** Redis CPU of `jobs` bare BullMQ jobs' whole lives (add, run by a no-op worker, removed on completion), ms per job. */
async function measureBareJobs(nodes: string[], masters: Redis[], jobs: number): Promise<number> {
  const connection = createRedis(nodes, "worker");
  const queue = new Queue("{bench-bare}", { connection, prefix: PREFIX });
  let done = 0;
  const worker = new Worker("{bench-bare}", async () => undefined, {
    connection,
    prefix: PREFIX,
    concurrency: 50,
    removeOnComplete: { count: 0 },
    autorun: false,
  });
  worker.on("completed", () => (done += 1));
  try {
    const before = await Promise.all(masters.map(readMaster));
    void worker.run();
    for (let i = 0; i < jobs; i += 500) {
      const count = Math.min(500, jobs - i);
      await queue.addBulk(Array.from({ length: count }, () => ({ name: "", data: {}, opts: { attempts: 5 } })));
    }
    await waitUntil(`${jobs} bare jobs completed`, async () => done >= jobs, { timeoutMs: 120_000, intervalMs: 50 });
    const used = deltas(before, await Promise.all(masters.map(readMaster)));
    return cpuMsOf(used) / jobs;
  } finally {
    await worker.close();
    await queue.obliterate({ force: true });
    await queue.close();
    await closeRedis(connection);
  }
}

/** Measures Redis per paid charge and per waiting delivery on a 3-master cluster (see the file's comment). */
export async function measureRedis(): Promise<Record<string, unknown>> {
  const children: ChildProcess[] = [];
  progress("starting");
  await ensureTemplateDatabase();
  const database = await createTestDatabase();
  const cluster = await startRedisCluster(3);
  const masters = cluster.nodes.map((node) => new Redis(node));
  const db = createDb(database.url);
  try {
    progress("database and cluster ready");
    const receiver = await startChild(children, [__filename, "receiver"], {}, /listening (\d+)/);
    progress("receiver ready");
    const receiverUrl = `http://127.0.0.1:${receiver.match[1]}`;
    const env = {
      ...workerEnv({ databaseUrl: database.url, redisUrl: cluster.nodes[0] as string, queuePrefix: PREFIX }, 50),
      REDIS_CLUSTER_NODES: cluster.nodes.join(","),
      DELIVERY_QUEUE_SHARDS: String(SHARDS),
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY.toString("base64"),
    };
    let worker = await startWorker(children, env);
    const api = await startApi(children, env);
    progress("api and worker started on a 3-master cluster");

    const keys: string[] = [];
    const endpoints: Array<{ id: string; url: string }> = [];
    for (let s = 0; s < STORES; s++) {
      const merchant = await createTestMerchant(db);
      keys.push(merchant.testKey);
      for (let i = 0; i < ENDPOINTS; i++) {
        const url = `${receiverUrl}/s${s}e${i}`;
        const { endpoint } = await createEndpointRow(db, TEST_ENCRYPTION_KEY, { storeId: merchant.storeId, url });
        endpoints.push({ id: endpoint.id, url });
      }
    }
    const succeeded = async () =>
      (await db.pool.query<{ n: string }>("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'succeeded'"))
        .rows[0]?.n;
    const waitForDeliveries = (charges: number) =>
      waitUntil(
        `${charges * 2 * ENDPOINTS} succeeded deliveries`,
        async () => Number(await succeeded()) >= charges * 2 * ENDPOINTS,
        { timeoutMs: 5 * 60_000, intervalMs: 200 },
      );

    await payCharges(api.base, keys, WARM_UP_CHARGES, CONCURRENCY);
    await waitForDeliveries(WARM_UP_CHARGES);
    progress("warm-up done; measuring the idle service");
    const idleStart = await Promise.all(masters.map(readMaster));
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const idleCpuMs = cpuMsOf(deltas(idleStart, await Promise.all(masters.map(readMaster))));
    progress(`paying ${CHARGES} charges`);
    const before = await Promise.all(masters.map(readMaster));
    const startedAt = Date.now();
    await payCharges(api.base, keys, CHARGES, CONCURRENCY);
    await waitForDeliveries(WARM_UP_CHARGES + CHARGES);
    const runMs = Date.now() - startedAt;
    const run = deltas(before, await Promise.all(masters.map(readMaster)));
    progress(`${CHARGES} charges paid and delivered; paying ${CHARGES} more with the worker stopped`);

    // The same work with Redis busy: the worker stopped while the charges are created and paid, then started on the
    // backlog, so that its jobs follow each other instead of each waking an idle Redis.
    const busyBefore = await Promise.all(masters.map(readMaster));
    const exited = new Promise((resolve) => worker.child.once("exit", resolve));
    worker.child.kill("SIGTERM");
    await exited;
    await payCharges(api.base, keys, CHARGES, CONCURRENCY);
    const drainStartedAt = Date.now();
    worker = await startWorker(children, env);
    await waitForDeliveries(WARM_UP_CHARGES + 2 * CHARGES);
    const drainMs = Date.now() - drainStartedAt;
    const busyCpuMs = cpuMsOf(deltas(busyBefore, await Promise.all(masters.map(readMaster))));
    progress(`drained in ${drainMs} ms; adding ${WAITING} waiting deliveries`);

    const totals = run.map((master) => master.total);
    const all = totals.reduce((sum, n) => sum + n, 0);
    const byCommand = new Map<string, number>();
    for (const master of run)
      for (const [name, calls] of master.commands) byCommand.set(name, (byCommand.get(name) ?? 0) + calls);
    const top = Object.fromEntries(
      [...byCommand]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 25)
        .map(([name, calls]) => [name, round(calls / CHARGES, 2)]),
    );
    const scripts = ["evalsha", "eval", "fcall"].reduce((sum, name) => sum + (byCommand.get(name) ?? 0), 0);

    // Waiting deliveries, under a prefix no worker consumes: jobs due now (waiting) and an hour away (a retry's wait).
    const producerRedis = createRedis(cluster.nodes, "producer");
    const idle = createProducer(
      producerRedis,
      { queuePrefix: `${PREFIX}w`, deliveryQueueShards: SHARDS },
      () => undefined,
    );
    const bytesPerWaiting = async (delayMs: number | undefined) => {
      const before = await Promise.all(masters.map(readMaster));
      for (let i = 0; i < WAITING; i += 1000) {
        const jobs = Array.from({ length: Math.min(1000, WAITING - i) }, (_, j) => {
          const endpoint = endpoints[(i + j) % endpoints.length] as { id: string; url: string };
          // A retry's job (attempt 2): one per delivery, as what waits behind a slow endpoint is.
          const retry = {
            id: newId("delivery"),
            endpoint_id: endpoint.id,
            url: endpoint.url,
            event_id: "",
            attempt: 2,
            fan_out_event_id: null,
          };
          return deliveryJob({ ...retry, manual: false }, delayMs);
        });
        await idle.enqueueBulk("webhook-delivery", jobs);
      }
      const grown = deltas(before, await Promise.all(masters.map(readMaster)));
      return grown.reduce((sum, master) => sum + master.memory, 0) / WAITING;
    };
    let waiting: number;
    let delayed: number;
    try {
      waiting = await bytesPerWaiting(undefined);
      delayed = await bytesPerWaiting(3_600_000);
    } finally {
      await Promise.all(idle.shards("webhook-delivery").map((queue) => queue.obliterate({ force: true })));
      await idle.close();
      await closeRedis(producerRedis);
    }

    const bareJobs = CHARGES * (2 * ENDPOINTS + 1);
    progress(`running ${bareJobs} bare BullMQ jobs`);
    const bareCpuMs = await measureBareJobs(cluster.nodes, masters, bareJobs);
    const cpuMs = cpuMsOf(run);
    return {
      charges: CHARGES,
      stores: STORES,
      delivery_queue_shards: SHARDS,
      destinations: STORES * ENDPOINTS,
      commands_per_master: totals,
      largest_share: round(Math.max(...totals) / all, 3),
      redis_cpu_ms_per_paid_charge: round(cpuMs / CHARGES, 3),
      redis_cpu_ms_per_master: run.map((master) => round(master.cpuMs, 0)),
      run_seconds: round(runMs / 1000, 1),
      idle_redis_cpu_ms_per_second: round(idleCpuMs / (IDLE_MS / 1000), 1),
      redis_cpu_ms_per_paid_charge_above_idle: round((cpuMs - (idleCpuMs * runMs) / IDLE_MS) / CHARGES, 3),
      busy: {
        redis_cpu_ms_per_paid_charge: round(busyCpuMs / CHARGES, 3),
        drain_seconds: round(drainMs / 1000, 1),
      },
      commands_per_paid_charge: round(all / CHARGES, 1),
      scripts_per_paid_charge: round(scripts / CHARGES, 2),
      top_commands_per_paid_charge: top,
      bytes_per_waiting_delivery: { due: round(waiting, 0), delayed: round(delayed, 0) },
      baseline: {
        jobs: bareJobs,
        redis_cpu_ms_per_job: round(bareCpuMs, 4),
        paid_charge_in_bare_jobs: round(cpuMs / CHARGES / bareCpuMs, 1),
      },
    };
  } finally {
    for (const child of children) child.kill("SIGKILL");
    for (const master of masters) master.disconnect();
    await db.$disconnect();
    await cluster.destroy();
    await database.drop();
  }
}

if (require.main === module) runBenchPart(measureRedis);
