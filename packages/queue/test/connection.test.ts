import { Cluster, Redis } from "ioredis";
import { createRedis } from "../src";

/** No Redis is needed: the clients are inspected and closed before they could connect anywhere (port 1 refuses). */
describe("createRedis", () => {
  test("when given seed node URLs, then it opens a Cluster over those nodes with the first URL's credentials and TLS", () => {
    const cluster = createRedis(["rediss://ops:p%40ss@127.0.0.1:1", "rediss://127.0.0.2"], "worker");
    cluster.on("error", () => undefined);
    try {
      expect(cluster).toBeInstanceOf(Cluster);
      const { options } = cluster as Cluster;
      expect((cluster as unknown as { startupNodes: unknown }).startupNodes).toEqual([
        { host: "127.0.0.1", port: 1 },
        { host: "127.0.0.2", port: 6379 },
      ]);
      expect(options.redisOptions).toMatchObject({
        username: "ops",
        password: "p@ss",
        tls: {},
        maxRetriesPerRequest: null,
      });
    } finally {
      cluster.disconnect();
    }
  });

  test("when given one URL, then it opens a single-node connection that fails fast as a producer", () => {
    const redis = createRedis("redis://127.0.0.1:1", "producer");
    redis.on("error", () => undefined);
    try {
      expect(redis).toBeInstanceOf(Redis);
      expect((redis as Redis).options).toMatchObject({ maxRetriesPerRequest: 1, enableOfflineQueue: false });
    } finally {
      redis.disconnect();
    }
  });
});
