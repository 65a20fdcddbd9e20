/**
 * What the worker's processors need, created once per process (or per test file) and passed down.
 */
import type { Config } from "@lm/config";
import { createPixApiClient } from "@lm/pix-api";
import { createDb, createRepositories, type Db, type Repositories } from "@lm/db";
import { resolveHostname, type DeliveryDeps, type DeliveryObserver, type HostResolver } from "@lm/domain";
import { createLogger, type Logger } from "@lm/logging";
import { createMailer, type Mailer } from "@lm/mail";
import { createWorkerMetrics, recordDeliveryAttempt, type WorkerMetrics } from "@lm/metrics";
import {
  QUEUE_NAMES,
  closeRedis,
  createProducer,
  createRedis,
  whenSettled,
  type Producer,
  type RedisClient,
} from "@lm/queue";
import { createConcurrencyGate, type ConcurrencyGate } from "./concurrency-gate";
import { createDeliveryGates } from "./delivery/delivery-gates";
import { createDeliveryRows } from "./delivery/delivery-rows";
import { createDestinationSlots, type DestinationSlots } from "./delivery/destination-slots";
import { createWebhookHttpClient, type WebhookHttpClient } from "./delivery/http-client";
import { createPaymentSettlement, type PaymentSettlement } from "./inbox/payment-settlement";

/** Dependencies of the worker process; they include what one delivery attempt needs ({@link DeliveryDeps}). */
export interface WorkerDeps extends DeliveryDeps {
  config: Config;
  /** The database client, ended at shutdown; everything else reaches the database through {@link WorkerDeps.repos}. */
  db: Db;
  /** Every repository, bound once, and the unit of work: what use cases and sweeps use (`UseCaseDeps.repos`). */
  repos: Repositories;
  /** Opens a bank's API Pix client (`UseCaseDeps.connectBank`). */
  connectBank: typeof createPixApiClient;
  /** Blocking connection shared by the BullMQ workers. */
  redis: RedisClient;
  /** Producer for follow-up jobs (retries, the deliveries of the events it records), on {@link producerRedis}. */
  producer: Producer;
  /** Non-blocking connection of the producer. */
  producerRedis: RedisClient;
  logger: Logger;
  now: () => Date;
  /** Settles plain inbound payments in batches (see `inbox/payment-settlement.ts`). */
  settlePayment: PaymentSettlement;
  /** Per-destination limits of attempts at once (DESIGN §8 "Isolation"). */
  destinationSlots: DestinationSlots;
  /**
   * `WORKER_CONCURRENCY` webhook attempts at once in this process, whatever the jobs they come from (a fan-out's job
   * runs one per destination).
   */
  attempts: ConcurrencyGate;
  /** Posts webhook attempts over keep-alive connections. */
  webhookClient: WebhookHttpClient;
  /**
   * Resolves destination host names inside the socket's lookup at send time (the system resolver); tests replace it
   * to make a name answer as they need, e.g. a private address at send time (DNS rebinding).
   */
  resolveHost: HostResolver;
  /** Sends the seller's mails the worker causes (an endpoint failing or disabled automatically). */
  mailer: Mailer;
  /** This process's Prometheus registry and metrics. */
  metrics: WorkerMetrics;
}

/** Opens the worker's connections. Close them with {@link closeWorkerDeps}. */
/**
 * @param options.logger - replaces the JSON logger (tests)
 * @param options.observer - watches every recorded attempt (default: the Prometheus counters of `metrics`)
 */
export function createWorkerDeps(
  config: Config,
  options: { logger?: Logger; observer?: DeliveryObserver } = {},
): WorkerDeps {
  const producerRedis = createRedis(config.redisClusterNodes ?? config.redisUrl, "worker");
  const logger = options.logger ?? createLogger({ level: config.logLevel, service: "worker" });
  const db = createDb(config.databaseUrl, {
    maxConnections: Math.min(50, config.workerConcurrency + 5),
    pooling: config.databasePooling,
  });
  const producer = createProducer(producerRedis, config, (err) => logger.warn("queue error", { err: err.message }));
  const webhookClient = createWebhookHttpClient();
  const metrics = createWorkerMetrics({
    queues: QUEUE_NAMES,
    // Parked delivery jobs (retries that wait long) count as delayed, as they are.
    jobCounts: (queue, states) =>
      Promise.all([
        ...producer.shards(queue).map((shard) => shard.getJobCounts(...states)),
        ...(queue === "webhook-delivery" ? [producer.countParked().then((delayed) => ({ delayed }))] : []),
      ]),
  });
  const repos = createRepositories(db);
  const deps: WorkerDeps = {
    config,
    db,
    repos,
    connectBank: createPixApiClient,
    redis: createRedis(config.redisClusterNodes ?? config.redisUrl, "worker"),
    producer,
    producerRedis,
    logger,
    now: () => new Date(),
    deliveryRows: createDeliveryRows(repos),
    gates: createDeliveryGates(producerRedis, config.queuePrefix),
    settlePayment: createPaymentSettlement(() => deps),
    destinationSlots: createDestinationSlots({
      fastLimit: Math.ceil(config.workerConcurrency / 2),
      slowLimit: Math.max(1, Math.ceil(config.workerConcurrency / 50)),
    }),
    attempts: createConcurrencyGate(config.workerConcurrency),
    webhookClient,
    // Reads `deps.resolveHost` at send time, so a test that replaces it changes the next attempt.
    sendAttempt: (url, body, headers) =>
      webhookClient.post(url, body, headers, {
        allowLocal: config.webhookAllowLocalDestinations,
        resolve: (hostname) => deps.resolveHost(hostname),
      }),
    resolveHost: resolveHostname,
    mailer: createMailer(config),
    metrics,
    observer: options.observer ?? { attemptRecorded: (attempt) => recordDeliveryAttempt(metrics, attempt) },
  };
  return deps;
}

/** Closes the producer, Redis connections and the database pool. */
export async function closeWorkerDeps(deps: WorkerDeps): Promise<void> {
  await whenSettled(deps.producerRedis);
  await deps.producer.close();
  deps.webhookClient.close();
  await Promise.all([closeRedis(deps.producerRedis), closeRedis(deps.redis)]);
  await deps.db.$disconnect();
  deps.mailer.close();
}
