/**
 * Integration and end-to-end harness for a test file: its own database (cloned from the template), its own queue
 * prefix, the real API over real PostgreSQL and Redis and, for end-to-end files, the real BullMQ workers of
 * apps/worker on the same database and prefix. Call once at the top of a file; the returned context is filled in
 * `beforeAll` and everything is closed and dropped in `afterAll`.
 */
import type { Config } from "@lm/config";
import type { Db } from "@lm/db";
import { createLogger } from "@lm/logging";
import { createTestDatabase, deleteQueueKeys, testConfig, type TestDatabase } from "@lm/testing";
import type { Express } from "express";
import { rm } from "node:fs/promises";
import { createApp } from "../../src/app";
import { closeAppDeps, createAppDeps, type AppDeps } from "../../src/deps";
import { closeWorkerDeps, createWorkerDeps, type WorkerDeps } from "../../../worker/src/deps";
import { startWorkers, type RunningWorkers } from "../../../worker/src/workers";

/** What a test file works with. */
export interface ApiTestContext {
  config: Config;
  deps: AppDeps;
  db: Db;
  app: Express;
  /** The worker's dependencies, when started with `{worker: true}`. */
  worker: WorkerDeps;
}

/**
 * Registers `beforeAll`/`afterAll` that set up and tear down the file's infrastructure.
 * @param env - configuration overrides in environment form
 * @param options.worker - also run the worker's BullMQ consumers (end-to-end files)
 */
export function useApiTestContext(env: Record<string, string> = {}, options: { worker?: boolean } = {}): ApiTestContext {
  const ctx = {} as ApiTestContext;
  let database: TestDatabase;
  let running: RunningWorkers | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    ctx.config = testConfig(database.url, env);
    ctx.deps = createAppDeps(ctx.config, { logger: createLogger({ level: "error", service: "api", silent: true }) });
    ctx.db = ctx.deps.db;
    ctx.app = createApp(ctx.deps);
    if (options.worker) {
      ctx.worker = createWorkerDeps(ctx.config, { logger: createLogger({ level: "error", service: "worker", silent: true }) });
      running = await startWorkers(ctx.worker);
    }
  });
  afterAll(async () => {
    await running?.close();
    if (ctx.worker) await closeWorkerDeps(ctx.worker);
    if (ctx.deps) await closeAppDeps(ctx.deps);
    if (ctx.config) await deleteQueueKeys(ctx.config.redisUrl, ctx.config.queuePrefix);
    await database?.drop();
    if (ctx.config) await rm(ctx.config.mailOutboxDir, { recursive: true, force: true });
  });
  return ctx;
}
