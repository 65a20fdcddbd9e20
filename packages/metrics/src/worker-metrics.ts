/**
 * The worker process's Prometheus metrics: queue depth, delivery attempts, event → first attempt
 * latency, reconciler revivals, inbox outcomes and ledger drift. One registry per process; call sites record with one
 * line each, through the worker's deps.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/** Job states reported per queue by {@link WorkerMetrics.queueJobs}. */
export const QUEUE_DEPTH_STATES = ["waiting", "delayed", "active", "failed"] as const;

/** One of {@link QUEUE_DEPTH_STATES}. */
export type QueueDepthState = (typeof QUEUE_DEPTH_STATES)[number];

/** Upper bounds of the event → first attempt buckets, seconds: sub-second normally, minutes when a backlog builds. */
const FIRST_ATTEMPT_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900];

/** Where the queue depth comes from at scrape time (BullMQ's `Queue.getJobCounts`, kept out of this package). */
export interface QueueDepthSource<Q extends string = string> {
  /** Names of the queues to report. */
  queues: readonly Q[];
  /**
   * Job counts of `queue` by state, one record per BullMQ queue it is made of (the shards of the delivery queue, DESIGN
   * §10 "Redis"), which are summed; states missing from a record read as 0.
   */
  jobCounts(queue: Q, states: QueueDepthState[]): Promise<Array<Record<string, number>>>;
}

/** The metrics a worker process exposes. */
export interface WorkerMetrics {
  /** Holds every metric below plus Node's process metrics (`process_*`, `nodejs_*`). */
  registry: Registry;
  /**
   * `lm_queue_jobs{queue, state}`: jobs per queue in `waiting`, `delayed`, `active` and `failed`, read from Redis at
   * each scrape (so every worker reports the same, shared numbers). Absent from a scrape while Redis does not answer.
   */
  queueJobs: Gauge<"queue" | "state">;
  /**
   * `lm_webhook_delivery_attempts_total{outcome, error}`: attempts by the status written on their row (`succeeded`,
   * `failed`, `dead`) and their delivery error (`http_503`, `timeout`, …; `none` on success), DESIGN §4.
   */
  deliveryAttempts: Counter<"outcome" | "error">;
  /**
   * `lm_webhook_event_to_first_attempt_seconds`: from an event's `created_at` to the start of attempt 1 of an
   * automatic chain, seconds. Manual chains (pings, resends, recoveries) are left out: their event is old by design.
   */
  eventToFirstAttempt: Histogram<string>;
  /**
   * `lm_reconciler_revivals_total{queue}`: rows the reconciler found without a job and enqueued again (DESIGN §1: a
   * crash between commit and enqueue, a Redis flush). Rows whose job still existed are not counted.
   */
  reconcilerRevivals: Counter<"queue">;
  /**
   * `lm_inbox_items_processed_total{outcome}`: inbound notifications processed by outcome (`paid`, `already_paid`,
   * an anomaly code such as `amount_mismatch`, or `skipped`), DESIGN §5.
   */
  inboxItemsProcessed: Counter<"outcome">;
  /**
   * `lm_ledger_drift_centavos{mode}`: how far the stored balances are from the sum of their balance transactions
   * (DESIGN §7), summed as absolute values over accounts by the latest ledger check, centavos. Anything but 0 is a bug.
   * Set it with {@link setLedgerDrift}.
   */
  ledgerDrift: Gauge<"mode">;
}

/**
 * Creates the worker's registry and metrics.
 * @param queueDepth - read at every scrape to fill `lm_queue_jobs`
 */
export function createWorkerMetrics<Q extends string>(queueDepth: QueueDepthSource<Q>): WorkerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    queueJobs: new Gauge({
      name: "lm_queue_jobs",
      help: "BullMQ jobs per queue and state (waiting, delayed, active, failed), read at scrape time",
      labelNames: ["queue", "state"],
      registers,
      async collect() {
        this.reset();
        try {
          const counts = await Promise.all(
            queueDepth.queues.map((q) => queueDepth.jobCounts(q, [...QUEUE_DEPTH_STATES])),
          );
          queueDepth.queues.forEach((queue, i) => {
            for (const state of QUEUE_DEPTH_STATES) {
              this.set(
                { queue, state },
                (counts[i] ?? []).reduce((sum, shard) => sum + (shard[state] ?? 0), 0),
              );
            }
          });
        } catch {
          // Redis is unreachable: report no depth rather than fail the whole scrape or repeat stale numbers.
        }
      },
    }),
    deliveryAttempts: new Counter({
      name: "lm_webhook_delivery_attempts_total",
      help: "Webhook delivery attempts by outcome (succeeded, failed, dead) and delivery error (none on success)",
      labelNames: ["outcome", "error"],
      registers,
    }),
    eventToFirstAttempt: new Histogram({
      name: "lm_webhook_event_to_first_attempt_seconds",
      help: "Time from an event's creation to the first delivery attempt of an automatic chain, seconds",
      buckets: FIRST_ATTEMPT_BUCKETS,
      registers,
    }),
    reconcilerRevivals: new Counter({
      name: "lm_reconciler_revivals_total",
      help: "Rows the reconciler found without a job and enqueued again, by queue",
      labelNames: ["queue"],
      registers,
    }),
    inboxItemsProcessed: new Counter({
      name: "lm_inbox_items_processed_total",
      help: "Inbound acquirer notifications processed, by outcome",
      labelNames: ["outcome"],
      registers,
    }),
    ledgerDrift: new Gauge({
      name: "lm_ledger_drift_centavos",
      help: "Absolute difference between stored balances and the sum of their balance transactions, centavos",
      labelNames: ["mode"],
      registers,
    }),
  };
}

/** One recorded webhook delivery attempt, as the delivery code reports it. */
export interface DeliveryAttemptSample {
  /** 1..6. */
  attempt: number;
  /** A chain the seller asked for (ping, resend, recovery): left out of the latency, its event is old by design. */
  manual?: boolean;
  /** The status written on the attempt's row. */
  status: "succeeded" | "failed" | "dead";
  /** The delivery error written on the row; null on success. */
  error: string | null;
  /** When the event was recorded. */
  eventCreatedAt: Date;
  /** When the attempt started. */
  attemptedAt: Date;
}

/**
 * Counts one attempt in `lm_webhook_delivery_attempts_total` and, for attempt 1 of an automatic chain, observes the
 * event → first attempt latency (seconds).
 */
export function recordDeliveryAttempt(
  metrics: Pick<WorkerMetrics, "deliveryAttempts" | "eventToFirstAttempt">,
  sample: DeliveryAttemptSample,
): void {
  metrics.deliveryAttempts.inc({ outcome: sample.status, error: sample.error ?? "none" });
  if (sample.attempt === 1 && sample.manual !== true) {
    metrics.eventToFirstAttempt.observe((sample.attemptedAt.getTime() - sample.eventCreatedAt.getTime()) / 1000);
  }
}

/**
 * Records the result of a ledger check (DESIGN §7) for one mode.
 * @param driftCentavos - sum over accounts of |stored balance − sum of balance transactions|, integer centavos ≥ 0
 * @throws RangeError for a negative or fractional amount (money is integer centavos)
 */
export function setLedgerDrift(
  metrics: Pick<WorkerMetrics, "ledgerDrift">,
  mode: "live" | "test",
  driftCentavos: number,
): void {
  if (!Number.isSafeInteger(driftCentavos) || driftCentavos < 0) {
    throw new RangeError(`ledger drift must be a non-negative integer of centavos, got ${driftCentavos}`);
  }
  metrics.ledgerDrift.set({ mode }, driftCentavos);
}
