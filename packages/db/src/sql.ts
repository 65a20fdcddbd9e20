/**
 * Plain SQL for the merchant API's hot paths (charge creation and read, API key authentication, idempotency keys),
 * where Prisma's per-query cost dominated the request (issue 14). The same statements run on a `pg` pool or pool
 * client and on a Prisma client or interactive transaction, so code written once serves both kinds of caller (the
 * event fan-out runs inside Prisma transactions elsewhere and inside a `pg` transaction on charge creation).
 */
import type { Pool, PoolClient } from "pg";
import type { Db, DbClient } from "./client";

/** Anything that runs SQL: the service's client or a transaction of it, a `pg` pool, or a client of that pool. */
export type SqlClient = DbClient | Pool | PoolClient;

/**
 * Runs one parameterised statement (`$1`, `$2`, …) and returns its rows. Rows read through `pg` and through Prisma
 * have the same shape for the column types the hot paths use (text, integer, boolean, enums as strings,
 * `timestamptz` as `Date`, `jsonb` parsed).
 * Enum and `jsonb` parameters need an explicit cast (`$2::mode`, `$3::jsonb`), which Prisma requires.
 * @throws the driver's error; see {@link isUniqueViolation} for conflicts
 */
export async function sqlQuery<Row>(client: SqlClient, text: string, values: unknown[] = []): Promise<Row[]> {
  if ("$queryRawUnsafe" in client) return client.$queryRawUnsafe<Row[]>(text, ...values);
  return (await client.query(text, values)).rows as Row[];
}

/** PostgreSQL's codes for a serialization failure and a deadlock, which are safe to run again from the start. */
const RETRIABLE_SQLSTATES = new Set(["40001", "40P01"]);
const MAX_ATTEMPTS = 3;

/**
 * Runs `fn` in one database transaction on a client of `db`'s `pg` pool (READ COMMITTED); everything it writes
 * commits together or not at all. A serialization failure or deadlock re-runs `fn` (up to 3 runs), so `fn` must do
 * nothing but database work. The plain-SQL counterpart of `inTransaction`.
 * @throws whatever `fn` throws (after rolling back)
 */
export async function inSqlTransaction<T>(db: Pick<Db, "pool">, fn: (tx: PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await db.pool.connect();
    let broken = false;
    try {
      await client.query("BEGIN");
      const result = await fn(client);
      await client.query("COMMIT");
      return result;
    } catch (err) {
      await client.query("ROLLBACK").catch(() => (broken = true));
      const code = (err as { code?: unknown }).code;
      if (typeof code !== "string" || !RETRIABLE_SQLSTATES.has(code) || attempt >= MAX_ATTEMPTS) throw err;
    } finally {
      client.release(broken);
    }
  }
}

/**
 * Inserts `rows` (column name → value) into `table` in one statement; a column that a row lacks, or holds
 * `undefined` in, is written as NULL.
 * @param options.casts - SQL type of the columns that need one (`{mode: "mode", metadata: "jsonb"}`); a `jsonb`
 *   column's value is sent as its JSON text
 * @param options.returning - return the written rows (`RETURNING *`), else an empty array
 */
export function insertRows<Row>(
  client: SqlClient,
  table: string,
  rows: Record<string, unknown>[],
  options: { casts?: Record<string, string>; returning?: boolean } = {},
): Promise<Row[]> {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const casts = options.casts ?? {};
  const values: unknown[] = [];
  const tuples = rows.map((row) => {
    const placeholders = columns.map((column) => {
      const value = row[column] ?? null;
      values.push(casts[column] === "jsonb" && value !== null ? JSON.stringify(value) : value);
      return casts[column] ? `$${values.length}::${casts[column]}` : `$${values.length}`;
    });
    return `(${placeholders.join(", ")})`;
  });
  const returning = options.returning ? " RETURNING *" : "";
  return sqlQuery<Row>(client, `INSERT INTO ${table} (${columns.join(", ")}) VALUES ${tuples.join(", ")}${returning}`, values);
}
