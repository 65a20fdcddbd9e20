/**
 * Readiness checks of the dependencies, each bounded by a timeout so that a hung dependency cannot hang the probe.
 */
import { pingDatabase } from "@lm/db";
import type { AppDeps } from "../../deps";

/** Longest a single dependency check may take, ms: a probe answers within 2 s, never hangs. */
export const CHECK_TIMEOUT_MS = 2_000;

/** `ok`, `skipped`, or the reason it failed (SPEC "Probe results"). */
export type CheckResult = "ok" | "skipped" | { error: string };

/** Reply body of `/ready`. */
export interface Readiness {
  status: "ok" | "degraded";
  checks: Record<string, CheckResult>;
}

async function runCheck(check: () => Promise<unknown>): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return "ok";
  } catch (err) {
    // Only the driver's message: connection strings and credentials are not part of it.
    const message = (err as { message?: unknown } | null)?.message;
    return {
      error: typeof message === "string" && message !== "" ? (message.split("\n")[0] ?? message) : "unavailable",
    };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * PINGs Redis. The producer connection refuses commands while it is (re)connecting, so a connection still opening is
 * given until the check's timeout to become ready; a refused connection fails at once.
 */
async function pingRedis(redis: AppDeps["redis"]): Promise<void> {
  if (redis.status !== "ready") {
    await new Promise<void>((resolve, reject) => {
      const onReady = () => settle(resolve);
      const onError = (err: Error) => settle(() => reject(err));
      const settle = (fn: () => void) => {
        redis.off("ready", onReady).off("error", onError);
        fn();
      };
      redis.once("ready", onReady).once("error", onError);
    });
  }
  await redis.ping();
}

/** Checks PostgreSQL (`SELECT 1`) and Redis (`PING`) in parallel. */
export async function checkReadiness(deps: Pick<AppDeps, "db" | "redis">): Promise<Readiness> {
  const [database, redis] = await Promise.all([
    runCheck(() => pingDatabase(deps.db)),
    runCheck(() => pingRedis(deps.redis)),
  ]);
  const checks = { database, redis };
  return { status: database === "ok" && redis === "ok" ? "ok" : "degraded", checks };
}
