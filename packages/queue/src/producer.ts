/**
 * The typed producer: the BullMQ queues of every queue name (one, or one per shard of the delivery queue), sharing a
 * connection, under one key prefix, each under its own hash tag (DESIGN §10 "Redis").
 */
import { Queue, type JobsOptions } from "bullmq";
import type { RedisClient } from "./connection";
import { PARK_AFTER_MS, PARK_LOOKAHEAD_MS, claimDueParked, countParked, parkJobs } from "./parking";
import {
  QUEUE_NAMES,
  isShardedQueue,
  shardOf,
  bullQueueNames,
  type JobPayloads,
  type JobRoute,
  type QueueName,
  type ShardedQueueName,
} from "./queues";

/**
 * Tries of a job that throws (other than on a database or Redis outage, which the worker delays without counting),
 * run back to back; then it is failed and the reconciler decides whether to revive it (every 30 s). Delivery jobs
 * have one try a run (see {@link defaultJobOptions}).
 */
export const JOB_ATTEMPTS = 5;

/**
 * Default job options of each queue. They are copied into every job's `opts`, so they stay this small: with the job id,
 * `opts` must fit Redis's 64-byte listpack value, or a waiting job costs a hash table instead of a compact hash (about
 * 800 instead of 300 bytes of Redis). A delivery job therefore has no `attempts` (one try a run): its `opts` is its id
 * and, for a retry, its delay in ms, `{"jobId":"<26>","delay":43200000}`, which `attempts` would take to 69 bytes. A
 * delivery job that throws (a bug, never an unreachable database or endpoint) is failed at once and revived by the
 * reconciler's sweep, every 30 s, up to its tries in all. Removal of finished jobs is the worker's setting
 * ({@link FINISHED_JOBS}).
 */
function defaultJobOptions(name: QueueName): JobsOptions {
  // BullMQ writes `attempts: 0` into a job's opts unless the option is present and undefined.
  return { attempts: name === "webhook-delivery" ? undefined : JOB_ATTEMPTS };
}

/**
 * What the worker keeps of finished jobs: completed ones are dropped (rows in PostgreSQL are the record), failed ones
 * kept (their ids keep the reconciler from re-offering rows whose jobs gave up).
 */
export const FINISHED_JOBS = { removeOnComplete: { count: 0 }, removeOnFail: { count: 10_000 } };

/**
 * Length of each queue's BullMQ event stream (default 10,000 entries). Nothing of ours reads it (the rows are the
 * record), and at the default it holds an entry per recent job, a large share of Redis's memory per waiting delivery.
 */
const EVENTS_STREAM_LENGTH = 100;

/**
 * BullMQ's name of every job we add: empty, because the queue already says what a job is, and a job stores its name
 * in its hash (16 bytes more per waiting delivery would take its hash past a 128-byte allocation).
 */
const JOB_NAME = "";

/**
 * One job to add to queue `N`: its ids-only payload, its id (the row id, so a repeat is a no-op while the job
 * exists), a delay in ms (run no earlier than this from now; 0 or absent runs at once), and for a sharded queue its
 * destination ({@link JobRoute}).
 */
export type QueuedJob<N extends QueueName> = { data: JobPayloads[N]; jobId?: string; delayMs?: number } & JobRoute<N>;

/** Where the producer's keys go: `QUEUE_PREFIX` and `DELIVERY_QUEUE_SHARDS` (packages/config). */
export interface QueueLayout {
  queuePrefix: string;
  deliveryQueueShards: number;
}

/** Enqueues jobs by queue name with the payload type of that queue. */
export interface Producer {
  /**
   * Adds one job ({@link QueuedJob}). A delivery job delayed longer than `PARK_AFTER_MS` is parked instead, to run at
   * its time all the same (see `parking.ts`).
   */
  enqueue<N extends QueueName>(name: N, job: QueuedJob<N>): Promise<void>;
  /**
   * Enqueues many jobs of one queue: one round trip per shard they fall in. Options as {@link Producer.enqueue}'s.
   */
  enqueueBulk<N extends QueueName>(name: N, jobs: Array<QueuedJob<N>>): Promise<void>;
  /**
   * How many of `jobs` have no job in queue `name` (in no state: never added, finished and removed, or lost with
   * Redis's data): one round trip per shard they fall in.
   */
  countMissingJobs<N extends QueueName>(name: N, jobs: Array<{ jobId: string } & JobRoute<N>>): Promise<number>;
  /**
   * Moves the parked delivery jobs due within `PARK_LOOKAHEAD_MS` into their shards as delayed jobs that run at their
   * time (see `parking.ts`); the worker calls it every `PROMOTE_INTERVAL_MS`.
   * @returns how many jobs were moved
   */
  promoteParked(): Promise<number>;
  /** How many delivery jobs are parked (see `parking.ts`): they wait for their time as delayed jobs do. */
  countParked(): Promise<number>;
  /** The BullMQ queue of an unsharded queue (for repeatable jobs and tests). */
  queue<N extends Exclude<QueueName, ShardedQueueName>>(name: N): Queue<JobPayloads[N]>;
  /**
   * The shard of sharded queue `name` that holds the jobs of `key` (a delivery's destination, an inbox job's id; see
   * `JobRoute`).
   */
  queueFor<N extends ShardedQueueName>(name: N, key: string): Queue<JobPayloads[N]>;
  /** Every BullMQ queue of `name`: its shards in order, or the one queue (for workers, metrics, revivals, tests). */
  shards<N extends QueueName>(name: N): Array<Queue<JobPayloads[N]>>;
  /** Closes every queue (not the shared connection). */
  close(): Promise<void>;
}

/**
 * Creates the producer over `connection` ({@link QueueLayout}).
 * @param onError - called with a queue's connection errors (which would otherwise be unhandled events)
 */
export function createProducer(connection: RedisClient, layout: QueueLayout, onError: (err: Error) => void): Producer {
  const queues = new Map<QueueName, Queue[]>(
    QUEUE_NAMES.map((name) => [
      name,
      bullQueueNames(name, layout.deliveryQueueShards).map((bullName) => {
        const queue = new Queue(bullName, {
          connection,
          prefix: layout.queuePrefix,
          defaultJobOptions: defaultJobOptions(name),
          streams: { events: { maxLen: EVENTS_STREAM_LENGTH } },
        });
        queue.on("error", onError);
        return queue;
      }),
    ]),
  );
  const shards = <N extends QueueName>(name: N) => queues.get(name) as Array<Queue<JobPayloads[N]>>;
  const shardFor = (name: ShardedQueueName, key: string) =>
    shards(name)[shardOf(key, layout.deliveryQueueShards)] as Queue;
  /** The queue of one job: a delivery's destination's shard, an inbox job's id's shard, or the queue's only one. */
  const queueOf = (name: QueueName, job: { jobId?: string }): Queue => {
    if (!isShardedQueue(name)) return shards(name)[0] as Queue;
    const key = "destination" in job && typeof job.destination === "string" ? job.destination : job.jobId;
    if (key === undefined) throw new Error(`a job of ${name} needs an id to find its shard`);
    return shardFor(name, key);
  };
  const byQueue = <J extends { jobId?: string }>(name: QueueName, jobs: J[]) => {
    const groups = new Map<Queue, J[]>();
    for (const job of jobs) {
      const queue = queueOf(name, job);
      const group = groups.get(queue);
      if (group) group.push(job);
      else groups.set(queue, [job]);
    }
    return groups;
  };
  const jobOptions = (job: { jobId?: string; delayMs?: number }): JobsOptions => ({
    ...(job.jobId === undefined ? {} : { jobId: job.jobId }),
    ...(job.delayMs === undefined || job.delayMs <= 0 ? {} : { delay: Math.ceil(job.delayMs) }),
  });
  /** Adds `jobs` to `queue`: one job without a pipeline, several in one. */
  const addTo = async (queue: Queue, jobs: Array<{ data: unknown; jobId?: string; delayMs?: number }>) => {
    // ioredis copies every Lua script BullMQ defines onto each pipeline it makes, which cost more than one job (a
    // charge's creation adds one: its postback's only delivery).
    const [only] = jobs;
    if (jobs.length === 1 && only) return void (await queue.add(JOB_NAME, only.data, jobOptions(only)));
    if (jobs.length > 0)
      await queue.addBulk(jobs.map((job) => ({ name: JOB_NAME, data: job.data, opts: jobOptions(job) })));
  };
  const enqueueBulk: Producer["enqueueBulk"] = async (name, jobs) => {
    const now = Date.now();
    await Promise.all(
      [...byQueue(name, jobs)].map(async ([queue, group]) => {
        const parked: Array<{ jobId: string; dueAt: number }> = [];
        const added: typeof group = [];
        for (const job of group) {
          const delayMs = job.delayMs ?? 0;
          if (name === "webhook-delivery" && job.jobId !== undefined && delayMs > PARK_AFTER_MS)
            parked.push({ jobId: job.jobId, dueAt: now + delayMs });
          else added.push(job);
        }
        await Promise.all([parkJobs(connection, queue, parked), addTo(queue, added)]);
      }),
    );
  };
  return {
    enqueue: (name, job) => enqueueBulk(name, [job]),
    enqueueBulk,
    async promoteParked() {
      const now = Date.now();
      const moved = await Promise.all(
        shards("webhook-delivery").map(async (queue) => {
          const claimed = await claimDueParked(connection, queue as Queue, now + PARK_LOOKAHEAD_MS);
          await addTo(
            queue as Queue,
            claimed.map(({ jobId, dueAt }) => ({ data: {}, jobId, delayMs: dueAt - now })),
          );
          return claimed.length;
        }),
      );
      return moved.reduce((sum, n) => sum + n, 0);
    },
    async countParked() {
      const counts = await Promise.all(
        shards("webhook-delivery").map((queue) => countParked(connection, queue as Queue)),
      );
      return counts.reduce((sum, n) => sum + n, 0);
    },
    async countMissingJobs(name, jobs) {
      const existing = await Promise.all(
        // A job's hash lives at the queue's key + its id for as long as the job exists, whatever its state; one
        // EXISTS per shard, whose keys share its slot.
        [...byQueue(name, jobs)].map(([queue, group]) => connection.exists(...group.map((j) => queue.toKey(j.jobId)))),
      );
      return jobs.length - existing.reduce((sum, n) => sum + n, 0);
    },
    queue: (name) => shards(name)[0] as Queue<JobPayloads[typeof name]>,
    queueFor: (name, key) => shardFor(name, key) as Queue<JobPayloads[typeof name]>,
    shards,
    async close() {
      await Promise.all([...queues.values()].flat().map((q) => q.close()));
    },
  };
}
