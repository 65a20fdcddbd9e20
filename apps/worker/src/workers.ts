/**
 * Starts one BullMQ `Worker` per queue that has a processor (per shard of the delivery queue, DESIGN §10 "Redis"), and
 * schedules the repeatable jobs (the reconciler, the charge expiry, the recurrence engine and the key revocation).
 *
 * Failures, by kind: a job that finds PostgreSQL or Redis unreachable goes back to the queue after a short delay that
 * grows while the outage lasts (half the outage so far, 0.2 s to 5 s) and is not counted as a failed try, so a
 * database blip delays work by about the blip, except a tick of a repeatable job, which just ends: its next tick runs
 * the sweep again, and BullMQ adds that tick whenever one starts, so ticks put back would pile up, one more a second
 * for the charge expiry, for as long as the outage lasts; any other error is retried by BullMQ at once
 * (`JOB_ATTEMPTS` tries), then the job is failed and the reconciler revives it a bounded number of times (see
 * `sweepers/offer-rows.ts`); a job that used them all is written on its row ({@link noteFailedJob}). A worker that dies mid-job (kill -9) loses its lock after {@link LOCK_DURATION_MS}; the
 * next stalled-job check of any worker, every {@link STALLED_INTERVAL_MS}, puts the job back, so its attempt is sent
 * again within about 12 s. After Redis lost its keys (a flush, a failover to an empty replica), the worker notices
 * within {@link SCHEDULE_REFRESH_MS} that the reconciler's schedule is gone and runs the reconciler at once, so the
 * rows whose jobs were lost are offered again within seconds rather than at the next 30 s tick.
 */
import { DelayedError, Worker, type Job } from "bullmq";
import { isTransientConnectionError } from "@lm/db";
import { recordGivenUpJob, type GivenUpJob } from "@lm/domain";
import {
  ACQUIRER_RECONCILIATION_INTERVAL_MS,
  CHARGE_EXPIRY_INTERVAL_MS,
  FINISHED_JOBS,
  KEY_REVOCATION_INTERVAL_MS,
  PROMOTE_INTERVAL_MS,
  RECONCILER_INTERVAL_MS,
  RECURRENCE_ENGINE_INTERVAL_MS,
  RETENTION_INTERVAL_MS,
  type QueueName,
} from "@lm/queue";
import { createConcurrencyGate } from "./concurrency-gate";
import type { WorkerDeps } from "./deps";
import { MAX_JOB_TRIES } from "./sweepers/offer-rows";
import { upsertSweepSchedule } from "./sweepers/sweep-schedule";
import { PROCESSORS, type JobControl, type Processor } from "./processors";

/** The repeatable jobs and how often each runs, ms. */
const SCHEDULES = [
  { queue: "reconciler", every: RECONCILER_INTERVAL_MS },
  { queue: "charge-expiry", every: CHARGE_EXPIRY_INTERVAL_MS },
  { queue: "recurrence-engine", every: RECURRENCE_ENGINE_INTERVAL_MS },
  { queue: "key-revocation", every: KEY_REVOCATION_INTERVAL_MS },
  { queue: "acquirer-reconciliation", every: ACQUIRER_RECONCILIATION_INTERVAL_MS },
  { queue: "retention", every: RETENTION_INTERVAL_MS },
] as const satisfies ReadonlyArray<{ queue: QueueName; every: number }>;

/** How long a running job's lock lasts without renewal (renewed every half of it), ms. */
export const LOCK_DURATION_MS = 6_000;
/** How often each worker looks for jobs whose lock expired (their worker died), ms. */
export const STALLED_INTERVAL_MS = 3_000;
/** Times a job may be found stalled before it is failed (each a worker that died while running it). */
const MAX_STALLED_COUNT = 10;
/** Shortest delay of a job that found PostgreSQL or Redis unreachable, ms; it grows with the outage. */
const OUTAGE_FIRST_DELAY_MS = 200;
/** Longest such delay, ms. */
const OUTAGE_MAX_DELAY_MS = 5_000;

/** Running workers; `close()` lets running jobs finish, then stops. */
export interface RunningWorkers {
  queues: QueueName[];
  close(): Promise<void>;
}

/**
 * Starts consuming every queue of {@link PROCESSORS} with `WORKER_CONCURRENCY` jobs at once per queue (in total over
 * the shards of the delivery queue, see `concurrency-gate.ts`), and upserts the job schedulers of {@link SCHEDULES}
 * (idempotent: any number of workers may run this).
 */
export async function startWorkers(deps: WorkerDeps): Promise<RunningWorkers> {
  const outage = trackOutage(deps);
  const entries = Object.entries(PROCESSORS) as Array<[QueueName, Processor<QueueName>]>;
  const workers = entries.flatMap(([name, processor]) => {
    // One worker per shard, all through one gate: `WORKER_CONCURRENCY` is the queue's total in this process.
    const gate = createConcurrencyGate(deps.config.workerConcurrency);
    return deps.producer.shards(name).map((queue) => {
      const worker = new Worker(
        queue.name,
        (job, token) => gate.run(() => runJob(deps, outage, processor, job, token)),
        {
          connection: deps.redis,
          prefix: deps.config.queuePrefix,
          concurrency: deps.config.workerConcurrency,
          lockDuration: LOCK_DURATION_MS,
          stalledInterval: STALLED_INTERVAL_MS,
          maxStalledCount: MAX_STALLED_COUNT,
          ...FINISHED_JOBS,
        },
      );
      worker.on("failed", (job, err) => void noteFailedJob(deps, name, job, err));
      worker.on("error", (err) => deps.logger.error("worker error", { queue: queue.name, err }));
      return worker;
    });
  });
  await schedule(deps);
  // Schedulers live in Redis: re-upserting them (idempotent) brings the jobs back soon after Redis lost its keys.
  const keepScheduled = setInterval(() => {
    schedule(deps).catch((err: unknown) => deps.logger.warn("job scheduling failed", { err }));
  }, SCHEDULE_REFRESH_MS);
  keepScheduled.unref();
  const promoting = keepPromotingParked(deps);
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  const queues = entries.map(([name]) => name);
  deps.logger.info("worker consuming", {
    queues,
    concurrency: deps.config.workerConcurrency,
    delivery_shards: deps.config.deliveryQueueShards,
  });
  return {
    queues,
    async close() {
      clearInterval(keepScheduled);
      clearInterval(promoting);
      await Promise.all(workers.map((w) => w.close()));
    },
  };
}

/**
 * Logs a failed try; when it was the job's last (see `sweepers/offer-rows.ts`), also writes the give-up on the job's
 * row ({@link recordGivenUpJob}). Never throws: a failure to write is logged.
 */
export async function noteFailedJob(
  deps: Pick<WorkerDeps, "repos" | "logger" | "now">,
  queue: QueueName,
  job: Job | undefined,
  err: Error,
): Promise<void> {
  if (err instanceof DelayedError) return;
  const givenUp = job !== undefined && job.attemptsMade >= MAX_JOB_TRIES;
  const fields = { queue, job_id: job?.id, attempts_made: job?.attemptsMade, err };
  if (!givenUp) {
    deps.logger.error("job failed", fields);
    return;
  }
  deps.logger.error("job given up: it failed every try and is not revived", fields);
  try {
    const given = { queue, jobId: String(job.id), data: job.data, error: err } as GivenUpJob;
    await recordGivenUpJob(deps, given);
  } catch (writeErr) {
    deps.logger.error("could not write a given-up job on its row", { queue, job_id: job.id, err: writeErr });
  }
}

/**
 * Moves the parked delivery jobs (retries that wait long, see packages/queue `parking.ts`) into their shards shortly
 * before their time, every `PROMOTE_INTERVAL_MS`, one round at a time; any number of workers may do this at once.
 * @returns the timer, for `clearInterval`
 */
function keepPromotingParked(deps: WorkerDeps): NodeJS.Timeout {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    deps.producer
      .promoteParked()
      .catch((err: unknown) => deps.logger.warn("promoting parked delivery jobs failed", { err }))
      .finally(() => {
        running = false;
      });
  }, PROMOTE_INTERVAL_MS);
  timer.unref();
  return timer;
}

/** How often the schedulers are checked and re-upserted, ms: after a Redis flush the reconciler runs within this. */
const SCHEDULE_REFRESH_MS = 3_000;

/**
 * Upserts the job schedulers of {@link SCHEDULES} (idempotent). When the reconciler's was missing (a fresh or flushed
 * Redis), it also enqueues one reconciler run now: the rows whose jobs were lost must not wait for the next tick.
 */
async function schedule(deps: WorkerDeps): Promise<void> {
  const reconciler = deps.producer.queue("reconciler");
  const lost = (await reconciler.getJobScheduler("reconciler")) === undefined;
  await Promise.all(SCHEDULES.map(({ queue, every }) => upsertSweepSchedule(deps.producer.queue(queue), queue, every)));
  if (lost) {
    deps.logger.warn("reconciler schedule missing (Redis empty or flushed); reconciling now");
    await deps.producer.enqueue("reconciler", { data: {}, jobId: `reconcile-now-${Date.now()}` });
  }
}

/** Runs one job: the processor, with `defer` and the outage rule above. */
async function runJob(
  deps: WorkerDeps,
  outage: Outage,
  processor: Processor<QueueName>,
  job: Job,
  token: string | undefined,
): Promise<void> {
  const moveToDelayed = async (delayMs: number): Promise<never> => {
    await job.moveToDelayed(Date.now() + delayMs, token);
    throw new DelayedError();
  };
  const control: JobControl = { id: job.id ?? "", defer: moveToDelayed };
  try {
    await processor(deps, job.data, control);
    outage.ended();
  } catch (err) {
    if (err instanceof DelayedError || !isTransientConnectionError(err)) throw err;
    const delayMs = outage.delayMs(err);
    if (job.repeatJobKey === undefined) await moveToDelayed(delayMs);
  }
}

/** The process's view of a PostgreSQL or Redis outage: one log line when it starts and one when it ends. */
interface Outage {
  /** Notes a job that just met the outage; returns the delay to put it back with, ms (grows while it lasts). */
  delayMs(err: unknown): number;
  /** A job succeeded: the outage, if any, is over. */
  ended(): void;
}

function trackOutage(deps: Pick<WorkerDeps, "logger">): Outage {
  let since: number | null = null;
  let interrupted = 0;
  return {
    delayMs(err) {
      const now = Date.now();
      if (since === null) {
        since = now;
        deps.logger.warn("database or redis unreachable; jobs retry shortly", { err });
      }
      interrupted += 1;
      // Half the outage so far: a 0.5 s blip costs a job about 0.2 s more, a long outage is polled every 5 s.
      const base = Math.min(OUTAGE_MAX_DELAY_MS, Math.max(OUTAGE_FIRST_DELAY_MS, (now - since) / 2));
      return Math.round(base * (0.75 + Math.random() * 0.5));
    },
    ended() {
      if (since === null) return;
      deps.logger.info("database and redis reachable again", {
        jobs_interrupted: interrupted,
        outage_ms: Date.now() - since,
      });
      since = null;
      interrupted = 0;
    },
  };
}
