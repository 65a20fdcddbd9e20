/**
 * Retention's statements (DESIGN §10 "Retention"): the weekly partitions of the history tables (`events`,
 * `webhook_deliveries`, `inbox_items`, partitioned by range of id in the schema `lm_partitions`, migration
 * 20261126190000), made ahead and dropped whole, and the batched deletes of the short-lived tables through their
 * `expires_at` indexes.
 *
 * Partition DDL takes no bound parameters (PostgreSQL has none for utility statements), so its text is built here from
 * names and bounds of ours ({@link rawSql}), checked against {@link PARTITION_NAME} and {@link PARTITION_BOUND}, and it
 * runs on a pool client with {@link run} rather than through `sqlQuery`, whose prepared statements are for repeated
 * texts. Each change runs in its own short transaction under one advisory lock, so the worker's hourly job and an
 * operator's `retention:run` never change partitions at once, and waits at most {@link PARTITION_LOCK_TIMEOUT} for the
 * parent's lock: a busy table makes the change fail and the next run do it, rather than queue every query behind it.
 */
import { onSql, onPool, type Connection } from "../connection";
import type { Pool, PoolClient } from "pg";
import { rawSql, sql, sqlQuery, type Sql, type SqlClient } from "../sql";

/** A partitioned history table. */
export type HistoryTable = "events" | "webhook_deliveries" | "inbox_items";

/** A short-lived table that retention deletes 30 days after `expires_at`. */
export type EndedRowsTable = "sessions" | "two_factor_challenges" | "mailed_tokens" | "trusted_devices";

/** One partition of a history table, with its range of ids: `from` inclusive, `to` exclusive; null is unbounded. */
export interface HistoryPartition {
  /** Name in the schema `lm_partitions`, such as `events_20261123`. */
  name: string;
  from: string | null;
  to: string | null;
}

/** The schema of the partitions, which Prisma does not read. */
const PARTITIONS_SCHEMA = "lm_partitions";
/** A partition's name: its table's name and `_before` or the week's Monday (`YYYYMMDD`). */
const PARTITION_NAME = /^(events|webhook_deliveries|inbox_items)_(before|\d{8})$/;
/** A bound: a type prefix and the 10 Crockford base-32 characters of a ULID's time. */
const PARTITION_BOUND = /^[a-z]{2,4}_[0-9A-HJKMNP-TV-Z]{10}$/;
/** Longest wait for a parent table's lock before a partition change gives up until the next run. */
const PARTITION_LOCK_TIMEOUT = "5s";

/**
 * The partitions of `table`, in no particular order, read from the catalog (`pg_inherits` and each partition's bound).
 * @throws the driver's error
 */
export async function listHistoryPartitions(client: SqlClient, table: HistoryTable): Promise<HistoryPartition[]> {
  const rows = await sqlQuery<{ name: string; bound: string }>(
    client,
    sql`SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
        FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = ${`public.${table}`}::regclass`,
  );
  return rows.map(({ name, bound }) => {
    const match = /FROM \((.+)\) TO \((.+)\)$/.exec(bound);
    const value = (text: string | undefined) => (text === undefined || text === "MINVALUE" ? null : text.slice(1, -1));
    return { name, from: value(match?.[1]), to: value(match?.[2]) };
  });
}

/**
 * Makes partition `partition` of `table` (its bounds both set), unless a partition of that name is already attached:
 * a table like the parent in all but indexes (columns, defaults, checks, each column's storage and compression), then
 * attached (which takes only a SHARE UPDATE EXCLUSIVE lock on the parent, so reads and writes go on) and given the
 * parent's indexes and foreign keys while it is empty.
 * @returns whether it was made by this call
 * @throws Error on a malformed name or bound; the driver's error, such as `lock_timeout` or overlapping bounds
 */
export async function createHistoryPartition(
  pool: Pool,
  table: HistoryTable,
  partition: HistoryPartition,
): Promise<boolean> {
  const { name, from, to } = checkedPartition(table, partition);
  if (from === null || to === null) throw new Error(`partition ${name} must have both bounds`);
  return inPartitionLock(pool, async (client) => {
    if (await isAttached(client, table, name)) return false;
    const qualified = rawSql(`${PARTITIONS_SCHEMA}.${name}`);
    const parent = rawSql(`public.${table}`);
    await run(client, sql`CREATE TABLE IF NOT EXISTS ${qualified} (LIKE ${parent} INCLUDING ALL EXCLUDING INDEXES)`);
    await run(
      client,
      sql`ALTER TABLE ${parent} ATTACH PARTITION ${qualified} FOR VALUES
      FROM (${rawSql(`'${from}'`)}) TO (${rawSql(`'${to}'`)})`,
    );
    return true;
  });
}

/**
 * Drops partition `name` of `table` with its rows: a catalog change, whatever the partition or the table holds
 * (it takes the parent's ACCESS EXCLUSIVE lock for that moment). Counting the rows it removes reads the partition once.
 * @returns the rows removed, or null when no such partition is attached (another run dropped it)
 * @throws Error on a malformed name; the driver's error, such as `lock_timeout`
 */
export async function dropHistoryPartition(pool: Pool, table: HistoryTable, name: string): Promise<number | null> {
  checkedPartition(table, { name, from: null, to: null });
  return inPartitionLock(pool, async (client) => {
    if (!(await isAttached(client, table, name))) return null;
    const qualified = rawSql(`${PARTITIONS_SCHEMA}.${name}`);
    const [counted] = await run<{ rows: number }>(client, sql`SELECT count(*)::int AS rows FROM ${qualified}`);
    await run(client, sql`DROP TABLE ${qualified}`);
    return counted?.rows ?? 0;
  });
}

/**
 * Deletes up to `limit` rows of `table` whose `expires_at` is at or before `endedBy`, oldest first, through the
 * table's `expires_at` index.
 * @returns how many were deleted
 */
export async function deleteEndedRows(
  client: SqlClient,
  table: EndedRowsTable,
  endedBy: Date,
  limit: number,
): Promise<number> {
  const name = rawSql(table);
  const deleted = await sqlQuery(
    client,
    sql`DELETE FROM ${name} WHERE id IN (
          SELECT id FROM ${name} WHERE expires_at <= ${endedBy}::timestamptz ORDER BY expires_at LIMIT ${limit})
        RETURNING 1`,
  );
  return deleted.length;
}

/** `partition` when its name is `table`'s and its bounds well-formed. */
function checkedPartition(table: HistoryTable, partition: HistoryPartition): HistoryPartition {
  const { name, from, to } = partition;
  const bounds = [from, to].filter((bound) => bound !== null);
  if (!PARTITION_NAME.test(name) || !name.startsWith(`${table}_`) || !bounds.every((b) => PARTITION_BOUND.test(b))) {
    throw new Error(`not a partition of ${table}: ${name} ${from ?? "MINVALUE"}..${to ?? "MAXVALUE"}`);
  }
  return partition;
}

/** Whether `lm_partitions.<name>` is attached to `public.<table>`. */
async function isAttached(client: PoolClient, table: HistoryTable, name: string): Promise<boolean> {
  const found = await run(
    client,
    sql`SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = ${`public.${table}`}::regclass AND c.relname = ${name}
          AND c.relnamespace = ${PARTITIONS_SCHEMA}::regnamespace`,
  );
  return found.length > 0;
}

/** Runs `statement` unnamed on `client` (never prepared: partition statements are each run once). */
async function run<Row extends object = object>(client: PoolClient, statement: Sql): Promise<Row[]> {
  const result = await client.query<Row>(statement.text, statement.values);
  return result.rows;
}

/** Runs `fn` in a transaction of its own that holds retention's advisory lock and waits for locks a bounded time. */
async function inPartitionLock<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await run(client, sql`BEGIN`);
    await run(client, sql`SET LOCAL lock_timeout = ${rawSql(`'${PARTITION_LOCK_TIMEOUT}'`)}`);
    await run(client, sql`SELECT pg_advisory_xact_lock(hashtext('lm_retention_partitions'))`);
    const result = await fn(client);
    await run(client, sql`COMMIT`);
    return result;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** This repository bound to connection `c` (`createRepositories`): each function without its client. */
export function retentionRepository(c: Connection) {
  return {
    ...onSql(c, { listHistoryPartitions, deleteEndedRows }),
    ...onPool(c, { createHistoryPartition, dropHistoryPartition }),
  };
}
