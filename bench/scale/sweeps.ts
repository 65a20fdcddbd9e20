/**
 * What a tick of each sweep costs PostgreSQL as the history grows (DESIGN §10 "Sweeps": the same per tick whatever the
 * history; the target: the tick at the large history within 2 times the tick at 10,000 rows).
 *
 * On a PostgreSQL of the bench's own (initdb on a free loopback port, fsync off), two databases migrated as deployed
 * get a history written with `generate_series` (`insertSweepHistory` of @lm/testing): 10,000 rows per swept table,
 * and `BENCH_SWEEP_ROWS` (10,000,000) in the other. None of it is due: half the deliveries succeeded and half wait a
 * day for a retry; the inbox items are processed, duplicates or badly signed; one seller's ledger holds the rows (and
 * as many again spread over other sellers), with settled refunds; the charges expired or are due in a day. Then
 * {@link DUE_ROWS} due rows per table are added (`insertDueSweepRows`), the drift check's first ticks (which sum the
 * seller's history into its balance's checkpoint, at most `LEDGER_MAX_SETTLED_ENTRIES` entries a tick, until caught
 * up) are timed apart as `drift_catch_up` (how many, the longest, their total), and each sweep's tick is timed
 * {@link TICKS} times (after one untimed), as the worker runs it but with a producer that enqueues nothing (so the
 * time is the database's and the sweep's own): due deliveries, stranded inbox items, the drift check's statement,
 * running recoveries, the recurrence engine's read of the due recurrences (a million at most in the large history);
 * the charge expiry once (its tick expires the due charges).
 *
 * Then the recovery of an endpoint over a window of `BENCH_RECOVERY_EVENTS` (1,000,000) events, one in 200 missed (the
 * others have a succeeded delivery to it): the API's count and record, and the worker's pages to the end.
 *
 * `measureSweeps()` returns `{sizes: {<rows>: {build_seconds, drift_catch_up, ticks_ms: {<sweep>: median}}},
 * ratio: {<sweep>: large / small}, recovery: {events, missed, api_ms, worker_ms, pages, chains}, settings}`; run alone
 * (`npx tsx bench/scale/sweeps.ts`), it prints that as JSON. Not a timed test.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "pg";
import { createDb, findDueRecurrenceIds, listRunningWebhookRecoveryIds, type Db, createRepositories } from "@lm/db";
import {
  continueWebhookRecovery,
  expireDueTransactions,
  findRecentBalanceDrift,
  idFloor,
  recentReconciliation,
  recoverWebhookEndpoint,
  type UseCaseDeps,
} from "@lm/domain";
import { createLogger } from "@lm/logging";
import {
  createEndpointRow,
  createStoreRow,
  insertDueSweepRows,
  insertSweepHistory,
  REPO_ROOT,
  startPostgres,
  testConfig,
  TEST_ENCRYPTION_KEY,
} from "@lm/testing";
import type { WorkerDeps } from "../../apps/worker/src/deps";
import { enqueueDueDeliveries } from "../../apps/worker/src/sweepers/due-deliveries";
import { enqueueStrandedInboxItems } from "../../apps/worker/src/sweepers/stranded-inbox-items";
import { runBenchPart } from "../support/children";

const run = promisify(execFile);

/** The small history, rows per swept table. */
const SMALL_ROWS = 10_000;
/** The large history, rows per swept table. */
const LARGE_ROWS = Number(process.env.BENCH_SWEEP_ROWS ?? 10_000_000);
/** Due rows per table a tick finds. */
const DUE_ROWS = 100;
/** Timed ticks of each read-only sweep; the median is reported. */
const TICKS = 11;
/** Events in the recovered window. */
const RECOVERY_EVENTS = Number(process.env.BENCH_RECOVERY_EVENTS ?? 1_000_000);
/** One event in this many was missed by the endpoint. */
const MISSED_EVERY = 200;

/** Options of {@link measureSweeps}; each defaults to its environment variable or constant above. */
export interface SweepBenchOptions {
  /** Rows per table of the large history (`BENCH_SWEEP_ROWS`). */
  largeRows?: number;
  /** Events in the recovered window (`BENCH_RECOVERY_EVENTS`). */
  recoveryEvents?: number;
}

/** The median of `values`. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Milliseconds `work` takes, to 0.1 ms. */
async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return Math.round(Number(process.hrtime.bigint() - start) / 1e5) / 10;
}

/**
 * The worker's dependencies on database `db`, with a producer and metrics that do nothing: a sweep's offers cost no
 * Redis round trip, so its time is the database's and its own.
 */
function sweepDeps(url: string, db: Db): WorkerDeps {
  const producer = {
    enqueue: async () => undefined,
    enqueueBulk: async () => undefined,
    countMissingJobs: async () => 0,
    queue: () => ({ getFailed: async () => [] }),
    shards: () => [],
    close: async () => undefined,
  };
  const counter = { inc: () => undefined, set: () => undefined };
  return {
    config: testConfig(url),
    db,
    repos: createRepositories(db),
    producer,
    logger: createLogger({ level: "error", service: "bench", silent: true }),
    now: () => new Date(),
    metrics: { reconcilerRevivals: counter, ledgerDrift: counter },
  } as unknown as WorkerDeps;
}

/** Creates database `name` on `postgres` and migrates it as deployed; returns its URL. */
async function migratedDatabase(postgresUrl: (database: string) => string, name: string): Promise<string> {
  const admin = new Client({ connectionString: postgresUrl("postgres") });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = postgresUrl(name);
  await run(path.join(REPO_ROOT, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: url, DATABASE_DIRECT_URL: url },
  });
  return url;
}

/** One history size: build it, then time each sweep's tick over it. */
async function measureSize(url: string, rows: number): Promise<Record<string, unknown>> {
  const db = createDb(url, { maxConnections: 4 });
  const deps = sweepDeps(url, db);
  try {
    // A real store and seller (the charge expiry writes events, whose store must exist); the endpoint and acquirer the
    // rows name need not (foreign keys are off while the history is written).
    const { store } = await createStoreRow(db, TEST_ENCRYPTION_KEY);
    const scope = { storeId: store.id, sellerId: store.seller_id, endpointId: "we_bench", acquirerId: "acq_bench" };
    const now = new Date();
    const started = Date.now();
    await insertSweepHistory(db.pool, scope, rows, now);
    const buildSeconds = Math.round((Date.now() - started) / 100) / 10;
    await insertDueSweepRows(db.pool, scope, DUE_ROWS, new Date());
    const repos = createRepositories(db);
    const drift = () => findRecentBalanceDrift(repos, { since: new Date(Date.now() - 600_000), now: new Date() });
    // The drift check's first ticks sum the history into the balance's checkpoint, a bounded part per tick, and
    // compare the balance only once caught up.
    const catchUp: number[] = [];
    let compared = false;
    while (!compared) {
      catchUp.push(
        await timed(async () => {
          const now = new Date();
          const rows = await repos.ledger.listRecentBalanceReconciliation(
            recentReconciliation({ since: new Date(now.getTime() - 600_000), now }),
          );
          compared = rows.some((row) => row.seller_id === store.seller_id);
        }),
      );
    }
    const sweeps: Record<string, () => Promise<unknown>> = {
      due_deliveries: () => enqueueDueDeliveries(deps),
      stranded_inbox_items: () => enqueueStrandedInboxItems(deps),
      balance_drift: drift,
      running_recoveries: () => listRunningWebhookRecoveryIds(db.pool, new Date(), 100),
      due_recurrences: () => findDueRecurrenceIds(db.pool, new Date(), 100),
    };
    const ticks: Record<string, number> = {};
    for (const [name, sweep] of Object.entries(sweeps)) {
      await sweep();
      const times: number[] = [];
      for (let i = 0; i < TICKS; i++) times.push(await timed(sweep));
      ticks[name] = median(times);
    }
    ticks.charge_expiry = await timed(() => expireDueTransactions(deps));
    return {
      rows,
      build_seconds: buildSeconds,
      drift_catch_up: {
        ticks: catchUp.length,
        max_tick_ms: Math.max(...catchUp),
        total_ms: Math.round(catchUp.reduce((sum, ms) => sum + ms, 0)),
      },
      ticks_ms: ticks,
    };
  } finally {
    await db.$disconnect();
  }
}

/** The recovery of an endpoint over a window of `events` events, one in {@link MISSED_EVERY} missed. */
async function measureRecovery(url: string, events: number): Promise<Record<string, unknown>> {
  const db = createDb(url, { maxConnections: 4 });
  const deps = sweepDeps(url, db) as unknown as UseCaseDeps;
  try {
    const { store } = await createStoreRow(db, TEST_ENCRYPTION_KEY);
    const { endpoint } = await createEndpointRow(db, TEST_ENCRYPTION_KEY, {
      storeId: store.id,
      url: "http://127.0.0.1:9/recovered",
    });
    const start = Date.now() - 3_600_000;
    const started = Date.now();
    // Events a few ms apart over 50 minutes, ids in their creation order (made at the window's start: one week's
    // partition); a succeeded delivery of each but one in MISSED_EVERY.
    await db.pool.query(
      `INSERT INTO events (id, store_id, mode, type, data, created_at)
       SELECT $5 || lpad(g::text, 16, '0'), $1, 'test', 'transaction.paid', '{}',
              $2::timestamptz + g * ($3::float8 / $4) * interval '1 ms'
       FROM generate_series(1, $4::int) g`,
      [store.id, new Date(start), 3_000_000, events, idFloor("event", start).slice(0, 14)],
    );
    await db.pool.query(
      `INSERT INTO webhook_deliveries (id, chain_id, event_id, event_type, store_id, destination_type, endpoint_id, url,
         attempt, status, scheduled_at, attempted_at, created_at)
       SELECT d, d, e.id, e.type, e.store_id, 'endpoint', $2, $3, 1, 'succeeded', e.created_at, e.created_at, e.created_at
       FROM events e, LATERAL (SELECT 'whd_' || substr(e.id, 5) AS d) x
       WHERE e.store_id = $1 AND right(e.id, 12)::bigint % $4 <> 0`,
      [store.id, endpoint.id, endpoint.url, MISSED_EVERY],
    );
    await db.pool.query("ANALYZE events");
    await db.pool.query("ANALYZE webhook_deliveries");
    const buildSeconds = Math.round((Date.now() - started) / 100) / 10;
    let recorded = { events: 0 };
    const apiMs = await timed(async () => {
      recorded = await recoverWebhookEndpoint(deps, store.seller_id, endpoint.id, { since: new Date(start - 1000) });
    });
    const recovery = await db.webhookRecovery.findFirstOrThrow({ where: { endpoint_id: endpoint.id } });
    const workerMs = await timed(() => continueWebhookRecovery(deps, recovery.id));
    const done = await db.webhookRecovery.findUniqueOrThrow({ where: { id: recovery.id } });
    return {
      events,
      missed: Math.floor(events / MISSED_EVERY),
      build_seconds: buildSeconds,
      api_count_ms: apiMs,
      api_events: recorded.events,
      worker_ms: workerMs,
      pages: done.pages,
      chains: done.events,
      completed: done.completed_at !== null,
    };
  } finally {
    await db.$disconnect();
  }
}

/** Measures each sweep's tick at both history sizes, and a large recovery (see the file's comment). */
export async function measureSweeps(options: SweepBenchOptions = {}): Promise<Record<string, unknown>> {
  const largeRows = options.largeRows ?? LARGE_ROWS;
  const recoveryEvents = options.recoveryEvents ?? RECOVERY_EVENTS;
  const postgres = await startPostgres();
  try {
    const small = await measureSize(await migratedDatabase(postgres.url, "lm_sweeps_small"), SMALL_ROWS);
    const large = await measureSize(await migratedDatabase(postgres.url, "lm_sweeps_large"), largeRows);
    const smallTicks = small.ticks_ms as Record<string, number>;
    const largeTicks = large.ticks_ms as Record<string, number>;
    const ratio = Object.fromEntries(
      Object.keys(smallTicks).map((name) => [
        name,
        Math.round(((largeTicks[name] ?? 0) / Math.max(smallTicks[name] ?? 0, 0.1)) * 100) / 100,
      ]),
    );
    const recovery = await measureRecovery(await migratedDatabase(postgres.url, "lm_sweeps_recovery"), recoveryEvents);
    return {
      sizes: { [SMALL_ROWS]: small, [largeRows]: large },
      ratio,
      recovery,
      settings: { due_rows: DUE_ROWS, ticks: TICKS, postgres: "own initdb, fsync off" },
    };
  } finally {
    await postgres.destroy();
  }
}

if (require.main === module) runBenchPart(() => measureSweeps());
