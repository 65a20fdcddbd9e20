/**
 * Operators' command line: `npm run ops -- <command> [options] [--json]`.
 */
import { loadConfigOrExit } from "@lm/config";
import { createDb } from "@lm/db";
import type { UseCaseDeps } from "@lm/domain";
import { createLogger } from "@lm/logging";
import { createMailer } from "@lm/mail";
import { closeRedis, createProducer, createRedis, type Producer, type RedisClient } from "@lm/queue";
import { runOps } from "./run";

async function main(): Promise<number> {
  const config = loadConfigOrExit(process.env);
  const db = createDb(config.databaseUrl, { maxConnections: 2 });
  // Redis only for the commands that enqueue work (acquirer:reconcile), connected on their first need.
  let queue: { redis: RedisClient; producer: Producer } | undefined;
  const logger = createLogger({ level: config.logLevel, service: "ops" });
  const useCaseDeps = (): UseCaseDeps => {
    if (queue === undefined) {
      const redis = createRedis(config.redisClusterNodes ?? config.redisUrl, "producer");
      queue = {
        redis,
        producer: createProducer(redis, config.queuePrefix, (err) => logger.warn("queue error", { err })),
      };
    }
    return { config, db, producer: queue.producer, logger, mailer: createMailer(config), now: () => new Date() };
  };
  try {
    const outcome = await runOps(process.argv.slice(2), { config, db, now: () => new Date(), useCaseDeps });
    process.stdout.write(outcome.stdout);
    process.stderr.write(outcome.stderr);
    return outcome.exitCode;
  } finally {
    await db.$disconnect();
    if (queue !== undefined) {
      await queue.producer.close();
      await closeRedis(queue.redis);
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
