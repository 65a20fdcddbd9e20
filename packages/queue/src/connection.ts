/**
 * Redis connections for BullMQ and rate limiting.
 */
import { Redis } from "ioredis";

/**
 * Opens a Redis connection for BullMQ. `maxRetriesPerRequest: null` is what BullMQ workers require (blocking
 * commands must not fail after a few retries); `enableOfflineQueue: false` for producers makes a call fail at once
 * while Redis is down instead of hanging the HTTP request (BullMQ "going to production").
 * @param url - `REDIS_URL`
 * @param role - `worker` (blocking consumers) or `producer` (API side: fail fast)
 */
export function createRedis(url: string, role: "worker" | "producer"): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: role === "worker" ? null : 1,
    enableOfflineQueue: role === "worker",
    connectTimeout: 2_000,
  });
}

/**
 * Resolves once a connection that is still opening has opened, failed or ended (at most 2 s). Closing a connection
 * mid-opening would leave its socket (and BullMQ's start-up commands on it) behind.
 */
export async function whenSettled(redis: Redis): Promise<void> {
  if (redis.status === "connecting" || redis.status === "connect" || redis.status === "wait") {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, 2_000);
      function done() {
        clearTimeout(timer);
        redis.off("ready", done).off("error", done).off("end", done);
        resolve();
      }
      redis.once("ready", done).once("error", done).once("end", done);
    });
  }
}

/** Closes a connection cleanly whatever its state: once settled, QUIT; one that cannot quit is disconnected. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === "end") return;
  await whenSettled(redis);
  try {
    await redis.quit();
  } catch {
    redis.disconnect();
  }
}
