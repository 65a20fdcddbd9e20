/**
 * `npm run bench:scale`: the service at scale (DESIGN §10), each part on what it needs, started by the bench on free
 * loopback ports (a 3-master Redis Cluster, Debian's PgBouncer in transaction mode, PostgreSQL servers of its own),
 * never the machine's shared services:
 * - `redis`: commands per master and the largest share, Redis CPU and commands per paid charge with 5 endpoints, and
 *   memory per waiting delivery, against a bare BullMQ job's life in the same run (`bench/scale/redis.ts`);
 * - `postgres`: disk and WAL per paid charge with 5 endpoints, per table (`bench/scale/postgres.ts`);
 * - `sweeps`: each sweep's database time per tick over a small and a large history, and the paged recovery of an
 *   endpoint's events (`bench/scale/sweeps.ts`);
 * - `retention`: dropping a week of history from small and large tables (`bench/scale/retention.ts`);
 * - `rate_limits`: the per-key limit shared by 1 to 50 API processes at 60 % and 150 % of it
 *   (`bench/scale/rate-limits.ts`);
 * - `pooler`: creations and payments through PgBouncer in transaction mode, errors and cost against a direct
 *   connection (`bench/scale/pooler.ts`).
 *
 * Prints one JSON object with a key per part. `BENCH_SCALE_PARTS` (comma-separated keys) runs only those; each part
 * also runs alone (`npx tsx bench/scale/<part>.ts`). A part that fails prints `{error}` and the others still run.
 * Not a timed test.
 */
import { measurePooler } from "./scale/pooler";
import { measurePostgres } from "./scale/postgres";
import { measureRateLimits } from "./scale/rate-limits";
import { measureRedis } from "./scale/redis";
import { measureRetention } from "./scale/retention";
import { measureSweeps } from "./scale/sweeps";

/** Every part, in the order it runs. */
const PARTS: Record<string, () => Promise<Record<string, unknown>>> = {
  redis: measureRedis,
  postgres: measurePostgres,
  sweeps: () => measureSweeps(),
  retention: measureRetention,
  rate_limits: measureRateLimits,
  pooler: measurePooler,
};

async function main(): Promise<void> {
  const chosen = process.env.BENCH_SCALE_PARTS?.split(",").map((part) => part.trim()) ?? Object.keys(PARTS);
  const unknown = chosen.filter((part) => !(part in PARTS));
  if (unknown.length > 0) throw new Error(`unknown BENCH_SCALE_PARTS: ${unknown.join(", ")}`);
  const figures: Record<string, unknown> = {};
  for (const part of chosen) {
    const started = Date.now();
    try {
      figures[part] = { ...(await PARTS[part]!()), bench_seconds: Math.round((Date.now() - started) / 1000) };
    } catch (err) {
      figures[part] = { error: err instanceof Error ? err.message : String(err) };
    }
    process.stderr.write(`bench:scale ${part} done in ${Math.round((Date.now() - started) / 1000)} s\n`);
  }
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
