/**
 * Worker process entry point. SIGTERM/SIGINT let running jobs finish, then close connections. A stray rejection is
 * logged, not fatal; an uncaught exception is logged and ends the process (see `handleStrayErrors`).
 */
import { loadConfigOrExit } from "@lm/config";
import { handleStrayErrors } from "@lm/logging";
import { closeWorkerDeps, createWorkerDeps } from "./deps";
import { startWorkers } from "./workers";

const SHUTDOWN_TIMEOUT_MS = 25_000;

async function main(): Promise<void> {
  const config = loadConfigOrExit(process.env);
  const deps = createWorkerDeps(config);
  const running = await startWorkers(deps);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.logger.info("worker stopping", { signal });
    setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS).unref();
    await running.close();
    await closeWorkerDeps(deps);
    deps.logger.info("worker stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  handleStrayErrors(deps.logger, "worker");
}

main().catch((err: unknown) => {
  process.stderr.write(`worker failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
