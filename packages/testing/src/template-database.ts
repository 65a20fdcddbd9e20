/**
 * The migrated template database that every integration test file clones (STYLE example 4). Its name carries a hash
 * of the migrations, so a changed migration makes a new template and runs in different checkouts never share a stale
 * one. Built once per run by Jest's global setup, under an advisory lock so that concurrent runs build it once.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Client } from "pg";

/** Root of the repository. */
export const REPO_ROOT = path.resolve(__dirname, "../../..");
const MIGRATIONS_DIR = path.join(REPO_ROOT, "prisma", "migrations");

/** Connection string of the server's maintenance database, used to create and drop test databases. */
export function adminDatabaseUrl(): string {
  return process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
}

/** `adminDatabaseUrl()` with its database name replaced by `name`. */
export function databaseUrl(name: string): string {
  const url = new URL(adminDatabaseUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** Name of the template for the migrations now on disk: `lm_tmpl_<12 hex of their SHA-256>`. */
export function templateDatabaseName(): string {
  const hash = createHash("sha256");
  for (const entry of readdirSync(MIGRATIONS_DIR).sort()) {
    const file = path.join(MIGRATIONS_DIR, entry, "migration.sql");
    hash.update(entry);
    try {
      hash.update(readFileSync(file));
    } catch {
      // Not a migration folder (migration_lock.toml).
    }
  }
  return `lm_tmpl_${hash.digest("hex").slice(0, 12)}`;
}

/** Runs `fn` with a client on the maintenance database. */
export async function withAdminClient<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminDatabaseUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates the template database by applying every migration with `prisma migrate deploy`, unless it exists.
 * @returns the template's name
 */
export async function ensureTemplateDatabase(): Promise<string> {
  const name = templateDatabaseName();
  await withAdminClient(async (client) => {
    await client.query("SELECT pg_advisory_lock(hashtext('lm_test_template'))");
    try {
      const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
      if (exists.rowCount) return;
      const building = `${name}_build`;
      await client.query(`DROP DATABASE IF EXISTS "${building}"`);
      await client.query(`CREATE DATABASE "${building}"`);
      execFileSync(path.join(REPO_ROOT, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
        cwd: REPO_ROOT,
        env: { ...process.env, DATABASE_URL: databaseUrl(building), DATABASE_DIRECT_URL: databaseUrl(building) },
        stdio: "pipe",
      });
      // Renaming last makes the template appear only once it is complete.
      await client.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext('lm_test_template'))");
    }
  });
  return name;
}
