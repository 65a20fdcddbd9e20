/**
 * A fresh PostgreSQL database per test file, cloned from the migrated template in milliseconds.
 */
import { randomBytes } from "node:crypto";
import { databaseUrl, templateDatabaseName, withAdminClient } from "./template-database";

/** A test file's own database. */
export interface TestDatabase {
  name: string;
  url: string;
  /** Drops the database (after every client of it is closed). */
  drop(): Promise<void>;
}

/** Clones the template into `lm_test_<random>`. The template must exist (Jest's global setup makes it). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `lm_test_${randomBytes(6).toString("hex")}`;
  const template = templateDatabaseName();
  await withAdminClient(async (client) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        return;
      } catch (err) {
        // Two clones of one template at the same instant can collide; the second simply tries again.
        const busy = /being accessed by other users/.test((err as Error).message);
        if (!busy || attempt >= 20) throw err;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
  });
  return {
    name,
    url: databaseUrl(name),
    drop: () =>
      withAdminClient(async (client) => void (await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`))),
  };
}
