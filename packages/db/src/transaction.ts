/**
 * Interactive transactions with a retry on serialization failures and deadlocks, which PostgreSQL may raise under
 * concurrent writers and which are safe to run again from the start.
 */
import type { Db } from "./client";
import { Prisma } from "./generated/client";

/** Prisma's code for "transaction failed due to a write conflict or a deadlock". */
const RETRIABLE_CODES = new Set(["P2034"]);
const MAX_ATTEMPTS = 3;

/**
 * Runs `fn` in one database transaction and returns its result; everything `fn` writes commits together or not at all.
 * A serialization failure or deadlock re-runs `fn` (up to 3 runs), so `fn` must do nothing but database work.
 * @param options.isolationLevel - defaults to PostgreSQL's READ COMMITTED
 * @param options.timeoutMs - longest the transaction may stay open (default 10 000 ms)
 */
export async function inTransaction<T>(
  db: Db,
  fn: (tx: Prisma.TransactionClient) => Promise<T>,
  options: { isolationLevel?: Prisma.TransactionIsolationLevel; timeoutMs?: number } = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.$transaction(fn, {
        isolationLevel: options.isolationLevel,
        timeout: options.timeoutMs ?? 10_000,
        maxWait: 5_000,
      });
    } catch (err) {
      const retriable = err instanceof Prisma.PrismaClientKnownRequestError && RETRIABLE_CODES.has(err.code);
      if (!retriable || attempt >= MAX_ATTEMPTS) throw err;
    }
  }
}
