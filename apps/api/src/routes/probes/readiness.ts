/**
 * Readiness checks of the dependencies, each bounded by a timeout so that a hung dependency cannot hang the probe.
 *
 * PostgreSQL and Redis are needed by every request: either failing makes the process unready (503 `degraded`). The
 * API key change feed (DESIGN §10 "PostgreSQL through a pooler") is not: while it is offline the process serves all
 * the same, reading every key from the database, so `/ready` stays 200 and says `degraded`, naming `change_feed`.
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

/** The checks without which no request can be served: one failing makes `/ready` 503. */
const REQUIRED_CHECKS = ["database", "redis"] as const;

/**
 * Checks PostgreSQL (`SELECT 1`), Redis (`PING`) and the API key change feed (online: it hears its own probes) in
 * parallel; `status` is `ok` when every check is.
 */
export async function checkReadiness(deps: Pick<AppDeps, "db" | "redis" | "apiKeyChanges">): Promise<Readiness> {
  const [database, redis, changeFeed] = await Promise.all([
    runCheck(() => pingDatabase(deps.db)),
    runCheck(() => pingRedis(deps.redis)),
    runCheck(() => deps.apiKeyChanges.check()),
  ]);
  const checks = { database, redis, change_feed: changeFeed };
  return { status: Object.values(checks).every((check) => check === "ok") ? "ok" : "degraded", checks };
}

/**
 * The HTTP status of `readiness` (SPEC "Probe results"): 503 when a check every request needs (PostgreSQL, Redis)
 * failed, else 200, `degraded` or not.
 */
export function readinessHttpStatus(readiness: Readiness): 200 | 503 {
  return REQUIRED_CHECKS.every((name) => readiness.checks[name] === "ok") ? 200 : 503;
}
