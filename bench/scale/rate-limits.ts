/**
 * The merchant API's per-key limit across processes (DESIGN §10 "Rate limits across processes"): 100 requests/s per
 * key must hold in sum whatever the number of API processes, and a key under its limit must never be refused because
 * of how many processes share it.
 *
 * Each API process is stood in for by a `LeasedRateLimit` over its own Redis connection and limiter (the API's own
 * configuration: `API_KEY_REQUESTS_PER_SECOND` per 1 s window, leases of up to `API_KEY_MAX_LEASE`), on the Redis of
 * `REDIS_URL` (default 127.0.0.1:6379), under a key prefix of the bench's own (`bench-rl-<random>`, removed at the end).
 * For 1, 2, 20 and 50 processes, one key receives 60 % and then 150 % of its limit, paced evenly in time, request n to
 * process n mod their number, for `BENCH_RL_SECONDS` (4) after a 1 s warm-up; only the seconds after the warm-up count.
 * A last run is `bench:api`'s reads: one process, 50 keys in turn at 25 % of the limit each.
 *
 * `measureRateLimits()` returns `{limit_per_s, max_lease, seconds, runs: [{processes, keys, load_percent, requests,
 * admitted, refused, admitted_per_s, redis_commands, redis_commands_per_admitted}]}`: `load_percent` and
 * `admitted_per_s` are per key; the commands are those the processes' connections sent (one per lease), per request
 * admitted. Run alone (`npx tsx bench/scale/rate-limits.ts`), it prints that as JSON. About 50 s. Not a timed test.
 */
import type { RateLimiterRedis } from "rate-limiter-flexible";
import { closeRedis, createRedis, whenSettled, type RedisClient } from "@lm/queue";
import { deleteQueueKeys } from "@lm/testing";
import { randomBytes } from "node:crypto";
import {
  API_KEY_MAX_LEASE,
  API_KEY_REQUESTS_PER_SECOND,
  LeasedRateLimit,
} from "../../apps/api/src/http/api-rate-limit";
import { createRateLimiter } from "../../apps/api/src/http/rate-limit";
import { runBenchPart } from "../support/children";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const SECONDS = Number(process.env.BENCH_RL_SECONDS ?? 4);
const WARM_UP_S = 1;
const PROCESSES = [1, 2, 20, 50];
const LOADS_PERCENT = [60, 150];
/** `bench:api`'s reads as one API process sees them: its 50 keys in turn, about 25 requests/s each. */
const API_READS = { keys: 50, percent: 25 };
/** How often the pacing loop wakes to send the requests due, ms. */
const TICK_MS = 5;

/** One stand-in API process: its connection, the commands it sent, and its limiter. */
interface Process {
  redis: RedisClient;
  commands: { sent: number };
  limiter: RateLimiterRedis;
}

/** The figures of one run: `processes` sharing `keys` keys, each at `load_percent` of its limit. */
interface Run {
  processes: number;
  keys: number;
  load_percent: number;
  requests: number;
  admitted: number;
  refused: number;
  admitted_per_s: number;
  redis_commands: number;
  redis_commands_per_admitted: number;
}

const round = (value: number, digits = 3): number => Number(value.toFixed(digits));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Opens a connection whose commands are counted in `commands.sent`. */
async function countedConnection(): Promise<{ redis: RedisClient; commands: { sent: number } }> {
  const redis = createRedis(REDIS_URL, "producer");
  await whenSettled(redis);
  const commands = { sent: 0 };
  const counted = redis as unknown as { sendCommand: (...args: unknown[]) => unknown };
  const send = counted.sendCommand.bind(redis);
  counted.sendCommand = (...args) => {
    commands.sent++;
    return send(...args);
  };
  return { redis, commands };
}

/**
 * Sends `percent` % of the limit to each of `keys` for the warm-up and `SECONDS` more, paced evenly, request n to
 * process n mod `processes.length` (a fresh `LeasedRateLimit` each) and key n mod `keys.length`, and counts what
 * happened after the warm-up.
 */
async function run(processes: Process[], keys: string[], percent: number): Promise<Run> {
  const limits = processes.map(({ limiter }) => new LeasedRateLimit(limiter, API_KEY_MAX_LEASE));
  const perSecond = (API_KEY_REQUESTS_PER_SECOND * percent * keys.length) / 100;
  const total = Math.round(perSecond * (WARM_UP_S + SECONDS));
  const warmUp = Math.round(perSecond * WARM_UP_S);
  const counted = { admitted: 0, refused: 0, commandsAtStart: 0 };
  const replies: Promise<void>[] = [];
  const started = performance.now();
  for (let sent = 0; sent < total;) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * perSecond) + 1);
    for (; sent < due; sent++) {
      if (sent === warmUp) counted.commandsAtStart = commandsOf(processes);
      const measured = sent >= warmUp;
      replies.push(
        limits[sent % limits.length]!.admit(keys[sent % keys.length]!).then((refusal) => {
          if (!measured) return;
          if (refusal === null) counted.admitted++;
          else counted.refused++;
        }),
      );
    }
    await sleep(TICK_MS);
  }
  await Promise.all(replies);
  const commands = commandsOf(processes) - counted.commandsAtStart;
  return {
    processes: processes.length,
    keys: keys.length,
    load_percent: percent,
    requests: total - warmUp,
    admitted: counted.admitted,
    refused: counted.refused,
    admitted_per_s: round(counted.admitted / keys.length / SECONDS, 1),
    redis_commands: commands,
    redis_commands_per_admitted: round(commands / Math.max(1, counted.admitted)),
  };
}

function commandsOf(processes: Process[]): number {
  return processes.reduce((sum, { commands }) => sum + commands.sent, 0);
}

/**
 * Measures the per-key limit with 1, 2, 20 and 50 processes at 60 % and 150 % of the limit, then one process over
 * `bench:api`'s 50 keys (see the file's comment).
 * @returns `{limit_per_s, max_lease, seconds, runs: Run[]}`
 * @throws when Redis cannot be reached
 */
export async function measureRateLimits(): Promise<Record<string, unknown>> {
  const prefix = `bench-rl-${randomBytes(4).toString("hex")}`;
  const processes: Process[] = [];
  try {
    for (let i = 0; i < Math.max(...PROCESSES); i++) {
      const { redis, commands } = await countedConnection();
      const limiter = createRateLimiter(redis, prefix, "api-key", API_KEY_REQUESTS_PER_SECOND, 1);
      processes.push({ redis, commands, limiter });
    }
    const runs: Run[] = [];
    for (const count of PROCESSES) {
      for (const percent of LOADS_PERCENT) {
        runs.push(await run(processes.slice(0, count), [`key-${count}-${percent}`], percent));
      }
    }
    const apiReads = Array.from({ length: API_READS.keys }, (_, i) => `read-key-${i}`);
    runs.push(await run(processes.slice(0, 1), apiReads, API_READS.percent));
    return { limit_per_s: API_KEY_REQUESTS_PER_SECOND, max_lease: API_KEY_MAX_LEASE, seconds: SECONDS, runs };
  } finally {
    await Promise.all(processes.map(({ redis }) => closeRedis(redis)));
    await deleteQueueKeys(REDIS_URL, prefix);
  }
}

if (require.main === module) runBenchPart(measureRateLimits);
