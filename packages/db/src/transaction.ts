/**
 * Interactive transactions that join an outer one, with a retry on serialization failures and deadlocks, which
 * PostgreSQL may raise under concurrent writers and which are safe to run again from the start.
 */
import { Prisma, type PrismaClient } from "./generated/client";

/** Prisma's code for "transaction failed due to a write conflict or a deadlock". */
const RETRIABLE_CODES = new Set(["P2034"]);
const MAX_ATTEMPTS = 3;

/**
 * Runs `fn` in one database transaction and returns its result; everything `fn` writes commits together or not at all.
 * Given an open transaction, `fn` runs in it: the outer transaction's commit is the boundary, and the options are the
 * outer one's. Given a client, a serialization failure or deadlock re-runs `fn` (up to 3 runs), so `fn` must do
 * nothing but database work.
 * @param options.isolationLevel - defaults to PostgreSQL's READ COMMITTED
 * @param options.timeoutMs - longest the transaction may stay open (default 10 000 ms)
 */
export async function inTransaction<T>(
  client: PrismaClient | Prisma.TransactionClient,
  fn: (tx: Prisma.TransactionClient) => Promise<T>,
  options: { isolationLevel?: Prisma.TransactionIsolationLevel; timeoutMs?: number } = {},
): Promise<T> {
  // An open transaction cannot open another (Prisma leaves `$transaction` off it): join it.
  if (!("$transaction" in client)) return fn(client);
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.$transaction(fn, {
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
