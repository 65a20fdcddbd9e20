/**
 * The repositories' SQL: statements are {@link sql} templates, whose values are bound where they are named and whose
 * fragments compose as values (a fragment's parameters are numbered wherever it lands), so no statement is assembled
 * by `$n` position. They run on a `pg` pool or pool client and on a Prisma client or interactive transaction alike,
 * so a statement written once serves every kind of caller.
 */
import type { FieldDef, Pool, PoolClient } from "pg";
import type { DbClient } from "./client";
import { Prisma } from "./generated/client";

/** A statement or a fragment of one: text with its parameters (Prisma's `sql` tag, from `sql-template-tag`). */
export type Sql = Prisma.Sql;

/**
 * Tags a statement or fragment: ``sql`SELECT id FROM transactions WHERE id = ${id}` `` binds `id` as a parameter; an
 * {@link Sql} in a `${}` is spliced in with its own parameters renumbered; an array is ONE parameter (for `ANY` and
 * `unnest`, with a cast such as `${ids}::text[]`).
 */
export const sql = Prisma.sql;

/** `items` joined by `separator` (default `,`) as one fragment. */
export const joinSql = Prisma.join;

/** Trusted text spliced in as is: identifiers and literals of ours, never input. */
export const rawSql = Prisma.raw;

/** The empty fragment, for an optional clause. */
export const emptySql = Prisma.empty;

/** Anything that runs SQL: the service's client or a transaction of it, a `pg` pool, or a client of that pool. */
export type SqlClient = DbClient | Pool | PoolClient;

/**
 * SQL true while the row's `column` (a status enum) is `status`, written so that no index can answer it: for
 * statements that find their rows otherwise (by id) and only check their status, such as a batch's conditional
 * update (``sql`WHERE d.id = v.id AND ${rowStatusIs("d.status", "pending")}` ``).
 *
 * Written plainly (`d.status = 'pending'`), the check offers the planner an index of the status, such as the
 * `(status, expires_at)` of the expiry sweep (deliveries had a `(status, scheduled_at)`). Statistics gathered while
 * few rows had that status (a young database, a drained queue) make it estimate one such row, and it then reads every
 * row of that status, for every batch, instead of looking the batch's ids up: measured with 40,000 pending
 * deliveries, 6.9 ms instead of 0.2 ms per batch of 100, so a backlog drained in quadratic time, just when it mattered
 * (`batch-statements.int.test.ts`). Compared as text, the status is only checked on the rows the ids found.
 * @param column - a qualified status column, such as `d.status`
 * @param status - one of the enum's values (a literal of ours, never input)
 */
export function rowStatusIs(column: string, status: string): Sql {
  return rawSql(`${column}::text = '${status}'`);
}

/** Most distinct statements run as prepared statements; past it, a new text runs unnamed (parsed every time). */
const MAX_PREPARED_STATEMENTS = 200;
const preparedNames = new Map<string, string>();

/**
 * How the server connections under a pool are shared (DESIGN §10 "PostgreSQL through a pooler"): `session` when each
 * connection is a session of its own until it closes (PostgreSQL itself, or a pooler in session mode), `transaction`
 * when a pooler (PgBouncer in transaction mode) may run each transaction on another server connection.
 */
export type DatabasePooling = "session" | "transaction";

/** Pools whose statements run unnamed (see {@link runStatementsUnnamed}), and the clients they opened. */
const unnamedPools = new WeakSet<Pool>();
const unnamedClients = new WeakSet<PoolClient>();

/**
 * Makes {@link sqlQuery} run every statement on `pool`, or on a client it opens from now on, unnamed: for a pool
 * behind a transaction-mode pooler, where a statement prepared by name stays on one server connection while the
 * process's next use of that name may reach another (`prepared statement "lm_0" does not exist`), or another
 * client's (`… already exists`). PgBouncer before 1.21 does not track prepared statements at all. Call it before the
 * pool opens its first connection (`createDb` does, for `pooling: "transaction"`).
 */
export function runStatementsUnnamed(pool: Pool): void {
  unnamedPools.add(pool);
  pool.on("connect", (client) => unnamedClients.add(client));
}

/** Statements marked by {@link plannedOnEachCall}. */
const plannedEachCall = new WeakSet<Sql>();

/**
 * Marks `query` to be planned on every call, with its values, rather than run on a plan PostgreSQL cached for it: for
 * a lookup in a partitioned table by anything but whole partitions (`inbox_items`, `events` and `webhook_deliveries`
 * are partitioned by week, DESIGN §10 "Retention"). After five calls of a prepared statement PostgreSQL may keep one
 * generic plan for every later call on the connection, and a generic plan costs each partition at its size when it
 * was made: a week's partition is made ahead, empty, so the plan reads it with a sequential scan, and keeps reading
 * it so, every row for every call, while the week fills it (until autovacuum's next `ANALYZE` of the partition
 * happens to make a better one). Measured in `bench:delivery`: storing an inbox item (whose duplicate check looked the
 * notification's identity up in every partition) took 5.1 ms on average over 4,000 payments on a generic plan, two
 * thirds of the database's time, and 0.4 ms planned on each call. Planned with its values, the statement is pruned to
 * the partitions they name and costs each one at its current size; the text is still parsed on every call, as behind
 * a pooler. A lookup that no value prunes is better kept in a database function whose plan cannot scan a partition
 * sequentially (`inbox_identity_received`).
 * @returns `query`, marked
 */
export function plannedOnEachCall(query: Sql): Sql {
  plannedEachCall.add(query);
  return query;
}

/** The name `query` is prepared under on `client`, or `undefined` to run it unnamed. */
function statementName(client: Pool | PoolClient, query: Sql): string | undefined {
  if (unnamedPools.has(client as Pool) || unnamedClients.has(client as PoolClient) || plannedEachCall.has(query))
    return undefined;
  const { text } = query;
  let name = preparedNames.get(text);
  if (name === undefined && preparedNames.size < MAX_PREPARED_STATEMENTS) {
    name = `lm_${preparedNames.size}`;
    preparedNames.set(text, name);
  }
  return name;
}

/**
 * Runs one statement and returns its rows. Rows read through `pg` and through Prisma have the same shape for the
 * column types the repositories use (text, integer, boolean, enums as strings, `timestamptz` as `Date`, `jsonb`
 * parsed). Enum and `jsonb` parameters need an explicit cast (`${mode}::mode`, `${data}::jsonb`), which Prisma requires.
 *
 * On a `pg` pool or client the statement is prepared, once per connection, under a name of its text: PostgreSQL then
 * parses it once instead of on every call, which made charge creation a quarter faster on the development machine
 * (the hot statements are few, fixed texts: a {@link sql} template yields the same text for the same shape, whatever
 * its values). Hence: select named columns, never `*` (a column added by a migration would change a prepared
 * statement's result type, which PostgreSQL refuses until the connection closes). Behind a transaction-mode pooler
 * the pool is marked by {@link runStatementsUnnamed} and every statement runs unnamed (parsed on every call), as
 * Prisma's statements always do.
 * @param query - a {@link sql} template
 * @throws the driver's error; see {@link isUniqueViolation} for conflicts
 */
export async function sqlQuery<Row>(client: SqlClient, query: Sql): Promise<Row[]> {
  const { text, values } = query;
  if ("$queryRawUnsafe" in client) return client.$queryRawUnsafe<Row[]>(text, ...values);
  const name = statementName(client, query);
  const { fields, rows } = await client.query<unknown[]>({ name, text, values, rowMode: "array" });
  return rowObjects<Row>(text, fields, rows);
}

/** A statement's result columns, and an object with each of them, null, to copy for each row. */
interface RowShape {
  names: string[];
  empty: Record<string, null>;
}

/** The row shape of each statement text seen, as many as may be prepared. */
const rowShapes = new Map<string, RowShape>();

/**
 * `rows`, arrays of column values in `fields`' order, as objects keyed by column name, as `pg` would make them (for a
 * name given twice, the later column wins). Rows arrive as arrays, and every row of a statement is a copy of one
 * object made when the statement first ran: `pg`'s own objects cost about 50 µs for a charge's 30 columns on the
 * development machine (every column name comes as a new string to look up as a property key, and the object is
 * built one key at a time into a dictionary), a tenth of a charge read's CPU. A shape holds while every
 * column name matches, which a statement of named columns always does.
 */
function rowObjects<Row>(text: string, fields: FieldDef[], rows: unknown[][]): Row[] {
  let shape = rowShapes.get(text);
  if (!shape || shape.names.length !== fields.length || fields.some((field, i) => field.name !== shape?.names[i])) {
    const names = fields.map((field) => field.name);
    shape = { names, empty: Object.fromEntries(names.map((column) => [column, null])) };
    if (rowShapes.size < MAX_PREPARED_STATEMENTS) rowShapes.set(text, shape);
  }
  const { names, empty } = shape;
  return rows.map((values) => {
    const row: Record<string, unknown> = { ...empty };
    for (let i = 0; i < names.length; i++) row[names[i]!] = values[i];
    return row as Row;
  });
}

/** One INSERT, UPDATE or DELETE, without `RETURNING`, to run together with others as one statement by {@link runWrites}. */
export interface SqlWrite {
  sql: Sql;
  /**
   * Makes the write conditional for the whole statement: when it changes no row, none of the statement's writes
   * happen and `orElse()` is thrown (e.g. "store the idempotent reply only while this request still holds the key").
   */
  orElse?: () => Error;
}

/** PostgreSQL's SQLSTATE of a division by zero, which {@link runWrites} raises on purpose for an unmet condition. */
const DIVISION_BY_ZERO = "22012";

/**
 * Runs `writes` as ONE statement of data-modifying CTEs (`WITH w0 AS (…), w1 AS (…) SELECT …`), so they are atomic
 * without a `BEGIN`/`COMMIT` round trip each, on a pool, a pool client, a Prisma client or a Prisma transaction. All
 * of them see the same snapshot and the foreign keys are checked at the end, so a row may refer to one written by an
 * earlier write of the same call. At most one write may carry `orElse`.
 * @returns how many rows each write changed, in the order of `writes` (an `INSERT … SELECT` may write none or many)
 * @throws the `orElse()` error of the conditional write when it changed no row (nothing was written); the driver's
 *   error otherwise (see {@link isUniqueViolation})
 */
export async function runWrites(client: SqlClient, writes: SqlWrite[]): Promise<number[]> {
  if (writes.length === 0) return [];
  const guard = writes.findIndex((write) => write.orElse !== undefined);
  if (writes.findLastIndex((write) => write.orElse !== undefined) !== guard)
    throw new Error("runWrites takes at most one conditional write");
  const ctes = writes.map((write, i) => sql`${rawSql(`w${i}`)} AS (${write.sql} RETURNING 1)`);
  const counts = writes.map((_, i) => rawSql(`(SELECT count(*) FROM w${i})::int AS w${i}`));
  // SQL has no assertion outside procedures: dividing by the conditional write's row count aborts the statement,
  // and with it every write in it, exactly when that count is 0.
  if (guard !== -1) counts.push(rawSql(`1 / (SELECT count(*) FROM w${guard})::int AS guard`));
  try {
    const [row] = await sqlQuery<Record<string, number>>(client, sql`WITH ${joinSql(ctes)} SELECT ${joinSql(counts)}`);
    return writes.map((_, i) => row?.[`w${i}`] ?? 0);
  } catch (err) {
    const orElse = writes[guard]?.orElse;
    if (orElse && sqlState(err) === DIVISION_BY_ZERO) throw orElse();
    throw err;
  }
}

/** The SQLSTATE of a `pg` error or of a Prisma raw query's P2010 (as the pg adapter reports it), else `undefined`. */
function sqlState(err: unknown): string | undefined {
  const { code, meta } = (err ?? {}) as {
    code?: unknown;
    meta?: { code?: unknown; driverAdapterError?: { cause?: { code?: unknown } } };
  };
  const state = code === "P2010" ? (meta?.driverAdapterError?.cause?.code ?? meta?.code) : code;
  return typeof state === "string" ? state : undefined;
}

/**
 * An INSERT of `rows` (column name → value) into `table`, for {@link runWrites}; a column that a row lacks, or holds
 * `undefined` in, is written as NULL.
 * @param table - a table name of ours
 * @param casts - SQL type of the columns that need one (`{mode: "mode", metadata: "jsonb"}`); a `jsonb` column's
 *   value is sent as its JSON text
 */
export function insertWrite(
  table: string,
  rows: Record<string, unknown>[],
  casts: Record<string, string> = {},
): SqlWrite {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const tuples = rows.map((row) => {
    const values = columns.map((column) => {
      const value = row[column] ?? null;
      const cast = casts[column];
      if (cast === undefined) return sql`${value}`;
      return sql`${cast === "jsonb" && value !== null ? JSON.stringify(value) : value}::${rawSql(cast)}`;
    });
    return sql`(${joinSql(values, ", ")})`;
  });
  return { sql: sql`INSERT INTO ${rawSql(`${table} (${columns.join(", ")})`)} VALUES ${joinSql(tuples, ", ")}` };
}
