/**
 * Configuration for a test file: its own database, queue prefix and mail outbox directory, local webhook
 * destinations allowed, a shortened retry schedule (through configuration, never by faking the code path), a low
 * bcrypt cost, quiet logs.
 */
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig, type Config } from "@lm/config";

/** The `ENCRYPTION_KEY` of {@link testConfig} (the development key: tests never set their own unless they say so). */
export const TEST_ENCRYPTION_KEY: Buffer = loadConfig({ NODE_ENV: "test" }).encryptionKey;

/** A unique BullMQ key prefix for one test file. */
export function uniqueQueuePrefix(): string {
  return `t${randomBytes(5).toString("hex")}`;
}

/**
 * Builds a validated {@link Config} for tests.
 * @param env - variables that override the test defaults, in environment form (`{RETRY_SCHEDULE_SECONDS: "1,1,1,1,1"}`)
 */
export function testConfig(databaseUrl: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: "test",
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
    QUEUE_PREFIX: uniqueQueuePrefix(),
    LOG_LEVEL: "error",
    WEBHOOK_ALLOW_LOCAL_DESTINATIONS: "true",
    RETRY_SCHEDULE_SECONDS: "0.2,0.2,0.2,0.2,0.2",
    COOKIE_SECURE: "false",
    PANEL_ORIGINS: "http://panel.test",
    PUBLIC_BASE_URL: "http://api.test",
    // bcrypt cost 12 takes ~250 ms per hash on our 2 cores; the floor of 12 applies outside tests.
    BCRYPT_COST: "4",
    MAIL_OUTBOX_DIR: path.join(tmpdir(), `lm-mail-${randomBytes(5).toString("hex")}`),
    ...env,
  });
}
