/**
 * DESIGN §10 "PostgreSQL through a pooler": with `pooling: "transaction"` every statement of `sqlQuery` runs unnamed
 * (a transaction-mode pooler may run the next use of a name on another server connection); otherwise each is
 * prepared once per connection. Seen from the server: `pg_prepared_statements` lists what the session prepared.
 */
import { createDb, sql, sqlQuery, type DatabasePooling, type Db } from "@lm/db";
import { createTestDatabase, type TestDatabase } from "@lm/testing";

describe("the statements sqlQuery runs on a pool", () => {
  let database: TestDatabase;
  const dbs: Db[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(dbs.map((db) => db.$disconnect()));
    await database.drop();
  });

  /** Names prepared by the one connection of a pool in `pooling` mode after a few statements, on it and a client. */
  async function preparedAfterQueries(pooling: DatabasePooling): Promise<string[]> {
    const db = createDb(database.url, { maxConnections: 1, pooling });
    dbs.push(db);
    await sqlQuery(db.pool, sql`SELECT id FROM transactions WHERE id = ${"txn_none"}`);
    const client = await db.pool.connect();
    try {
      await sqlQuery(client, sql`SELECT id FROM api_keys WHERE key_hash = ${"none"}`);
      const { rows } = await client.query<{ name: string }>("SELECT name FROM pg_prepared_statements ORDER BY name");
      return rows.map((row) => row.name);
    } finally {
      client.release();
    }
  }

  test("when the pooling is transaction, then the connection has no prepared statement", async () => {
    expect(await preparedAfterQueries("transaction")).toEqual([]);
  });

  test("when the pooling is session, then each statement is prepared on the connection", async () => {
    expect(await preparedAfterQueries("session")).toEqual([expect.stringMatching(/^lm_\d+$/), expect.any(String)]);
  });

  test("when the pooling is neither, then createDb says which values it takes", () => {
    expect(() => createDb(database.url, { pooling: "statement" as DatabasePooling })).toThrow(
      'pooling must be "session" or "transaction", not "statement"',
    );
  });
});
