/**
 * Migration 20261126190000 (DESIGN §10 "Retention") on a database that already has history: every row is carried
 * into the weekly partitions, each index and constraint is made again under its name (but the delivery→event foreign
 * key), and an id below every week goes to the partition before them.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Client } from "pg";
import { REPO_ROOT, databaseUrl, withAdminClient } from "@lm/testing";

const MIGRATIONS = path.join(REPO_ROOT, "prisma", "migrations");
const PARTITIONING = "20261126190000_partitioned_history";
const TABLES = ["events", "webhook_deliveries", "inbox_items"];
const DAY_MS = 86_400_000;
const name = `lm_partition_migration_${process.pid}_${Date.now()}`;

/** The 26-character ULID of instant `ms` with a fixed random part. */
function ulidAt(ms: number, random: string): string {
  const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  let time = "";
  for (let rest = ms, i = 0; i < 10; i++, rest = Math.floor(rest / 32)) time = alphabet[rest % 32] + time;
  return time + random.padEnd(16, "0");
}

describe("migration to partitioned history", () => {
  let client: Client;

  beforeAll(async () => {
    await withAdminClient((c) => c.query(`CREATE DATABASE "${name}"`));
    client = new Client({ connectionString: databaseUrl(name) });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
    await withAdminClient((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  });

  /** Per table: a digest of every row as text, in id order, and the row count. */
  async function contents() {
    const result: Record<string, { rows: number; digest: string }> = {};
    for (const table of TABLES) {
      const { rows } = await client.query<{ rows: number; digest: string }>(
        `SELECT count(*)::int AS rows, md5(string_agg(t::text, '|' ORDER BY t.id)) AS digest FROM ${table} t`,
      );
      result[table] = rows[0]!;
    }
    return result;
  }

  /** Per table: its indexes' definitions and its constraints' names and definitions, sorted. */
  async function structure() {
    const { rows } = await client.query<{ tablename: string; item: string }>(
      `SELECT tablename, indexdef AS item FROM pg_indexes WHERE schemaname = 'public' AND tablename = ANY($1)
       UNION ALL
       SELECT conrelid::regclass::text, conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint
       WHERE conrelid::regclass::text = ANY($1)
       ORDER BY 1, 2`,
      [TABLES],
    );
    // A partitioned table's index reads `ON ONLY <table>`: the same index, made on each partition too.
    return rows.map(({ tablename, item }) => `${tablename}: ${item.replace(" ON ONLY ", " ON ")}`);
  }

  test("when tables with rows of many weeks are partitioned, then every row, index and constraint is kept, and each row is in its week", async () => {
    const migrations = readdirSync(MIGRATIONS)
      .filter((entry) => /^\d{14}_/.test(entry))
      .sort();
    for (const entry of migrations.filter((m) => m < PARTITIONING)) {
      await client.query(readFileSync(path.join(MIGRATIONS, entry, "migration.sql"), "utf8"));
    }
    const now = Date.now();
    await client.query(`INSERT INTO sellers (id, legal_name, document, document_masked, updated_at)
      VALUES ('sel_1', 'Loja', 'x', 'x', now());
      INSERT INTO stores (id, seller_id, name, updated_at) VALUES ('sto_1', 'sel_1', 'Loja', now());
      INSERT INTO acquirers (id, slug, secret_ciphertext) VALUES ('acq_1', 'acq', 'x')`);
    const ages = [400, 200, 95, 30, 1, 0];
    for (const [i, age] of ages.entries()) {
      const at = new Date(now - age * DAY_MS);
      const body = ulidAt(at.getTime(), `R${i}`);
      await client.query(
        "INSERT INTO events (id, store_id, mode, type, data, created_at) VALUES ($1, 'sto_1', 'test', 'transaction.paid', $2, $3)",
        [`evt_${body}`, JSON.stringify({ id: `txn_${i}` }), at],
      );
      await client.query(
        `INSERT INTO webhook_deliveries (id, chain_id, attempt, status, event_id, event_type, store_id, destination_type,
           url, scheduled_at, created_at)
         VALUES ($1, $1, 1, 'succeeded', $2, 'transaction.paid', 'sto_1', 'endpoint', 'https://h.example', $3, $3)`,
        [`whd_${body}`, `evt_${body}`, at],
      );
      await client.query(
        `INSERT INTO inbox_items (id, acquirer_id, provider_event_id, signature_valid, raw_body, headers, received_at)
         VALUES ($1, 'acq_1', $1, true, '\\x00ff', '{}', $2)`,
        [`inb_${body}`, at],
      );
    }
    // An id that is no ULID of this era sorts before every week.
    await client.query(
      "INSERT INTO events (id, store_id, mode, type, data) VALUES ('evt_0', 'sto_1', 'test', 'transaction.paid', '{}')",
    );
    const rowsBefore = await contents();
    const structureBefore = await structure();

    await client.query(readFileSync(path.join(MIGRATIONS, PARTITIONING, "migration.sql"), "utf8"));

    expect(await contents()).toEqual(rowsBefore);
    expect(rowsBefore.events?.rows).toBe(ages.length + 1);
    expect(await structure()).toEqual(
      structureBefore.filter((item) => !item.startsWith("webhook_deliveries: webhook_deliveries_event_id_fkey ")),
    );
    const { rows: placed } = await client.query<{ id: string; partition: string }>(
      "SELECT id, tableoid::regclass::text AS partition FROM events ORDER BY id",
    );
    expect(placed[0]).toEqual({ id: "evt_0", partition: "lm_partitions.events_before" });
    for (const { id, partition } of placed.slice(1)) {
      const { rows } = await client.query<{ week: string }>(
        `SELECT to_char(date_trunc('week', created_at AT TIME ZONE 'UTC'), 'YYYYMMDD') AS week FROM events WHERE id = $1`,
        [id],
      );
      expect(partition).toBe(`lm_partitions.events_${rows[0]!.week}`);
    }
    const { rows: kinds } = await client.query<{ relkind: string }>(
      "SELECT relkind FROM pg_class WHERE oid = ANY($1::regclass[])",
      [TABLES.map((t) => `public.${t}`)],
    );
    expect(kinds.map((k) => k.relkind)).toEqual(["p", "p", "p"]);
  }, 60_000);
});
