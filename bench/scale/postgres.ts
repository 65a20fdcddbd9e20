/**
 * What each paid charge costs PostgreSQL in disk and in WAL (DESIGN §10 "No copies"; the targets: ≤ 8 KB on disk and
 * ≤ 20 KB of WAL per paid charge with 5 endpoints whose first attempts succeed).
 *
 * The service runs as deployed: the API and the worker in their own processes (the bundles `npm run build` writes),
 * on a PostgreSQL of the bench's own (initdb on a free loopback port, with PostgreSQL's durability defaults, so the
 * WAL is what a deployed server writes: full-page writes included) and a Redis of its own. A merchant with 5 endpoints
 * on a local receiver (answering 200) creates charges as an integrator does (`POST /v1/transactions` with an
 * `Idempotency-Key`, a customer and metadata), and each is paid (`POST /v1/transactions/{id}/simulate-payment`, the
 * sandbox's inbound path). After a warm-up the bench takes a checkpoint, reads every table's size (heap, TOAST and
 * indexes) and the WAL position, runs `BENCH_PG_CHARGES` (1,000) paid charges, waits for their 10 first attempts to
 * succeed, and reads them again.
 *
 * The WAL of the run is then read back with `pg_waldump`: its bytes per charge by record type (`Btree/INSERT_LEAF` is
 * an index entry, `Heap/UPDATE` an update that was not HOT) and by table, a table's indexes and partitions counted
 * under it: where the WAL goes, so that the next change aims at the largest share.
 *
 * `measurePostgres()` returns `{charges, disk_bytes_per_charge, wal_bytes_per_charge, tables: {<table>: {bytes_per_charge,
 * rows_inserted_per_charge, rows_updated_per_charge, hot_updates_per_charge}}, wal_bytes_per_charge_by_record_type,
 * wal_bytes_per_charge_by_table, settings}`; run alone (`npx tsx bench/scale/postgres.ts`), it prints that as JSON.
 * Not a timed test.
 */
import type { ChildProcess } from "node:child_process";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "pg";
import { createDb } from "@lm/db";
import {
  createEndpointRow,
  createTestMerchant,
  REPO_ROOT,
  startPostgres,
  startRedis,
  TEST_ENCRYPTION_KEY,
  waitUntil,
} from "@lm/testing";
import { ensureDatabaseExists } from "../../packages/db/src/migrate";
import { round, runBenchPart, startApi, startChild, startWorker, workerEnv } from "../support/children";
import { payCharges } from "../support/charges";

const run = promisify(execFile);

/** Paid charges measured. */
const CHARGES = Number(process.env.BENCH_PG_CHARGES ?? 1_000);
/** Paid charges before the measurement, so that caches, statistics and the first pages of every table exist. */
const WARM_UP_CHARGES = 100;
/** Account endpoints of the merchant, all subscribed to every event. */
const ENDPOINTS = 5;
/** Charges created and paid at once. */
const CONCURRENCY = 8;

/** One table's counters, as `pg_stat_user_tables` and the size functions give them (partitions under their root). */
interface TableReading {
  bytes: number;
  inserted: number;
  updated: number;
  hot: number;
}

/** Every table's size and write counters, a partition counted under its partitioned table. */
async function readTables(client: Client): Promise<Map<string, TableReading>> {
  // Statistics reach the shared counters within about a second of each backend's last transaction.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  await client.query("SELECT pg_stat_clear_snapshot()");
  const { rows } = await client.query<{ name: string; bytes: string; ins: string; upd: string; hot: string }>(
    `SELECT coalesce(pg_partition_root(relid), relid)::regclass::text AS name,
            sum(pg_total_relation_size(relid)) AS bytes, sum(n_tup_ins) AS ins, sum(n_tup_upd) AS upd,
            sum(n_tup_hot_upd) AS hot
       FROM pg_stat_user_tables WHERE relname <> '_prisma_migrations'
      GROUP BY 1`,
  );
  return new Map(
    rows.map((row) => [
      row.name,
      { bytes: Number(row.bytes), inserted: Number(row.ins), updated: Number(row.upd), hot: Number(row.hot) },
    ]),
  );
}

/**
 * The WAL between `from` and `to` (LSNs) as `pg_waldump` reads it from the server's `pg_wal`: bytes by record type
 * (`Heap/INSERT`, `Btree/INSERT_LEAF`, …) and by table (a record counted under the table, partition root included, of
 * the first block it names; an index under its table), the largest first.
 */
async function walBreakdown(client: Client, from: string, to: string) {
  const [dataDir, bindir] = await Promise.all([
    client.query<{ dir: string }>("SELECT current_setting('data_directory') AS dir"),
    run("pg_config", ["--bindir"]),
  ]);
  const dump = await run(
    path.join(bindir.stdout.trim(), "pg_waldump"),
    ["-p", path.join(dataDir.rows[0]?.dir ?? "", "pg_wal"), "-s", from, "-e", to],
    { maxBuffer: 1 << 30 },
  );
  const { rows } = await client.query<{ node: string; name: string }>(
    `SELECT c.relfilenode::text AS node,
            coalesce(pg_partition_root(coalesce(i.indrelid, c.oid)), coalesce(i.indrelid, c.oid))::regclass::text AS name
       FROM pg_class c LEFT JOIN pg_index i ON i.indexrelid = c.oid WHERE c.relfilenode <> 0`,
  );
  const tableOf = new Map(rows.map((row) => [row.node, row.name]));
  const byType = new Map<string, number>();
  const byTable = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, bytes: number) => map.set(key, (map.get(key) ?? 0) + bytes);
  for (const line of dump.stdout.split("\n")) {
    const record = /^rmgr: (\S+)\s+len \(rec\/tot\):\s*\d+\/\s*(\d+),.*?desc: (\S+)/.exec(line);
    if (!record) continue;
    const bytes = Number(record[2]);
    add(byType, `${record[1]}/${record[3]}`, bytes);
    const block = / rel \d+\/\d+\/(\d+)/.exec(line);
    add(byTable, block ? (tableOf.get(block[1] as string) ?? "(other relations)") : "(no relation: commits, …)", bytes);
  }
  return { byType, byTable };
}

/** The largest entries of `bytes`, divided by `charges`, as a JSON object. */
function perCharge(bytes: Map<string, number>, charges: number, largest: number): Record<string, number> {
  return Object.fromEntries(
    [...bytes]
      .sort((a, b) => b[1] - a[1])
      .slice(0, largest)
      .map(([name, total]) => [name, round(total / charges, 0)]),
  );
}

async function walPosition(client: Client): Promise<string> {
  return (await client.query<{ lsn: string }>("SELECT pg_current_wal_lsn()::text AS lsn")).rows[0]?.lsn ?? "0/0";
}

/** Measures disk and WAL per paid charge (see the file's comment). */
export async function measurePostgres(): Promise<Record<string, unknown>> {
  const children: ChildProcess[] = [];
  const postgres = await startPostgres({ durable: true });
  const redis = await startRedis();
  const databaseUrl = postgres.url("lm_scale");
  const db = createDb(databaseUrl);
  const client = new Client({ connectionString: databaseUrl });
  try {
    await ensureDatabaseExists(databaseUrl);
    await run(path.join(REPO_ROOT, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    await client.connect();
    const receiver = await startChild(children, [__filename, "receiver"], {}, /listening (\d+)/);
    const receiverUrl = `http://127.0.0.1:${receiver.match[1]}`;
    const env = {
      ...workerEnv({ databaseUrl, redisUrl: redis.url, queuePrefix: "lm" }, 50),
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY.toString("base64"),
    };
    await startWorker(children, env);
    const api = await startApi(children, env);

    const merchant = await createTestMerchant(db);
    for (let i = 0; i < ENDPOINTS; i++)
      await createEndpointRow(db, TEST_ENCRYPTION_KEY, { storeId: merchant.storeId, url: `${receiverUrl}/e${i}` });
    const succeeded = async () =>
      Number(
        (await client.query<{ n: string }>("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'succeeded'"))
          .rows[0]?.n,
      );
    const deliveriesOf = (charges: number) => charges * 2 * ENDPOINTS;
    const waitForDeliveries = (charges: number) =>
      waitUntil(
        `${deliveriesOf(charges)} succeeded deliveries`,
        async () => (await succeeded()) >= deliveriesOf(charges),
        {
          timeoutMs: 10 * 60_000,
          intervalMs: 500,
        },
      );

    await payCharges(api.base, [merchant.testKey], WARM_UP_CHARGES, CONCURRENCY);
    await waitForDeliveries(WARM_UP_CHARGES);
    await client.query("VACUUM ANALYZE");
    await client.query("CHECKPOINT");
    const before = await readTables(client);
    const walBefore = await walPosition(client);

    await payCharges(api.base, [merchant.testKey], CHARGES, CONCURRENCY);
    await waitForDeliveries(WARM_UP_CHARGES + CHARGES);

    const walAfter = await walPosition(client);
    const after = await readTables(client);
    const wal = Number(
      (await client.query<{ bytes: string }>("SELECT pg_wal_lsn_diff($1, $2) AS bytes", [walAfter, walBefore])).rows[0]
        ?.bytes,
    );
    const breakdown = await walBreakdown(client, walBefore, walAfter);
    const tables: Record<string, Record<string, number>> = {};
    let disk = 0;
    for (const [name, reading] of after) {
      const was = before.get(name) ?? { bytes: 0, inserted: 0, updated: 0, hot: 0 };
      const grown = reading.bytes - was.bytes;
      disk += grown;
      if (grown === 0 && reading.inserted === was.inserted && reading.updated === was.updated) continue;
      tables[name] = {
        bytes_per_charge: round(grown / CHARGES, 0),
        rows_inserted_per_charge: round((reading.inserted - was.inserted) / CHARGES, 2),
        rows_updated_per_charge: round((reading.updated - was.updated) / CHARGES, 2),
        hot_updates_per_charge: round((reading.hot - was.hot) / CHARGES, 2),
      };
    }
    return {
      charges: CHARGES,
      endpoints: ENDPOINTS,
      disk_bytes_per_charge: round(disk / CHARGES, 0),
      wal_bytes_per_charge: round(wal / CHARGES, 0),
      tables,
      wal_bytes_per_charge_by_record_type: perCharge(breakdown.byType, CHARGES, 10),
      wal_bytes_per_charge_by_table: perCharge(breakdown.byTable, CHARGES, 10),
      settings: "PostgreSQL defaults (fsync, synchronous_commit, full_page_writes on); checkpoint before the run",
    };
  } finally {
    for (const child of children) child.kill("SIGKILL");
    await client.end().catch(() => undefined);
    await db.$disconnect();
    await redis.destroy();
    await postgres.destroy();
  }
}

if (require.main === module) runBenchPart(measurePostgres);
