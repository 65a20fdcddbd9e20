/**
 * `inTransaction` joins an outer transaction: a function that needs atomicity can run alone or inside a larger unit of
 * work, whose commit or rollback then decides for both.
 */
import { createDb, inTransaction, sql, sqlQuery, type Db } from "@lm/db";
import { createTestDatabase, type TestDatabase } from "@lm/testing";

describe("inTransaction", () => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb(database.url);
    await sqlQuery(db.pool, sql`CREATE TABLE scratch (id text PRIMARY KEY)`);
  });
  afterAll(async () => {
    await db.$disconnect();
    await database.drop();
  });

  const transactionId = async (client: Parameters<typeof sqlQuery>[0]) =>
    (await sqlQuery<{ id: string }>(client, sql`SELECT txid_current()::text AS id`))[0]?.id;
  const stored = async (id: string) =>
    (await sqlQuery(db.pool, sql`SELECT id FROM scratch WHERE id = ${id}`)).length === 1;

  test("when given an open transaction, then the function runs in it, not in a second one", async () => {
    const [outer, inner] = await inTransaction(db, async (tx) => [
      await transactionId(tx),
      await inTransaction(tx, (joined) => transactionId(joined)),
    ]);

    expect(inner).toBe(outer);
    expect(await inTransaction(db, (tx) => transactionId(tx))).not.toBe(outer);
  });

  test("when the outer transaction fails after the inner one returned, then the inner one's writes are undone", async () => {
    const failed = inTransaction(db, async (tx) => {
      await inTransaction(tx, (joined) => sqlQuery(joined, sql`INSERT INTO scratch (id) VALUES ('rolled-back')`));
      throw new Error("the outer unit of work fails");
    });

    await expect(failed).rejects.toThrow("the outer unit of work fails");
    expect(await stored("rolled-back")).toBe(false);
  });

  test("when given a client, then the function commits on its own", async () => {
    await inTransaction(db, (tx) => sqlQuery(tx, sql`INSERT INTO scratch (id) VALUES ('committed')`));

    expect(await stored("committed")).toBe(true);
  });
});
