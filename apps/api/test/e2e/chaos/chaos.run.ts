/**
 * `npm run test:chaos`: the delivery engine under load while its infrastructure fails. It starts
 * its OWN PostgreSQL (initdb in a temporary folder) and Redis on free loopback ports, the api and the worker as child
 * processes run as `npm start` runs them (the bundles `npm run build` writes; QUEUE_PREFIX `lm`, every queue under
 * its own hash tag as on a Redis Cluster), and a local receiver; it pays charges through the inbound
 * path at a steady rate and, in three phases, kills the worker with SIGKILL (and restarts it, as a supervisor
 * would), FLUSHALLs Redis, and stops PostgreSQL for 0.5 s. After each phase it checks, from the rows and the
 * receiver: every event delivered (0 lost), every charge paid, no attempt row doubled or missing from its chain,
 * nothing pending past the reconciler's period, every request the receiver saw has its row, api ready and worker
 * alive. It prints one JSON object with the figures (duplicates at the receiver counted, recovery times) and exits 1
 * when a check fails.
 *
 * Environment: CHAOS_CHARGES per phase (150), CHAOS_RATE charges per second (30), CHAOS_LOG_DIR (when set, the api's
 * and the worker's logs are appended to `api.log` and `worker.log` there).
 */
import { randomBytes } from "node:crypto";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "@lm/config";
import { createDb, createRepositories, type Db } from "@lm/db";
import { createApiKey } from "@lm/domain";
import { ensureDatabaseExists } from "@lm/db/src/migrate";
import { closeRedis, createRedis } from "@lm/queue";
import {
  REPO_ROOT,
  createEndpointRow,
  createStoreRow,
  freePort,
  serviceCommand,
  startPostgres,
  startRedis,
  startWebhookReceiver,
  type OwnPostgres,
  type ServiceName,
  type WebhookReceiver,
} from "@lm/testing";
import { buildServices } from "../../../../../scripts/build";

const CHARGES = Number(process.env.CHAOS_CHARGES ?? 150);
const LOG_DIR = process.env.CHAOS_LOG_DIR;
const RATE = Number(process.env.CHAOS_RATE ?? 30);
/** How long a phase may take to deliver everything after its load, ms. */
const SETTLE_TIMEOUT_MS = 90_000;
/** How long the load's client keeps retrying one request, ms. */
const CLIENT_PATIENCE_MS = 120_000;
/** The reconciler's period: nothing may stay pending and due longer (DESIGN §1). */
const RECONCILER_PERIOD_MS = 30_000;
const FAULTS = ["worker-kill-9", "redis-flushall", "postgres-restart"] as const;
type Fault = (typeof FAULTS)[number];

/** A child process of the run and how to start it again. */
interface Service {
  child: ChildProcess;
  restart(): Promise<void>;
}

/** A line on stderr, so a run shows where it is. */
function progress(message: string): void {
  process.stderr.write(`[chaos] ${new Date().toISOString()} ${message}\n`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const started = Date.now();
  const pg = await startPostgres();
  progress("postgresql started");
  const redis = await startRedis();
  progress("redis started");
  const receiver = await startWebhookReceiver();
  const services: Service[] = [];
  let db: Db | undefined;
  try {
    const databaseUrl = pg.url("lm_chaos");
    await ensureDatabaseExists(databaseUrl);
    execFileSync(path.join(REPO_ROOT, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: "ignore",
    });
    progress("migrated");
    const port = await freePort();
    const env: Record<string, string> = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: "lm",
      PORT: String(port),
      ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      NODE_ENV: "development",
      LOG_LEVEL: "info",
      WEBHOOK_ALLOW_LOCAL_DESTINATIONS: "true",
      PUBLIC_BASE_URL: "http://api.chaos.test",
      PANEL_ORIGINS: "http://panel.chaos.test",
      COOKIE_SECURE: "false",
      RETRY_SCHEDULE_SECONDS: "1,2,2,2,2",
      MAIL_OUTBOX_DIR: mkdtempSync(path.join(tmpdir(), "lm-chaos-mail-")),
    };
    const config = loadConfig(env);
    db = createDb(config.databaseUrl, { maxConnections: 5 });
    // Receivers take a moment to answer, so attempts are in flight when the worker is killed.
    receiver.script("/hook", [{ status: 200, delayMs: 200 }]);
    const { store } = await createStoreRow(db, config.encryptionKey);
    const { endpoint } = await createEndpointRow(db, config.encryptionKey, {
      storeId: store.id,
      url: `${receiver.url}/hook`,
    });
    const { key } = await createApiKey(createRepositories(db), {
      storeId: store.id,
      name: "chaos",
      mode: "test",
      now: new Date(),
    });

    await buildServices();
    const api = await startService(env, "api", /api listening/);
    const worker = await startService(env, "worker", /worker consuming/);
    services.push(api, worker);
    progress("api and worker started");
    const ctx: PhaseContext = {
      apiFailures: { byStatus: {}, lastAt: null },
      db,
      pg,
      redisUrl: redis.url,
      receiver,
      worker,
      apiUrl: `http://127.0.0.1:${port}`,
      key,
      endpointId: endpoint.id,
      storeId: store.id,
    };

    const phases = [];
    for (const fault of FAULTS) phases.push(await runPhase(ctx, fault));
    const failed = phases.filter((p) => p.problems.length > 0);
    process.stdout.write(
      `${JSON.stringify({ charges_per_phase: CHARGES, charges_per_s: RATE, phases, runtime_s: Math.round((Date.now() - started) / 1000) }, null, 2)}\n`,
    );
    if (failed.length > 0) {
      process.stderr.write(
        `chaos: ${failed.length} phase(s) failed: ${failed.map((p) => `${p.fault}: ${p.problems.join("; ")}`).join(" | ")}\n`,
      );
      process.exitCode = 1;
    }
  } finally {
    for (const service of services) service.child.kill("SIGKILL");
    await db?.$disconnect();
    await receiver.close();
    await redis.destroy();
    await pg.destroy();
  }
}

interface PhaseContext {
  /** Refused or failed API calls of the current phase, by status (0: no reply), and when the last one ended. */
  apiFailures: { byStatus: Record<string, number>; lastAt: number | null };
  db: Db;
  pg: OwnPostgres;
  redisUrl: string;
  receiver: WebhookReceiver;
  worker: Service;
  apiUrl: string;
  key: string;
  endpointId: string;
  storeId: string;
}

/** Runs the load, injects `fault` 40% into it, waits for the engine to settle and checks everything. */
async function runPhase(ctx: PhaseContext, fault: Fault) {
  progress(`phase ${fault}`);
  ctx.apiFailures = { byStatus: {}, lastAt: null };
  const phaseStart = new Date();
  const load = payCharges(ctx, fault, CHARGES, RATE);
  await sleep((CHARGES / RATE) * 1000 * 0.4);
  // Before the flush, a burst: jobs wait and are deferred by isolation, so the flush loses some that never ran.
  const burst =
    fault === "redis-flushall"
      ? payCharges(ctx, `${fault}-burst`, Math.ceil(CHARGES / 2), Infinity)
      : Promise.resolve([]);
  if (fault === "redis-flushall") await sleep(300);
  const faultAt = Date.now();
  await inject(ctx, fault);
  const faultEnd = new Date();
  progress(`fault ${fault} injected in ${faultEnd.getTime() - faultAt} ms`);
  const drained = timeUntilDelivered(ctx, phaseStart, faultEnd);
  const chargeIds = [...(await load), ...(await burst)];
  progress("load done");
  const settledAt = Date.now();
  const settled = await waitForSettled(ctx, phaseStart, chargeIds);
  const settleMs = Date.now() - settledAt;
  const drainedMs = await drained;
  const { byStatus, lastAt } = ctx.apiFailures;
  return {
    fault,
    fault_ms: faultEnd.getTime() - faultAt,
    ...(await check(ctx, fault, phaseStart, chargeIds, settled)),
    drained_after_fault_ms: drainedMs,
    settled_after_load_ms: settleMs,
    api_failed_calls: byStatus,
    api_last_failure_after_fault_ms: lastAt === null ? null : lastAt - faultEnd.getTime(),
  };
}

async function inject(ctx: PhaseContext, fault: Fault): Promise<void> {
  if (fault === "worker-kill-9") {
    ctx.worker.child.kill("SIGKILL");
    await new Promise((resolve) => ctx.worker.child.once("exit", resolve));
    // The supervisor's restart.
    await ctx.worker.restart();
  } else if (fault === "redis-flushall") {
    const client = createRedis(ctx.redisUrl, "worker");
    await client.flushall();
    await closeRedis(client);
  } else {
    await ctx.pg.blip(500);
  }
}

/**
 * Creates `count` charges at `rate` a second (all at once for `Infinity`) through the API and pays each through the
 * inbound path (`simulate-payment`), retrying a request that failed (5xx, network) as a client would, with its
 * idempotency key.
 * @param label - names the charges' idempotency keys
 * @returns the charge ids
 */
async function payCharges(ctx: PhaseContext, label: string, count: number, rate: number): Promise<string[]> {
  const started = Date.now();
  const ids = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      await sleep(started + (i * 1000) / rate - Date.now());
      const created = await call(
        ctx,
        "/v1/transactions",
        { amount: 1000 + i, description: `chaos ${label} ${i}` },
        `chaos-${label}-${i}`,
        [201],
      );
      const id = (created as { id: string }).id;
      await call(ctx, `/v1/transactions/${id}/simulate-payment`, undefined, undefined, [202, 409]);
      return id;
    }),
  );
  return ids;
}

/**
 * POSTs until one of `accept` comes back, as a client would: a 5xx, 429, 409 or no reply is retried after 200 ms, for
 * at most {@link CLIENT_PATIENCE_MS} (a charge whose idempotency claim outlived a request cut by the PostgreSQL restart
 * answers 409 `idempotency_key_in_progress` until the claim's 60 s takeover).
 */
async function call(
  ctx: PhaseContext,
  route: string,
  body: object | undefined,
  idempotencyKey: string | undefined,
  accept: number[],
): Promise<unknown> {
  const deadline = Date.now() + CLIENT_PATIENCE_MS;
  const failed = (status: number) => {
    ctx.apiFailures.byStatus[status] = (ctx.apiFailures.byStatus[status] ?? 0) + 1;
    ctx.apiFailures.lastAt = Date.now();
  };
  for (;;) {
    try {
      const res = await fetch(`${ctx.apiUrl}${route}`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${ctx.key}`,
          "content-type": "application/json",
          ...(idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      const json: unknown = await res.json().catch(() => null);
      if (accept.includes(res.status)) return json;
      failed(res.status);
      if (res.status < 500 && res.status !== 429 && res.status !== 409)
        throw new Error(`${route}: ${res.status} ${JSON.stringify(json)}`);
    } catch (err) {
      if (err instanceof Error && err.message.startsWith(route)) throw err;
      failed(0);
    }
    if (Date.now() > deadline) throw new Error(`${route}: no success within ${CLIENT_PATIENCE_MS} ms`);
    await sleep(200);
  }
}

/** Events of the phase that have no succeeded delivery to the endpoint, created before `before` when given. */
async function undelivered(ctx: PhaseContext, since: Date, before?: Date): Promise<number> {
  const [row] = await ctx.db.$queryRaw<Array<{ n: number }>>`
    SELECT count(*)::int AS n FROM events e
    WHERE e.store_id = ${ctx.storeId} AND e.created_at >= ${since}
      AND (${before ?? null}::timestamptz IS NULL OR e.created_at < ${before ?? null}::timestamptz)
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.endpoint_id = ${ctx.endpointId} AND d.status = 'succeeded')`;
  return row?.n ?? 0;
}

/** How long after the fault every event recorded before its end had been delivered, ms (polled every 200 ms). */
async function timeUntilDelivered(ctx: PhaseContext, since: Date, faultEnd: Date): Promise<number | null> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  while (Date.now() < deadline) {
    try {
      if ((await undelivered(ctx, since, faultEnd)) === 0) return Date.now() - faultEnd.getTime();
    } catch {
      // Our own pool meets the PostgreSQL restart too.
    }
    await sleep(200);
  }
  return null;
}

/**
 * Waits until every charge of the phase is paid, every event of the phase delivered and nothing is pending; returns
 * whether that happened.
 */
async function waitForSettled(ctx: PhaseContext, since: Date, chargeIds: string[]): Promise<boolean> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const pending = await ctx.db.webhookDelivery.count({ where: { store_id: ctx.storeId, status: "pending" } });
    const unpaid = await ctx.db.transaction.count({ where: { id: { in: chargeIds }, status: { not: "paid" } } });
    if (pending === 0 && unpaid === 0 && (await undelivered(ctx, since)) === 0) return true;
    await sleep(500);
  }
  return false;
}

/** The phase's checks and figures. */
async function check(ctx: PhaseContext, fault: Fault, since: Date, chargeIds: string[], settled: boolean) {
  const problems: string[] = [];
  const lost = await undelivered(ctx, since);
  const unpaid = await ctx.db.transaction.count({ where: { id: { in: chargeIds }, status: { not: "paid" } } });
  const doubled = await ctx.db.$queryRaw<Array<{ n: number }>>`
    SELECT count(*)::int AS n FROM (SELECT chain_id, attempt FROM webhook_deliveries GROUP BY 1, 2 HAVING count(*) > 1) x`;
  const gaps = await ctx.db.$queryRaw<Array<{ n: number }>>`
    SELECT count(*)::int AS n FROM (SELECT chain_id FROM webhook_deliveries GROUP BY 1 HAVING max(attempt) <> count(*)) x`;
  const stuck = await ctx.db.webhookDelivery.count({
    where: { status: "pending", scheduled_at: { lt: new Date(Date.now() - RECONCILER_PERIOD_MS) } },
  });
  const events = await ctx.db.event.findMany({
    where: { store_id: ctx.storeId, created_at: { gte: since } },
    select: { id: true },
  });
  const eventIds = new Set(events.map((e) => e.id));
  const requests = ctx.receiver.requestsTo("/hook").filter((r) => eventIds.has(String(r.headers["x-event-id"])));
  const rows = new Set(
    (await ctx.db.webhookDelivery.findMany({ where: { event_id: { in: [...eventIds] } }, select: { id: true } })).map(
      (r) => r.id,
    ),
  );
  const rowless = requests.filter((r) => !rows.has(String(r.headers["x-delivery-id"]))).length;
  const byDelivery = new Map<string, Date[]>();
  for (const r of requests) {
    const id = String(r.headers["x-delivery-id"]);
    byDelivery.set(id, [...(byDelivery.get(id) ?? []), r.receivedAt]);
  }
  const resendGaps = [...byDelivery.values()]
    .filter((times) => times.length > 1)
    .map((times) => (times[1] as Date).getTime() - (times[0] as Date).getTime());
  const ready = await fetch(`${ctx.apiUrl}/ready`)
    .then((r) => r.status)
    .catch(() => 0);
  const workerAlive = ctx.worker.child.exitCode === null && ctx.worker.child.signalCode === null;

  if (!settled) problems.push(`did not settle within ${SETTLE_TIMEOUT_MS} ms`);
  if (lost > 0) problems.push(`${lost} events never delivered`);
  if (unpaid > 0) problems.push(`${unpaid} charges not paid`);
  if ((doubled[0]?.n ?? 0) > 0) problems.push(`${doubled[0]?.n} attempts recorded twice`);
  if ((gaps[0]?.n ?? 0) > 0) problems.push(`${gaps[0]?.n} chains missing an attempt row`);
  if (stuck > 0) problems.push(`${stuck} deliveries pending past the reconciler's period`);
  if (rowless > 0) problems.push(`${rowless} requests without a delivery row`);
  if (ready !== 200) problems.push(`api /ready answered ${ready}`);
  if (!workerAlive) problems.push("worker not running");
  return {
    problems,
    events: eventIds.size,
    lost_events: lost,
    unpaid_charges: unpaid,
    receiver_requests: requests.length,
    duplicates_at_receiver: requests.length - new Set(requests.map((r) => String(r.headers["x-event-id"]))).size,
    resent_same_delivery_id: resendGaps.length,
    resent_after_ms_max: resendGaps.length === 0 ? null : Math.max(...resendGaps),
    api_ready: ready === 200,
    worker_alive: workerAlive,
  };
}

/**
 * Starts service `name` as `npm run start:<name>` does, with `env`, waits for `ready` in its output, and can start it
 * again.
 */
async function startService(env: Record<string, string>, name: ServiceName, ready: RegExp): Promise<Service> {
  const { nodeArgs, bundle } = serviceCommand(name);
  const start = async () => {
    const child = spawn(process.execPath, [...nodeArgs, bundle], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    if (LOG_DIR !== undefined) {
      const log = createWriteStream(path.join(LOG_DIR, `${name}.log`), {
        flags: "a",
      });
      child.stdout?.pipe(log);
      child.stderr?.pipe(log);
    }
    await new Promise<void>((resolve, reject) => {
      let output = "";
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (ready.test(output)) resolve();
        if (output.length > 100_000) output = output.slice(-10_000);
      };
      child.stdout?.on("data", onData);
      child.stderr?.on("data", onData);
      child.once("exit", (code) => reject(new Error(`${name} exited (${code}):\n${output.slice(-4000)}`)));
    });
    return child;
  };
  const service: Service = {
    child: await start(),
    async restart() {
      service.child = await start();
    },
  };
  return service;
}

main().catch((err: unknown) => {
  process.stderr.write(`chaos failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
