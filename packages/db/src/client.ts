/**
 * Prisma client factory: the generated client over the `pg` driver adapter (no native engine; PRISMA-OFFLINE.md).
 */
import { PrismaPg } from "@prisma/adapter-pg";
import { type Prisma, PrismaClient } from "./generated/client";

/** The database client of the service. */
export type Db = PrismaClient;

/** A client or an open interactive transaction: repositories accept either, so callers choose the boundary. */
export type DbClient = PrismaClient | Prisma.TransactionClient;

/**
 * Creates a client for `databaseUrl`. It connects lazily; call `$disconnect()` on shutdown.
 * @param options.maxConnections - size of the `pg` pool (default 10)
 */
export function createDb(databaseUrl: string, options: { maxConnections?: number } = {}): Db {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: options.maxConnections ?? 10 });
  return new PrismaClient({ adapter });
}
