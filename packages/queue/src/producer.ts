/**
 * The typed producer: one BullMQ `Queue` per name, sharing a connection, under one key prefix.
 */
import { Queue, type JobsOptions } from "bullmq";
import type { RedisClient } from "./connection";
import { QUEUE_NAMES, type JobPayloads, type QueueName } from "./queues";

/**
 * Tries of a job that throws (other than on a database or Redis outage, which the worker delays without counting),
 * run back to back; then it is failed and the reconciler decides whether to revive it (every 30 s).
 */
export const JOB_ATTEMPTS = 5;

/**
 * Default job options. They are copied into every job's `opts`, so they stay this small: with the job id, `opts` fits
 * Redis's 64-byte listpack value, and a waiting job costs a compact hash instead of a hash table (measured: 851 → 359
 * bytes of Redis per waiting delivery job). Removal of finished jobs is the worker's setting ({@link FINISHED_JOBS}).
 */
const DEFAULT_JOB_OPTIONS: JobsOptions = { attempts: JOB_ATTEMPTS };

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

/** Enqueues jobs by queue name with the payload type of that queue. */
export interface Producer {
  /**
   * Adds a job. Give `jobId` (the row id) to make a repeat a no-op while the job exists.
   * @param options.delayMs - run no earlier than this many ms from now
   */
  enqueue<N extends QueueName>(
    name: N,
    data: JobPayloads[N],
    options?: { jobId?: string; delayMs?: number },
  ): Promise<void>;
  /** Enqueues many jobs of one queue in one round trip. Options as {@link Producer.enqueue}'s. */
  enqueueBulk<N extends QueueName>(
    name: N,
    jobs: Array<{ data: JobPayloads[N]; jobId?: string; delayMs?: number }>,
  ): Promise<void>;
  /**
   * How many of `jobIds` have no job in queue `name` (in no state: never added, finished and removed, or lost with
   * Redis's data), in one round trip.
   */
  countMissingJobs(name: QueueName, jobIds: string[]): Promise<number>;
  /** The BullMQ queue behind a name (for repeatable jobs, metrics and tests). */
  queue<N extends QueueName>(name: N): Queue<JobPayloads[N]>;
  /** Closes every queue (not the shared connection). */
  close(): Promise<void>;
}

/**
 * Creates the producer over `connection` with keys under `prefix` (`QUEUE_PREFIX`).
 * @param onError - called with a queue's connection errors (which would otherwise be unhandled events)
 */
export function createProducer(connection: RedisClient, prefix: string, onError: (err: Error) => void): Producer {
  const queues = new Map<QueueName, Queue>(
    QUEUE_NAMES.map((name) => {
      const queue = new Queue(name, {
        connection,
        prefix,
        defaultJobOptions: DEFAULT_JOB_OPTIONS,
        streams: { events: { maxLen: EVENTS_STREAM_LENGTH } },
      });
      queue.on("error", onError);
      return [name, queue];
    }),
  );
  const get = <N extends QueueName>(name: N) => queues.get(name) as Queue<JobPayloads[N]>;
  const jobOptions = (jobId?: string, delayMs?: number): JobsOptions => ({
    ...(jobId === undefined ? {} : { jobId }),
    ...(delayMs === undefined || delayMs <= 0 ? {} : { delay: Math.ceil(delayMs) }),
  });
  const enqueue: Producer["enqueue"] = async (name, data, options = {}) => {
    // BullMQ's generic job names are typed loosely; the payload is typed by our map.
    await (get(name) as Queue).add(JOB_NAME, data, jobOptions(options.jobId, options.delayMs));
  };
  return {
    enqueue,
    async enqueueBulk(name, jobs) {
      if (jobs.length === 0) return;
      // One job is added without a pipeline: ioredis copies every Lua script BullMQ defines onto each pipeline it
      // makes, which cost more than the job itself (a charge's creation adds one: its postback's only delivery).
      const [only] = jobs;
      if (jobs.length === 1 && only) return enqueue(name, only.data, only);
      await (get(name) as Queue).addBulk(
        jobs.map((job) => ({ name: JOB_NAME, data: job.data, opts: jobOptions(job.jobId, job.delayMs) })),
      );
    },
    async countMissingJobs(name, jobIds) {
      if (jobIds.length === 0) return 0;
      const queue = get(name);
      // A job's hash lives at the queue's key + its id for as long as the job exists, whatever its state.
      const existing = await connection.exists(...jobIds.map((id) => queue.toKey(id)));
      return jobIds.length - existing;
    },
    queue: get,
    async close() {
      await Promise.all([...queues.values()].map((q) => q.close()));
    },
  };
}
