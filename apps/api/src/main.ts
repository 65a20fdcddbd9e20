/**
 * API process entry point: config → dependencies → app → listen. SIGTERM/SIGINT stop accepting connections, let
 * in-flight requests finish, then close queues, Redis and the database pool. A stray rejection is logged, not fatal; an
 * uncaught exception is logged and ends the process (see `handleStrayErrors`).
 */
import { loadConfigOrExit } from "@lm/config";
import { handleStrayErrors } from "@lm/logging";
import type { AddressInfo } from "node:net";
import { createApp } from "./app";
import { closeAppDeps, createAppDeps } from "./deps";

/** Longest a graceful shutdown may take before the process exits anyway, ms. */
const SHUTDOWN_TIMEOUT_MS = 25_000;

function main(): void {
  const config = loadConfigOrExit(process.env);
  const deps = createAppDeps(config);
  const server = createApp(deps).listen(config.port, () => {
    deps.logger.info("api listening", { port: (server.address() as AddressInfo).port });
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.logger.info("api stopping", { signal });
    setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS).unref();
    server.close(async () => {
      await closeAppDeps(deps);
      deps.logger.info("api stopped");
      process.exit(0);
    });
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  handleStrayErrors(deps.logger, "api");
}

main();
