/**
 * `npm run bench:api`: requests per second and latency of `POST /v1/transactions` at a fixed concurrency. Starts the
 * API in-process on a free port against its own fresh database and queue prefix (the test template), creates a
 * seller with ten test keys (the most a store may have; the merchant API allows 100 requests/s per key), fires
 * `BENCH_COUNT` creations with `BENCH_CONCURRENCY` in flight, and prints one JSON object. Not a timed test.
 */
import type { AddressInfo } from "node:net";
import { createApiKey } from "@lm/domain";
import { createLogger } from "@lm/logging";
import {
  createTestDatabase,
  createTestMerchant,
  deleteQueueKeys,
  ensureTemplateDatabase,
  testConfig,
} from "@lm/testing";
import { createApp } from "../apps/api/src/app";
import { closeAppDeps, createAppDeps } from "../apps/api/src/deps";

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const COUNT = Number(process.env.BENCH_COUNT ?? 2000);
const KEYS = 10;

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

async function main(): Promise<void> {
  await ensureTemplateDatabase();
  const database = await createTestDatabase();
  const config = testConfig(database.url, { WEBHOOK_ALLOW_LOCAL_DESTINATIONS: "false" });
  const deps = createAppDeps(config, { logger: createLogger({ level: "error", service: "api", silent: true }) });
  const server = createApp(deps).listen(0);
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const merchant = await createTestMerchant(deps.db, { name: "Loja Benchmark" });
    const keys = [merchant.testKey];
    while (keys.length < KEYS) {
      keys.push((await createApiKey(deps.db, { storeId: merchant.storeId, name: "bench", mode: "test", now: new Date() })).key);
    }
    const body = JSON.stringify({
      amount: 1990,
      description: "Benchmark",
      customer: { name: "Maria da Silva", document: "52998224725" },
      metadata: { source: "bench" },
    });
    const post = async (i: number): Promise<number> => {
      const started = performance.now();
      const res = await fetch(`${base}/v1/transactions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${keys[i % KEYS]}` },
        body,
      });
      await res.arrayBuffer();
      if (res.status !== 201) throw new Error(`request ${i} answered ${res.status}`);
      return performance.now() - started;
    };

    for (let i = 0; i < CONCURRENCY; i++) await post(i); // warm-up: connections, JIT, BullMQ scripts
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < COUNT) latencies.push(await post(next++));
      }),
    );
    const elapsedS = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const round = (n: number) => Math.round(n * 10) / 10;
    process.stdout.write(
      `${JSON.stringify({
        requests_per_s: round(COUNT / elapsedS),
        p50_ms: round(percentile(latencies, 50)),
        p99_ms: round(percentile(latencies, 99)),
        concurrency: CONCURRENCY,
        count: COUNT,
      })}\n`,
    );
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await closeAppDeps(deps);
    await deleteQueueKeys(config.redisUrl, config.queuePrefix);
    await database.drop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
