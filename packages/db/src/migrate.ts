/**
 * `npm run migrate`: creates the database named by `DATABASE_DIRECT_URL` (default `DATABASE_URL`) when it does not
 * exist (the JavaScript schema engine does not), then applies pending migrations there with `prisma migrate deploy`.
 * Never through a transaction-mode pooler (DESIGN §10): the migration engine holds a session-level advisory lock.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { Client } from "pg";
import { loadConfigOrExit } from "@lm/config";

const REPO_ROOT = path.resolve(__dirname, "../../..");

/** Creates the database of `databaseUrl` if it is missing, connecting to the server's `postgres` database. */
export async function ensureDatabaseExists(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = "/postgres";
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!found.rowCount) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const config = loadConfigOrExit(process.env);
  await ensureDatabaseExists(config.databaseDirectUrl);
  execFileSync(path.join(REPO_ROOT, "node_modules", ".bin", "prisma"), ["migrate", "deploy"], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: config.databaseDirectUrl, DATABASE_DIRECT_URL: config.databaseDirectUrl },
    stdio: "inherit",
  });
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`migration failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
