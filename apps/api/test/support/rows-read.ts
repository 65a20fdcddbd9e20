import type { Db } from "@lm/db";

/**
 * Counting what a statement reads, for the tests that hold a statement's plan to the rows it names whatever the
 * planner's statistics say (apps/api/test/database). `measured` is a client of one connection of its own, so that its
 * counters are those of the statements under test.
 */

/**
 * Keeps autovacuum off `tables` (each partition of a partitioned one, such as `webhook_deliveries`, DESIGN §10
 * "Retention"): it would refresh the statistics while a test runs and hide the plan under test.
 */
export async function withoutAutovacuum(db: Db, ...tables: string[]): Promise<void> {
  for (const table of tables) {
    const leaves = await db.$queryRawUnsafe<Array<{ name: string }>>(
      `SELECT c.oid::regclass::text AS name FROM pg_class c
       WHERE c.relkind = 'r'
         AND (c.oid = $1::regclass OR c.oid IN (SELECT relid FROM pg_partition_tree($1::regclass)))`,
      table,
    );
    for (const { name } of leaves) {
      await db.$executeRawUnsafe(`ALTER TABLE ${name} SET (autovacuum_enabled = false)`);
    }
  }
}

/**
 * Rows of `table` (all its partitions, for a partitioned one) read so far by `measured`'s connection: sequential
 * reads and heap fetches through indexes, as PostgreSQL counts them.
 */
async function rowsRead(measured: Db, table: string): Promise<number> {
  // Its counters reach the shared statistics when the connection goes idle after this statement.
  await measured.pool.query("SELECT pg_stat_force_next_flush()");
  const { rows } = await measured.pool.query<{ n: string }>(
    `SELECT sum(coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0)) AS n FROM pg_stat_user_tables
     WHERE relid = $1::regclass OR relid IN (SELECT relid FROM pg_partition_tree($1::regclass))`,
    [table],
  );
  return Number(rows[0]?.n);
}

/** The rows of `table` that `statement`, run on `measured`'s connection, read. */
export async function rowsReadBy(measured: Db, table: string, statement: () => Promise<unknown>): Promise<number> {
  const before = await rowsRead(measured, table);
  await statement();
  return (await rowsRead(measured, table)) - before;
}
