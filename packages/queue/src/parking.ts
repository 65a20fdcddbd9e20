/**
 * The parking of delivery jobs that wait long (DESIGN §10 "Redis": ≤ 300 bytes of Redis per waiting delivery, delayed
 * retries included). A BullMQ delayed job costs its hash and a member of the queue's delayed set, over 400 bytes on a
 * cluster; a retry waits minutes to hours (SPEC "Retry schedule"), so a delivery job delayed longer than
 * {@link PARK_AFTER_MS} is instead one member of its shard's `parked` sorted set (its job id, scored by the time it is
 * due, about 120 bytes). The worker moves the parked jobs due within {@link PARK_LOOKAHEAD_MS} into their queue as
 * ordinary delayed jobs every {@link PROMOTE_INTERVAL_MS}, so each still runs at its exact time.
 *
 * Nothing is lost that PostgreSQL does not hold: a parked job that is flushed, or claimed by a worker that dies before
 * adding it, leaves a pending row that the reconciler offers once due (DESIGN §1).
 */
import type { Queue } from "bullmq";
import type { RedisClient } from "./connection";

/** A delivery job delayed longer than this is parked rather than added as a BullMQ delayed job, ms. */
export const PARK_AFTER_MS = 10_000;
/** How often a worker moves due parked jobs into their queues, ms. */
export const PROMOTE_INTERVAL_MS = 1_000;
/** How far ahead of their time parked jobs are moved, ms: past the next promotion, so none runs late. */
export const PARK_LOOKAHEAD_MS = 2 * PROMOTE_INTERVAL_MS;
/** Parked jobs claimed per shard and round trip. */
const CLAIM_LIMIT = 1_000;

/** Takes up to ARGV[2] members due by ARGV[1] (ms) out of the set, atomically, and returns them with their scores. */
const CLAIM_DUE = `
local due = redis.call("ZRANGEBYSCORE", KEYS[1], "-inf", ARGV[1], "WITHSCORES", "LIMIT", 0, tonumber(ARGV[2]))
local ids = {}
for i = 1, #due, 2 do ids[#ids + 1] = due[i] end
if #ids > 0 then redis.call("ZREM", KEYS[1], unpack(ids)) end
return due`;

/** The parked set of a queue: a key under the queue's own hash tag, so it lives in the queue's slot. */
function parkedKey(queue: Queue): string {
  return queue.toKey("parked");
}

/**
 * Parks jobs of `queue` (one ZADD): each runs at `dueAt` (epoch ms); parking an id again moves its time.
 * @param jobs - each job's id (the delivery's job id) and time
 */
export async function parkJobs(
  connection: RedisClient,
  queue: Queue,
  jobs: Array<{ jobId: string; dueAt: number }>,
): Promise<void> {
  if (jobs.length === 0) return;
  await connection.zadd(parkedKey(queue), ...jobs.flatMap((job) => [job.dueAt, job.jobId]));
}

/**
 * Takes the parked jobs of `queue` due by `until` (epoch ms), at most {@link CLAIM_LIMIT}, out of its set atomically
 * (two workers never claim the same job).
 * @returns each claimed job's id and time (epoch ms)
 */
export async function claimDueParked(
  connection: RedisClient,
  queue: Queue,
  until: number,
): Promise<Array<{ jobId: string; dueAt: number }>> {
  const flat = (await connection.eval(CLAIM_DUE, 1, parkedKey(queue), until, CLAIM_LIMIT)) as string[];
  const claimed: Array<{ jobId: string; dueAt: number }> = [];
  for (let i = 0; i + 1 < flat.length; i += 2) claimed.push({ jobId: flat[i] as string, dueAt: Number(flat[i + 1]) });
  return claimed;
}

/** How many jobs of `queue` are parked. */
export function countParked(connection: RedisClient, queue: Queue): Promise<number> {
  return connection.zcard(parkedKey(queue));
}
