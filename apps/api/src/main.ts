/**
 * API process entry point: config → dependencies → metrics listener (`METRICS_PORT`, when set) → app → listen.
 * SIGTERM/SIGINT stop accepting connections, let in-flight requests finish, then close queues, Redis and the database
 * pool. A stray rejection is logged, not fatal; an uncaught exception is logged and ends the process (see
 * `handleStrayErrors`).
 */
import { loadConfigOrExit } from "@lm/config";
import { handleStrayErrors } from "@lm/logging";
import { serveMetrics } from "@lm/metrics";
import type { AddressInfo } from "node:net";
import { createApp } from "./app";
import { closeAppDeps, createAppDeps } from "./deps";
import { answerClientError } from "./http/client-error";

/** Longest a graceful shutdown may take before the process exits anyway, ms. */
const SHUTDOWN_TIMEOUT_MS = 25_000;

async function main(): Promise<void> {
  const config = loadConfigOrExit(process.env);
  const deps = createAppDeps(config);
  const metricsServer =
    config.metricsPort === undefined
      ? undefined
      : await serveMetrics(deps.metrics.registry, config.metricsPort, (err) =>
          deps.logger.error("metrics failed", { err }),
        );
  const server = createApp(deps).listen(config.port, () => {
    deps.logger.info("api listening", {
      port: (server.address() as AddressInfo).port,
      metrics_port: metricsServer?.port,
    });
  });
  server.on("clientError", answerClientError);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.logger.info("api stopping", { signal });
    setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS).unref();
    server.close(async () => {
      await metricsServer?.close();
      await closeAppDeps(deps);
      deps.logger.info("api stopped");
      process.exit(0);
    });
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  handleStrayErrors(deps.logger, "api");
}

main().catch((err: unknown) => {
  process.stderr.write(`api failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
