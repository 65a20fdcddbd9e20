/**
 * Removes every Redis key of a test file's BullMQ prefix (BullMQ `tests/utils/cleanup-queue.ts`, by prefix).
 */
import { Redis } from "ioredis";

/** Deletes all keys under `prefix:`. */
export async function deleteQueueKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}
