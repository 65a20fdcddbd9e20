/**
 * End-to-end harness for a test file: the integration harness (its own database and queue prefix, the real API) plus
 * the real BullMQ workers of apps/worker on the same database and prefix. The one place where api tests start the
 * worker in-process.
 */
import { createLogger } from "@lm/logging";
import { closeWorkerDeps, createWorkerDeps, type WorkerDeps } from "../../../../worker/src/deps";
import { startWorkers } from "../../../../worker/src/workers";
import { useApiTestContext, type ApiTestContext, type TestEnv } from "../../support/harness";

/** What an end-to-end file works with. */
export interface E2eTestContext extends ApiTestContext {
  /** The worker's dependencies (its own connections, the file's configuration). */
  worker: WorkerDeps;
}

/**
 * Registers `beforeAll`/`afterAll` that set up the API and the worker's consumers and schedules, and tear them down.
 * @param env - configuration overrides, for both the API and the worker
 */
export function useE2eTestContext(env: TestEnv = {}): E2eTestContext {
  const ctx = useApiTestContext(env, async (api) => {
    const worker = createWorkerDeps(api.config, {
      logger: createLogger({ level: "error", service: "worker", silent: true }),
    });
    (api as E2eTestContext).worker = worker;
    const running = await startWorkers(worker).catch(async (err: unknown) => {
      await closeWorkerDeps(worker);
      throw err;
    });
    return async () => {
      await running.close();
      await closeWorkerDeps(worker);
    };
  });
  return ctx as E2eTestContext;
}
