/**
 * What the API's handlers need, created once per process by `main.ts` (or per test file by the harness) and passed
 * to `createApp`. Nothing here is global, so tests run many apps side by side.
 */
import type { Config } from "@lm/config";
import { createDb, createRepositories, listenForChanges, type ChangeFeed, type Db, type Repositories } from "@lm/db";
import { API_KEY_CHANGES_CHANNEL, ApiKeyCache } from "@lm/domain";
import { createLogger, type Logger } from "@lm/logging";
import { createMailer, type Mailer } from "@lm/mail";
import { createPixApiClient } from "@lm/pix-api";
import { createApiMetrics, type ApiMetrics } from "@lm/metrics";
import { closeRedis, createProducer, createRedis, whenSettled, type Producer, type RedisClient } from "@lm/queue";

/** Dependencies of the HTTP application. */
export interface AppDeps {
  config: Config;
  /** The database client, for probes and shutdown; use cases go through {@link AppDeps.repos}. */
  db: Db;
  /** Every repository, bound once, and the unit of work: what use cases use (`UseCaseDeps.repos`). */
  repos: Repositories;
  /** Opens a bank's API Pix client (`UseCaseDeps.connectBank`). */
  connectBank: typeof createPixApiClient;
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
  /** The API keys this process has authenticated, kept while {@link AppDeps.apiKeyChanges} is online. */
  apiKeyCache: ApiKeyCache;
  /**
   * The feed of committed key changes that empties {@link AppDeps.apiKeyCache}: it listens on `DATABASE_DIRECT_URL`
   * and proves it hears (DESIGN §10 "PostgreSQL through a pooler"); `/ready` reports it as `change_feed`.
   */
  apiKeyChanges: ChangeFeed;
}

/** Opens the connections of an API process. Close them with {@link closeAppDeps}. */
export function createAppDeps(config: Config, options: { logger?: Logger } = {}): AppDeps {
  const redis = createRedis(config.redisClusterNodes ?? config.redisUrl, "producer");
  const logger = options.logger ?? createLogger({ level: config.logLevel, service: "api" });
  // Connection errors surface through /ready and failed requests; logged here once per event, never thrown.
  redis.on("error", (err) => logger.warn("redis connection error", { err: err.message }));
  const db = createDb(config.databaseUrl, { pooling: config.databasePooling });
  const apiKeyCache = new ApiKeyCache();
  const apiKeyChanges = listenForChanges(
    { listenUrl: config.databaseDirectUrl, channel: API_KEY_CHANGES_CHANNEL, probeThrough: db.pool },
    {
      onChange: () => apiKeyCache.forgetAll(),
      onOnline: () => apiKeyCache.setOnline(true),
      onOffline: (reason) => {
        apiKeyCache.setOnline(false);
        logger.warn("api key change feed offline; every key is read from the database until it is back", {
          err: reason.message,
        });
      },
    },
  );
  return {
    config,
    db,
    repos: createRepositories(db),
    connectBank: createPixApiClient,
    redis,
    producer: createProducer(redis, config, (err) => logger.warn("queue error", { err: err.message })),
    logger,
    mailer: createMailer(config),
    now: () => new Date(),
    metrics: createApiMetrics(),
    apiKeyCache,
    apiKeyChanges,
  };
}

/** Closes the key change feed, queues, Redis and the database pool. */
export async function closeAppDeps(deps: AppDeps): Promise<void> {
  await deps.apiKeyChanges.close();
  await whenSettled(deps.redis);
  await deps.producer.close();
  await closeRedis(deps.redis);
  await deps.db.$disconnect();
  deps.mailer.close();
}
