/**
 * Worker processes for a test file, as `npm start` runs them (the bundle `npm run build` writes: the file builds it
 * first), on the file's database and queue prefix, with local webhook destinations allowed. Whatever is still running
 * when the file ends is killed.
 */
import type { ChildProcess } from "node:child_process";
import { REPO_ROOT, serviceCommand, startWatchedProcess, type WatchedProcess } from "@lm/testing";
import type { ApiTestContext } from "../../support/harness";

/**
 * Registers the `afterAll` that kills (SIGKILL) the worker processes `ctx`'s file started.
 * @returns `start()`, which starts one and resolves once it consumes
 */
export function useWorkerProcesses(ctx: ApiTestContext): { start(): Promise<WatchedProcess> } {
  const running = new Set<ChildProcess>();
  afterAll(() => {
    for (const child of running) child.kill("SIGKILL");
  });
  return {
    async start() {
      const { nodeArgs, bundle } = serviceCommand("worker");
      const proc = startWatchedProcess(process.execPath, [...nodeArgs, bundle], {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          DATABASE_URL: ctx.config.databaseUrl,
          QUEUE_PREFIX: ctx.config.queuePrefix,
          WEBHOOK_ALLOW_LOCAL_DESTINATIONS: "true",
          LOG_LEVEL: "info",
        },
      });
      running.add(proc.child);
      proc.child.on("exit", () => running.delete(proc.child));
      await proc.waitFor(/worker consuming/);
      return proc;
    },
  };
}
