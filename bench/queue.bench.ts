/**
 * `npm run bench:queue`: what one BullMQ job costs the machine, with nothing of ours in it, at the pace a paid event's
 * jobs arrive. A paid event passes through two jobs (its notification's `inbox-processing`, its fan-out's
 * `webhook-delivery`), so this is the floor under `bench:delivery`'s open loop that our code cannot lower but by
 * having fewer jobs.
 *
 * A worker process (this file, started as `queue.bench.ts worker`) runs a BullMQ `Worker` whose processor does nothing,
 * on a connection made as the service makes its own (`createRedis`), with the service's `WORKER_CONCURRENCY` (100) and
 * finished-job options; this process adds the jobs one by one, each with an id of its own, as the API adds a
 * notification's. Two phases, in this order:
 * - **trickle**: BENCH_QUEUE_RATE jobs a second (default 500) for BENCH_QUEUE_SECONDS (10), on a clock, while the
 *   worker takes each as it arrives;
 * - **backlog** (the baseline of the same run): as many jobs added while the worker is paused, then drained at once.
 * Each prints its CPU per job, ms: the adding process's, the worker's and the Redis server's (null when Redis is not a
 * process of this machine), all three summed, and `ratio`: trickle ÷ backlog of that sum. Uses its own queue prefix and
 * deletes its keys at the end. Not a timed test.
 */
import { Queue, Worker } from "bullmq";
import type { ChildProcess } from "node:child_process";
import { FINISHED_JOBS, closeRedis, createRedis } from "@lm/queue";
import { deleteQueueKeys, uniqueQueuePrefix } from "@lm/testing";
import { cpuMs, redisCpuMs, redisServerPid, round, runBenchPart, startChild } from "./support/children";

const RATE = Number(process.env.BENCH_QUEUE_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_QUEUE_SECONDS ?? 10);
const CONCURRENCY = 100;
const QUEUE = "bench-queue";
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** CPU per job of one phase, ms. */
interface PhaseCost {
  jobs: number;
  ms: number;
  producer_cpu_ms_per_job: number;
  worker_cpu_ms_per_job: number;
  redis_cpu_ms_per_job: number | null;
  total_cpu_ms_per_job: number;
}

/** The two phases over one worker process, and their ratio (see the module comment). */
async function measureQueue(): Promise<Record<string, unknown>> {
  const prefix = uniqueQueuePrefix();
  const children: ChildProcess[] = [];
  const redis = createRedis(REDIS_URL, "worker");
  const queue = new Queue(QUEUE, { connection: redis, prefix });
  try {
    const worker = await startChild(
      children,
      ["bench/queue.bench.ts", "worker"],
      { BENCH_QUEUE_PREFIX: prefix },
      /consuming/,
    );
    const pids = { redis: await redisServerPid(redis), worker: worker.child.pid as number };
    const total = RATE * SECONDS;
    let next = 0;
    const add = () => queue.add("job", {}, { jobId: `j${next++}`, ...FINISHED_JOBS });

    const trickle = await measure(queue, pids, total, async () => {
      const started = Date.now();
      const adding: Array<Promise<unknown>> = [];
      for (let sent = 0; sent < total;) {
        const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * RATE));
        for (; sent < due; sent++) adding.push(add());
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await Promise.all(adding);
    });

    await queue.pause();
    const backlog = await measure(queue, pids, total, async () => {
      await Promise.all(Array.from({ length: total }, add));
      await queue.resume();
    });

    return {
      rate_per_s: RATE,
      worker_concurrency: CONCURRENCY,
      trickle,
      backlog,
      ratio: round(trickle.total_cpu_ms_per_job / backlog.total_cpu_ms_per_job, 2),
    };
  } finally {
    for (const child of children) child.kill("SIGKILL");
    await queue.close();
    await closeRedis(redis);
    await deleteQueueKeys(REDIS_URL, prefix);
  }
}

/** Runs `addJobs` (which adds `jobs` jobs), waits until the worker has finished them all; returns the phase's CPU. */
async function measure(
  queue: Queue,
  pids: { redis: number; worker: number },
  jobs: number,
  addJobs: () => Promise<void>,
): Promise<PhaseCost> {
  const before = { producer: cpuMs(process.pid), worker: cpuMs(pids.worker), redis: redisCpuMs(pids.redis) };
  const started = Date.now();
  await addJobs();
  for (;;) {
    const counts = await queue.getJobCounts("waiting", "active", "paused");
    if ((counts.waiting ?? 0) + (counts.active ?? 0) + (counts.paused ?? 0) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const perJob = (ms: number) => round(ms / jobs, 3);
  const producer = perJob(cpuMs(process.pid) - before.producer);
  const worker = perJob(cpuMs(pids.worker) - before.worker);
  const redisMs = redisCpuMs(pids.redis) - before.redis;
  const redis = Number.isNaN(redisMs) ? null : perJob(redisMs);
  return {
    jobs,
    ms: Date.now() - started,
    producer_cpu_ms_per_job: producer,
    worker_cpu_ms_per_job: worker,
    redis_cpu_ms_per_job: redis,
    total_cpu_ms_per_job: round(producer + worker + (redis ?? 0), 3),
  };
}

/** The worker process: a no-op processor on queue {@link QUEUE} under `prefix`, until killed. */
async function runWorker(redisUrl: string, prefix: string): Promise<void> {
  const worker = new Worker(QUEUE, async () => undefined, {
    connection: createRedis(redisUrl, "worker"),
    prefix,
    concurrency: CONCURRENCY,
    ...FINISHED_JOBS,
  });
  await worker.waitUntilReady();
  process.stdout.write("consuming\n");
}

if (process.argv[2] === "worker") void runWorker(REDIS_URL, String(process.env.BENCH_QUEUE_PREFIX));
else runBenchPart(measureQueue);
