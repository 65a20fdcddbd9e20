/**
 * What the API's handlers need, created once per process by `main.ts` (or per test file by the harness) and passed
 * to `createApp`. Nothing here is global, so tests run many apps side by side.
 */
import type { Config } from "@lm/config";
import { createDb, type Db } from "@lm/db";
import { createLogger, type Logger } from "@lm/logging";
import { createMailer, type Mailer } from "@lm/mail";
import { createApiMetrics, type ApiMetrics } from "@lm/metrics";
import { closeRedis, createProducer, createRedis, whenSettled, type Producer, type RedisClient } from "@lm/queue";

/** Dependencies of the HTTP application. */
export interface AppDeps {
  config: Config;
  db: Db;
  /** Producer-side Redis connection (fails fast while Redis is down). */
  redis: RedisClient;
  producer: Producer;
  logger: Logger;
  /** Sends the account mails (SMTP, or JSON files in `MAIL_OUTBOX_DIR`). */
  mailer: Mailer;
  /** Current time; injectable so tests can move it. */
  now: () => Date;
  /** This process's Prometheus registry and metrics. */
  metrics: ApiMetrics;
}

/** Opens the connections of an API process. Close them with {@link closeAppDeps}. */
export function createAppDeps(config: Config, options: { logger?: Logger } = {}): AppDeps {
  const redis = createRedis(config.redisClusterNodes ?? config.redisUrl, "producer");
  const logger = options.logger ?? createLogger({ level: config.logLevel, service: "api" });
  // Connection errors surface through /ready and failed requests; logged here once per event, never thrown.
  redis.on("error", (err) => logger.warn("redis connection error", { err: err.message }));
  return {
    config,
    db: createDb(config.databaseUrl),
    redis,
    producer: createProducer(redis, config.queuePrefix, (err) => logger.warn("queue error", { err: err.message })),
    logger,
    mailer: createMailer(config),
    now: () => new Date(),
    metrics: createApiMetrics(),
  };
}

/** Closes queues, Redis and the database pool. */
export async function closeAppDeps(deps: AppDeps): Promise<void> {
  await whenSettled(deps.redis);
  await deps.producer.close();
  await closeRedis(deps.redis);
  await deps.db.$disconnect();
  deps.mailer.close();
}
