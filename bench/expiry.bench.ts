/**
 * `npm run bench:expiry`: how fast the worker's `charge-expiry` sweep clears a backlog of overdue charges (DESIGN §5),
 * for instance after the workers were stopped for a while. Writes `BENCH_CHARGES` (default 3,000) pending test charges
 * of one store, each with a `postback_url`, past their `expires_at`, with two account endpoints on the store, then runs
 * `expireDueTransactions` (the sweep's use case) in this process until nothing is due. Beside them wait
 * `BENCH_NOT_DUE` (default 30,000) pending due-date charges payable for another 40 days (DESIGN §13), which the sweep
 * must not read: run it with `BENCH_NOT_DUE=0` to compare. Prints one JSON object: `{expired, not_due, ms,
 * charges_per_s, cpu_ms_per_charge, deliveries_written}` (CPU of this process: the worker's share; PostgreSQL's is not
 * counted). Not a timed test.
 */
import { createPixApiClient } from "@lm/pix-api";
import { createDb, createRepositories } from "@lm/db";
import { expireDueTransactions } from "@lm/domain";
import { createLogger } from "@lm/logging";
import { createMailer } from "@lm/mail";
import { closeRedis, createProducer, createRedis } from "@lm/queue";
import {
  createEndpointRow,
  createStoreRow,
  createTestDatabase,
  deleteQueueKeys,
  ensureTemplateDatabase,
  testConfig,
} from "@lm/testing";
import { pendingCharges } from "./support/charges";
import { round } from "./support/children";

const CHARGES = Number(process.env.BENCH_CHARGES ?? 3_000);
const NOT_DUE = Number(process.env.BENCH_NOT_DUE ?? 30_000);
const DAY_MS = 86_400_000;

async function main(): Promise<void> {
  await ensureTemplateDatabase();
  const database = await createTestDatabase();
  const config = testConfig(database.url);
  const db = createDb(config.databaseUrl);
  const redis = createRedis(config.redisUrl, "producer");
  const producer = createProducer(redis, config, () => undefined);
  try {
    const { store } = await createStoreRow(db, config.encryptionKey);
    for (const path of ["/a", "/b"]) {
      await createEndpointRow(db, config.encryptionKey, { storeId: store.id, url: `http://127.0.0.1:9${path}` });
    }
    const lastPayable = new Date(Date.now() + 40 * DAY_MS);
    await pendingCharges(db, store.id, NOT_DUE, {
      expiresAt: () => lastPayable,
      dueTerms: {
        date: new Date(Date.now() + 10 * DAY_MS).toISOString().slice(0, 10),
        days_after_due: 30,
        last_payable_date: lastPayable.toISOString().slice(0, 10),
      },
    });
    const overdueSince = Date.now() - 60_000;
    await pendingCharges(db, store.id, CHARGES, {
      expiresIn: 60,
      expiresAt: (n) => new Date(overdueSince + n),
      postbackUrl: "http://127.0.0.1:9/postback",
    });

    const deps = {
      config,
      repos: createRepositories(db),
      connectBank: createPixApiClient,
      producer,
      logger: createLogger({ level: "error", service: "bench", silent: true }),
      mailer: createMailer(config),
      now: () => new Date(),
    };
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    let expired = 0;
    for (;;) {
      const swept = await expireDueTransactions(deps);
      if (swept === 0) break;
      expired += swept;
    }
    const ms = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    process.stdout.write(
      `${JSON.stringify({
        expired,
        not_due: NOT_DUE,
        ms: Math.round(ms),
        charges_per_s: Math.round((expired / ms) * 1000),
        cpu_ms_per_charge: round((cpu.user + cpu.system) / 1000 / expired, 2),
        deliveries_written: await db.webhookDelivery.count(),
      })}\n`,
    );
  } finally {
    await db.$disconnect();
    await producer.close();
    await closeRedis(redis);
    await deleteQueueKeys(config.redisUrl, config.queuePrefix);
    await database.drop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
