/**
 * Operators' command line: `npm run ops -- <command> [options] [--json]`.
 */
import { loadConfigOrExit } from "@lm/config";
import { createPixApiClient } from "@lm/pix-api";
import { createDb, createRepositories } from "@lm/db";
import type { UseCaseDeps } from "@lm/domain";
import { createLogger } from "@lm/logging";
import { createMailer } from "@lm/mail";
import { closeRedis, createProducer, createRedis, type Producer, type RedisClient } from "@lm/queue";
import { runOps } from "./run";

async function main(): Promise<number> {
  const config = loadConfigOrExit(process.env);
  const db = createDb(config.databaseUrl, { maxConnections: 2, pooling: config.databasePooling });
  const repos = createRepositories(db);
  // Redis and the mailer only for the commands that run use cases (acquirer:reconcile), made on their first need.
  let made: { redis: RedisClient; producer: Producer; deps: UseCaseDeps } | undefined;
  const logger = createLogger({ level: config.logLevel, service: "ops" });
  const useCaseDeps = (): UseCaseDeps => {
    if (made === undefined) {
      const redis = createRedis(config.redisClusterNodes ?? config.redisUrl, "producer");
      const producer = createProducer(redis, config, (err) => logger.warn("queue error", { err }));
      const deps = {
        config,
        repos,
        producer,
        logger,
        mailer: createMailer(config),
        now: () => new Date(),
        connectBank: createPixApiClient,
      };
      made = { redis, producer, deps };
    }
    return made.deps;
  };
  try {
    const outcome = await runOps(process.argv.slice(2), { config, repos, now: () => new Date(), useCaseDeps });
    process.stdout.write(outcome.stdout);
    process.stderr.write(outcome.stderr);
    return outcome.exitCode;
  } finally {
    await db.$disconnect();
    if (made !== undefined) {
      await made.producer.close();
      await closeRedis(made.redis);
      made.deps.mailer.close();
    }
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`ops failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
