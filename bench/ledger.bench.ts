/**
 * `npm run bench:ledger`: why a balance is read from its running total (DESIGN §7). Builds one seller's ledger of
 * `BENCH_ENTRIES` balance transactions (default 200,000) in a fresh test database, then times `getBalance` (one row)
 * against the sum over the entries it replaces, and prints one JSON object with both and their ratio. Not a timed test.
 */
import { findBalanceDrift, getBalance } from "@lm/domain";
import { createDb, createRepositories } from "@lm/db";
import { createTestDatabase, createTestMerchant, ensureTemplateDatabase } from "@lm/testing";

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 200_000);
const RUNS = 50;

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function timed(runs: number, fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return median(times);
}

async function main(): Promise<void> {
  await ensureTemplateDatabase();
  const database = await createTestDatabase();
  const db = createDb(database.url);
  try {
    const { sellerId } = await createTestMerchant(db, { name: "Loja Benchmark" });
    // Entries of 100 centavos each, written in bulk; the running total is set to match (as the ledger would keep it).
    await db.$executeRaw`
      INSERT INTO balance_transactions (id, seller_id, mode, type, amount, source_id, created_at)
      SELECT 'btx_' || lpad(n::text, 26, '0'), ${sellerId}, 'test', 'payment', 100, 'txn_bench_' || n, now()
      FROM generate_series(1, ${ENTRIES}) AS n`;
    await db.$executeRaw`
      INSERT INTO balances (seller_id, mode, available, reserved) VALUES (${sellerId}, 'test', ${ENTRIES * 100}, 0)`;
    await db.$executeRaw`ANALYZE balance_transactions`;
    const scope = { sellerId, mode: "test" as const };
    const repos = createRepositories(db);

    const runningTotalMs = await timed(RUNS, () => getBalance(repos, scope));
    const sumMs = await timed(
      RUNS,
      () => db.$queryRaw`SELECT SUM(amount) FROM balance_transactions WHERE seller_id = ${sellerId} AND mode = 'test'`,
    );
    const driftStarted = performance.now();
    const drifts = await findBalanceDrift(repos);
    const driftCheckMs = performance.now() - driftStarted;
    process.stdout.write(
      `${JSON.stringify({
        bench: "ledger",
        entries: ENTRIES,
        balance_read_p50_ms: Number(runningTotalMs.toFixed(2)),
        sum_over_entries_p50_ms: Number(sumMs.toFixed(2)),
        ratio_sum_to_read: Number((sumMs / runningTotalMs).toFixed(1)),
        full_drift_check_ms: Number(driftCheckMs.toFixed(1)),
        drifted_balances: drifts.length,
      })}\n`,
    );
  } finally {
    await db.$disconnect();
    await database.drop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
