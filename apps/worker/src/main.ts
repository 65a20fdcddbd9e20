/**
 * Worker process entry point: config → dependencies → metrics listener (`METRICS_PORT`, when set) → consumers.
 * SIGTERM/SIGINT let running jobs finish, then close connections. A stray rejection is logged, not fatal; an uncaught
 * exception is logged and ends the process (see `handleStrayErrors`).
 */
import { loadConfigOrExit } from "@lm/config";
import { handleStrayErrors } from "@lm/logging";
import { serveMetrics } from "@lm/metrics";
import { closeWorkerDeps, createWorkerDeps } from "./deps";
import { startWorkers } from "./workers";

const SHUTDOWN_TIMEOUT_MS = 25_000;

async function main(): Promise<void> {
  const config = loadConfigOrExit(process.env);
  const deps = createWorkerDeps(config);
  handleStrayErrors(deps.logger, "worker");
  let metricsServer: Awaited<ReturnType<typeof serveMetrics>> | undefined;
  let running: Awaited<ReturnType<typeof startWorkers>> | undefined;
  const startup = (async () => {
    if (config.metricsPort !== undefined) {
      metricsServer = await serveMetrics(deps.metrics.registry, config.metricsPort, (err) =>
        deps.logger.error("metrics failed", { err }),
      );
      deps.logger.info("worker metrics listening", { metrics_port: metricsServer.port });
    }
    running = await startWorkers(deps);
  })();

  // Installed before start-up finishes, so a signal that arrives meanwhile still shuts down cleanly.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.logger.info("worker stopping", { signal });
    setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS).unref();
    await startup.catch(() => undefined);
    await running?.close();
    await metricsServer?.close();
    await closeWorkerDeps(deps);
    deps.logger.info("worker stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  await startup;
}

main().catch((err: unknown) => {
  process.stderr.write(`worker failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
