/**
 * The worker's dependencies for a test file that runs the worker's code (its processors, sweeps and give-ups) without
 * its consumers.
 */
import { createLogger } from "@lm/logging";
import { closeWorkerDeps, createWorkerDeps, type WorkerDeps } from "../../../worker/src/deps";
import type { ApiTestContext } from "./harness";

/**
 * Registers `beforeAll`/`afterAll` that create the worker's dependencies over `ctx`'s configuration, with a silent
 * logger (call after the harness, whose `beforeAll` must run first), and close them.
 * @returns a holder of the dependencies
 */
export function useWorkerDeps(ctx: ApiTestContext): { current: WorkerDeps } {
  const holder = {} as { current: WorkerDeps };
  beforeAll(() => {
    holder.current = createWorkerDeps(ctx.config, {
      logger: createLogger({ level: "error", service: "worker", silent: true }),
    });
  });
  afterAll(async () => {
    if (holder.current !== undefined) await closeWorkerDeps(holder.current);
  });
  return holder;
}
