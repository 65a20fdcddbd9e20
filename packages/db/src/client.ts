/**
 * Prisma client factory: the generated client over the `pg` driver adapter (no native engine; PRISMA-OFFLINE.md).
 */
import { PrismaPg } from "@prisma/adapter-pg";
import { Pool } from "pg";
import { type Prisma, PrismaClient } from "./generated/client";
import { runStatementsUnnamed, type DatabasePooling } from "./sql";

/** Longest a new pool connection may take to open, ms. */
const CONNECTION_TIMEOUT_MS = 5_000;

/**
 * The database client of the service: Prisma, plus the `pg` pool under it. The pool serves the hot paths of the
 * merchant API in plain SQL (see `./sql.ts`), where Prisma's per-query cost dominated (measured: about 0.7 ms of CPU
 * per model query against 0.07 ms for the same statement through `pg`).
 */
export type Db = PrismaClient & { readonly pool: Pool };

/** A client or an open interactive transaction: repositories accept either, so callers choose the boundary. */
export type DbClient = PrismaClient | Prisma.TransactionClient;

/**
 * Creates a client for `databaseUrl`. It connects lazily; call `$disconnect()` on shutdown.
 * @param options.maxConnections - size of the `pg` pool (default 10)
 * @param options.pooling - how `databaseUrl` shares server connections (`DATABASE_POOLING`, default `session`):
 *   `transaction` runs every statement unnamed, for PgBouncer in transaction mode (DESIGN §10)
 * @throws Error naming the accepted values when `pooling` is neither
 */
export function createDb(
  databaseUrl: string,
  options: { maxConnections?: number; pooling?: DatabasePooling } = {},
): Db {
  const pooling = options.pooling ?? "session";
  if (pooling !== "session" && pooling !== "transaction") {
    throw new Error(`pooling must be "session" or "transaction", not ${JSON.stringify(pooling)}`);
  }
  // A connection attempt that never completes (a server restarting mid-handshake) must fail, not hold a pool slot and
  // its waiting queries forever; keep-alive finds connections whose server went away without closing them.
  const pool = new Pool({
    connectionString: databaseUrl,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
    keepAlive: true,
  });
  // An idle client whose connection ends (PostgreSQL restarting, an operator terminating backends) is discarded by the
  // pool, and the next query opens a new one: no query failed. Unheard, the pool's `error` event would end the
  // process; Prisma listens for it only once it has connected, and a process may use only the pool.
  pool.on("error", () => undefined);
  if (pooling === "transaction") runStatementsUnnamed(pool);
  // One pool for both: `$disconnect()` ends it (disposeExternalPool), but Prisma disposes of its adapter only once it
  // has connected, so a client used only through `pool` (the hot paths, a worker's batches) ends the pool itself.
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  const disconnect = prisma.$disconnect.bind(prisma);
  return Object.assign(prisma, {
    pool,
    async $disconnect() {
      await disconnect();
      if (!pool.ended) await pool.end();
    },
  });
}

/**
 * Asks PostgreSQL `SELECT 1` through Prisma, as a probe: it answers only when the database and Prisma's connection to
 * it both work.
 * @throws the driver's error when PostgreSQL cannot be reached
 */
export async function pingDatabase(db: Db): Promise<void> {
  await db.$queryRaw`SELECT 1`;
}
