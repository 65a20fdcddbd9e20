/**
 * What removing history past retention costs as the table grows (DESIGN §10 "Retention": removal in bulk, at a cost
 * that does not grow with the table).
 *
 * On a PostgreSQL of the bench's own (initdb on a free loopback port), migrated as deployed, `events` is filled with
 * SQL to `BENCH_RETENTION_SIZES` rows (default 100,000 and 5,000,000, one database each): the oldest week holds
 * `BENCH_RETENTION_OLD_ROWS` (20,000) of them, the rest spread evenly over the 12 weeks after it. The weeks are made by
 * the service's own `applyRetention` (with a retention long enough to drop nothing), then the bench drops the oldest
 * week as the hourly job does (`dropHistoryPartition`: count its rows, drop it, under the job's advisory lock), and
 * times the whole retention run that follows (`applyRetention` as of 90 days after that week, every week ahead
 * already made): it finds nothing more to drop.
 *
 * Idempotency keys are deleted row by row instead (their unique key leaves no room for a partition key), in batches of
 * 5,000 through `expires_at`: with `BENCH_RETENTION_KEYS` (300,000) expired keys among as many live ones, the bench
 * times the retention run that deletes them, which must outpace the 1,000 creations a second the API can reach.
 *
 * `measureRetention()` returns `{old_week_rows, runs: [{table_rows, fill_s, drop_old_week_ms, count_old_week_ms,
 * retention_run_ms, rows_removed}], idempotency_keys: {expired, live, run_ms, deleted_per_s}, settings}`; run alone
 * (`npx tsx bench/scale/retention.ts`), it prints that as JSON. Not a timed test.
 */
import { Client } from "pg";
import { loadConfig } from "@lm/config";
import { createDb, dropHistoryPartition, listHistoryPartitions, createRepositories } from "@lm/db";
import { applyRetention, boundTime, WEEK_MS, weekStart } from "@lm/domain";
import { REPO_ROOT, startPostgres } from "@lm/testing";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { runBenchPart } from "../support/children";

const run = promisify(execFile);

/** Rows of `events` in each measured database. */
const SIZES = (process.env.BENCH_RETENTION_SIZES ?? "100000,5000000").split(",").map(Number);
/** Rows of the oldest week, the one dropped: the same whatever the table holds. */
const OLD_ROWS = Number(process.env.BENCH_RETENTION_OLD_ROWS ?? 20_000);
/** Weeks after the oldest that hold the rest of the rows. */
const NEWER_WEEKS = 12;
const DAY_MS = 86_400_000;
/** Expired idempotency keys deleted by the measured run, and as many live ones beside them. */
const KEYS = Number(process.env.BENCH_RETENTION_KEYS ?? 300_000);

/** Milliseconds since `start`, to 0.1 ms. */
function since(start: bigint): number {
  return Math.round(Number(process.hrtime.bigint() - start) / 1e5) / 10;
}

/** `rows` events whose ids (and so weeks) are spread evenly over `[fromMs, fromMs + spanMs)`, written by one INSERT. */
async function fill(client: Client, rows: number, fromMs: number, spanMs: number, offset: number): Promise<void> {
  await client.query(
    `INSERT INTO events (id, store_id, mode, type, data, created_at)
     SELECT 'evt_' || bench_ulid_time(ms) || upper(lpad(to_hex(g + $4), 16, '0')), 'sto_bench', 'test',
            'transaction.paid', '{"object":"transaction"}', to_timestamp(ms / 1000.0)
     FROM generate_series(0, $1 - 1) AS g, LATERAL (SELECT $2::bigint + floor(g * ($3::float8 / $1))::bigint AS ms) t`,
    [rows, fromMs, spanMs, offset],
  );
}

/** One database of `tableRows` events: fill, make the weeks, drop the oldest, run retention. */
async function measureSize(url: string, tableRows: number): Promise<Record<string, number>> {
  await run(path.join(REPO_ROOT, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: url, DATABASE_DIRECT_URL: url },
  });
  const client = new Client({ connectionString: url });
  await client.connect();
  const db = createDb(url, { maxConnections: 2 });
  try {
    await client.query(`
      CREATE FUNCTION bench_ulid_time(ms bigint) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
      DECLARE alphabet CONSTANT text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ'; encoded text := '';
      BEGIN
        FOR i IN 1..10 LOOP encoded := substr(alphabet, (ms % 32)::int + 1, 1) || encoded; ms := ms / 32; END LOOP;
        RETURN encoded;
      END $$;
      INSERT INTO sellers (id, legal_name, document, document_masked, updated_at)
        VALUES ('sel_bench', 'Bench', 'x', 'x', now());
      INSERT INTO stores (id, seller_id, name, updated_at) VALUES ('sto_bench', 'sel_bench', 'Bench', now());`);
    // The oldest week is the current one; the rest follow it, as if the bench ran 13 weeks later.
    const oldWeek = weekStart(Date.now());
    const later = new Date(oldWeek + (NEWER_WEEKS + 1) * WEEK_MS);
    const keepEverything = loadConfig({ NODE_ENV: "test", DATABASE_URL: url, RETENTION_DAYS: "3650" });
    await applyRetention({ repos: createRepositories(db), config: keepEverything }, later);

    const filling = process.hrtime.bigint();
    await fill(client, OLD_ROWS, oldWeek, WEEK_MS, 0);
    await fill(client, tableRows - OLD_ROWS, oldWeek + WEEK_MS, NEWER_WEEKS * WEEK_MS, OLD_ROWS);
    await client.query("VACUUM ANALYZE events");
    await client.query("CHECKPOINT");
    const fillS = Math.round(since(filling) / 100) / 10;

    // 90 days after the end of the oldest week, with every week ahead of that instant made beforehand.
    const now = new Date(oldWeek + WEEK_MS + 90 * DAY_MS);
    await applyRetention({ repos: createRepositories(db), config: keepEverything }, now);
    const partitions = await listHistoryPartitions(db.pool, "events");
    const oldest = partitions.find((p) => p.to !== null && boundTime(p.to) === oldWeek + WEEK_MS);
    if (oldest === undefined) throw new Error("the oldest week's partition is missing");

    const counting = process.hrtime.bigint();
    await client.query(`SELECT count(*) FROM lm_partitions.${oldest.name}`);
    const countMs = since(counting);
    const dropping = process.hrtime.bigint();
    const removed = await dropHistoryPartition(db.pool, "events", oldest.name);
    const dropMs = since(dropping);
    const config = loadConfig({ NODE_ENV: "test", DATABASE_URL: url, RETENTION_DAYS: "90" });
    const running = process.hrtime.bigint();
    const report = await applyRetention({ repos: createRepositories(db), config }, now);
    const runMs = since(running);
    const left = await client.query<{ rows: number }>("SELECT count(*)::int AS rows FROM events");
    if (removed !== OLD_ROWS || left.rows[0]?.rows !== tableRows - OLD_ROWS) {
      throw new Error(`expected ${OLD_ROWS} rows removed, got ${removed}; ${left.rows[0]?.rows} left`);
    }
    return {
      table_rows: tableRows,
      fill_s: fillS,
      count_old_week_ms: countMs,
      drop_old_week_ms: dropMs,
      retention_run_ms: runMs,
      rows_removed: removed + report.removed.events,
    };
  } finally {
    await client.end();
    await db.$disconnect();
  }
}

/** Times the retention run that deletes {@link KEYS} expired idempotency keys among as many live ones. */
async function measureIdempotencyPurge(url: string): Promise<Record<string, number>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  const db = createDb(url, { maxConnections: 2 });
  try {
    await client.query(
      `INSERT INTO idempotency_keys (id, store_id, mode, key, request_hash, created_at, expires_at)
       SELECT 'key_' || g, 'sto_bench', 'test', 'k' || g, 'h', now() - interval '25 hours' + g * interval '1 ms',
              now() - interval '1 hour' + (CASE WHEN g % 2 = 0 THEN interval '0' ELSE interval '2 hours' END)
       FROM generate_series(1, $1::int * 2) AS g`,
      [KEYS],
    );
    await client.query("VACUUM ANALYZE idempotency_keys");
    const config = loadConfig({ NODE_ENV: "test", DATABASE_URL: url, RETENTION_DAYS: "90" });
    const running = process.hrtime.bigint();
    const report = await applyRetention({ repos: createRepositories(db), config }, new Date());
    const runMs = since(running);
    return {
      expired: report.removed.idempotency_keys,
      live: KEYS,
      run_ms: runMs,
      deleted_per_s: Math.round((report.removed.idempotency_keys / runMs) * 1000),
    };
  } finally {
    await client.end();
    await db.$disconnect();
  }
}

/** Measures the drop of an old week in tables of each size (see the file's comment). */
export async function measureRetention(): Promise<Record<string, unknown>> {
  const postgres = await startPostgres();
  try {
    const runs: Array<Record<string, number>> = [];
    for (const [i, size] of SIZES.entries()) {
      const admin = new Client({ connectionString: postgres.url("postgres") });
      await admin.connect();
      await admin.query(`CREATE DATABASE lm_retention_${i}`);
      await admin.end();
      runs.push(await measureSize(postgres.url(`lm_retention_${i}`), size));
    }
    const idempotencyKeys = await measureIdempotencyPurge(postgres.url("lm_retention_0"));
    return {
      old_week_rows: OLD_ROWS,
      runs,
      idempotency_keys: idempotencyKeys,
      settings: { sizes: SIZES, newer_weeks: NEWER_WEEKS, postgres: "own initdb, fsync off" },
    };
  } finally {
    await postgres.destroy();
  }
}

if (require.main === module) runBenchPart(measureRetention);
