/**
 * A process may use the `pg` pool alone (a worker's sweeps, the hot paths) before Prisma ever connects: an idle
 * connection that PostgreSQL ends (a restart, an operator terminating backends) must not end the process.
 */
import { createDb, sql, sqlQuery, type Db } from "@lm/db";
import { createTestDatabase, waitUntil, withAdminClient, type TestDatabase } from "@lm/testing";

describe("the pool of a client used only through it", () => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb(database.url, { maxConnections: 1 });
  });
  afterAll(async () => {
    await db.$disconnect();
    await database.drop();
  });

  test("when PostgreSQL ends its idle connection, then no error escapes and the next query opens a new one", async () => {
    const [first] = await sqlQuery<{ pid: number }>(db.pool, sql`SELECT pg_backend_pid() AS pid`);

    await withAdminClient((admin) => admin.query("SELECT pg_terminate_backend($1)", [first?.pid]));
    await waitUntil("the pool to drop the ended connection", () => db.pool.totalCount === 0 || undefined);
    const [second] = await sqlQuery<{ pid: number }>(db.pool, sql`SELECT pg_backend_pid() AS pid`);

    expect(second?.pid).toEqual(expect.any(Number));
    expect(second?.pid).not.toBe(first?.pid);
  });
});
