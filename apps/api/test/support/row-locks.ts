/**
 * Races on a row, made deterministic: the test holds the row's lock in a transaction of its own (a write not yet
 * committed, or a `SELECT … FOR UPDATE`) while the writers under test start and queue behind it, then lets it go.
 */
import type { Db, Prisma } from "@lm/db";

/**
 * Runs `hold` in a new transaction of `db` and keeps that transaction open, with the locks `hold` took, until
 * `release()`, which commits it.
 * @throws whatever `hold` throws (the transaction is rolled back)
 */
export async function holdInTransaction(
  db: Db,
  hold: (tx: Prisma.TransactionClient) => Promise<unknown>,
): Promise<{ release(): Promise<void> }> {
  let letGo!: () => void;
  const released = new Promise<void>((resolve) => (letGo = resolve));
  let held!: () => void;
  const holding = new Promise<void>((resolve) => (held = resolve));
  const transaction = db.$transaction(async (tx) => {
    await hold(tx);
    held();
    await released;
  });
  await Promise.race([holding, transaction]);
  return {
    async release() {
      letGo();
      await transaction;
    },
  };
}

/** How many sessions of `db`'s database are waiting for a lock now. */
export async function lockWaiters(db: Db): Promise<number> {
  const waiting = await db.$queryRaw<unknown[]>`
    SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
  return waiting.length;
}
