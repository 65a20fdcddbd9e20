/**
 * Redis connections for BullMQ and rate limiting: one node, or a Redis Cluster through ioredis's `Cluster`.
 */
import { Cluster, Redis, type RedisOptions } from "ioredis";

/** A connection to one Redis node or to a Redis Cluster; BullMQ and the rate limiters take either. */
export type RedisClient = Redis | Cluster;

/**
 * Opens a Redis connection for BullMQ. `maxRetriesPerRequest: null` is what BullMQ workers require (blocking
 * commands must not fail after a few retries); `enableOfflineQueue: false` for producers makes a call fail at once
 * while Redis is down instead of hanging the HTTP request (BullMQ "going to production").
 *
 * Given several URLs (`REDIS_CLUSTER_NODES`), it opens a `Cluster` seeded with those nodes: the client discovers the
 * others and follows slot moves. User name, password and TLS (`rediss:`) are taken from the first URL and used for
 * every node. The keys of one command must then share a hash slot: each BullMQ queue's name is its own hash tag
 * (`bullQueueNames`), and a rate-limit command touches one key.
 * @param target - `REDIS_URL`, or the cluster's seed node URLs
 * @param role - `worker` (blocking consumers) or `producer` (API side: fail fast)
 */
export function createRedis(target: string | string[], role: "worker" | "producer"): RedisClient {
  const options: RedisOptions = {
    maxRetriesPerRequest: role === "worker" ? null : 1,
    enableOfflineQueue: role === "worker",
    connectTimeout: 2_000,
  };
  if (typeof target === "string") return new Redis(target, options);
  const seeds = target.map((node) => new URL(node));
  const first = seeds[0];
  if (first === undefined) throw new Error("a Redis Cluster needs at least one seed node");
  return new Cluster(
    seeds.map((url) => ({ host: url.hostname, port: Number(url.port || 6379) })),
    {
      enableOfflineQueue: options.enableOfflineQueue,
      redisOptions: {
        ...options,
        ...(first.username === "" ? {} : { username: decodeURIComponent(first.username) }),
        ...(first.password === "" ? {} : { password: decodeURIComponent(first.password) }),
        ...(first.protocol === "rediss:" ? { tls: {} } : {}),
      },
    },
  );
}

/**
 * Resolves once a connection that is still opening has opened, failed or ended (at most 2 s). Closing a connection
 * mid-opening would leave its socket (and BullMQ's start-up commands on it) behind.
 */
export async function whenSettled(redis: RedisClient): Promise<void> {
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
export async function closeRedis(redis: RedisClient): Promise<void> {
  if (redis.status === "end") return;
  await whenSettled(redis);
  try {
    await redis.quit();
  } catch {
    redis.disconnect();
  }
}
