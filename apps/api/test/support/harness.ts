/**
 * Integration harness for a test file: its own database (cloned from the template), its own queue prefix and the real
 * API over real PostgreSQL and Redis. End-to-end files add the worker beside it (test/e2e/support/e2e-harness.ts).
 * Call once at the top of a file; the returned context is filled in `beforeAll` and everything is closed and dropped
 * in `afterAll`.
 */
import type { Config } from "@lm/config";
import type { Db } from "@lm/db";
import { createLogger } from "@lm/logging";
import { createTestDatabase, deleteQueueKeys, testConfig, type TestDatabase } from "@lm/testing";
import type { Express } from "express";
import { rm } from "node:fs/promises";
import { createApp } from "../../src/app";
import { closeAppDeps, createAppDeps, type AppDeps } from "../../src/deps";

/** What a test file works with. */
export interface ApiTestContext {
  config: Config;
  deps: AppDeps;
  db: Db;
  app: Express;
}

/**
 * Something started after the API on the file's database and queue prefix (the worker, for end-to-end files); the
 * function it returns stops it, before the API is closed and the database dropped.
 */
export type Companion = (ctx: ApiTestContext) => Promise<() => Promise<void>>;

/**
 * Configuration overrides in environment form, or a function that makes them from the file's database once it exists
 * (to name it through a pooler, say).
 */
export type TestEnv = Record<string, string> | ((database: TestDatabase) => Record<string, string>);

/**
 * Registers `beforeAll`/`afterAll` that set up and tear down the file's infrastructure.
 * @param env - configuration overrides
 * @param companion - started after the API, stopped before it
 */
export function useApiTestContext(env: TestEnv = {}, companion?: Companion): ApiTestContext {
  const ctx = {} as ApiTestContext;
  let database: TestDatabase;
  let stopCompanion: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    ctx.config = testConfig(database.url, typeof env === "function" ? env(database) : env);
    ctx.deps = createAppDeps(ctx.config, { logger: createLogger({ level: "error", service: "api", silent: true }) });
    ctx.db = ctx.deps.db;
    ctx.app = createApp(ctx.deps);
    if (companion) stopCompanion = await companion(ctx);
  });
  afterAll(async () => {
    await stopCompanion?.();
    if (ctx.deps) await closeAppDeps(ctx.deps);
    if (ctx.config) await deleteQueueKeys(ctx.config.redisUrl, ctx.config.queuePrefix);
    await database?.drop();
    if (ctx.config) await rm(ctx.config.mailOutboxDir, { recursive: true, force: true });
  });
  return ctx;
}
