/**
 * Prisma client factory: the generated client over the `pg` driver adapter (no native engine; PRISMA-OFFLINE.md).
 */
import { PrismaPg } from "@prisma/adapter-pg";
import { Prisma, PrismaClient } from "./generated/client";

/** Longest a new pool connection may take to open, ms. */
const CONNECTION_TIMEOUT_MS = 5_000;

/** The database client of the service. */
export type Db = PrismaClient;

/** A client or an open interactive transaction: repositories accept either, so callers choose the boundary. */
export type DbClient = PrismaClient | Prisma.TransactionClient;

/**
 * Creates a client for `databaseUrl`. It connects lazily; call `$disconnect()` on shutdown.
 * @param options.maxConnections - size of the `pg` pool (default 10)
 */
export function createDb(databaseUrl: string, options: { maxConnections?: number } = {}): Db {
  // A connection attempt that never completes (a server restarting mid-handshake) must fail, not hold a pool slot and
  // its waiting queries forever; keep-alive finds connections whose server went away without closing them.
  const adapter = new PrismaPg({
    connectionString: databaseUrl,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
    keepAlive: true,
  });
  return new PrismaClient({ adapter });
}
