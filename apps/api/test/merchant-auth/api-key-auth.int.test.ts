import request from "supertest";
import { Client } from "pg";
import { feedName } from "@lm/db";
import { API_KEY_CHANGES_CHANNEL, createApiKey, hashApiKey } from "@lm/domain";
import { waitUntil } from "@lm/testing";
import { chargeBody, merchantClient, useTestMerchant } from "../support/merchant-client";
import { useApiTestContext } from "../support/harness";
import { createRateLimiter } from "../../src/http/rate-limit";

const unauthenticated = {
  error: expect.objectContaining({ type: "authentication_error", code: "authentication_required" }),
};

describe("merchant API authentication", () => {
  const ctx = useApiTestContext();
  const merchant = useTestMerchant(ctx);

  test("when no Authorization header is sent, then 401 authentication_required", async () => {
    const res = await request(ctx.app).get("/v1/transactions");

    expect(res.status).toBe(401);
    expect(res.body).toEqual(unauthenticated);
  });

  test.each([
    ["a Basic scheme", `Basic ${Buffer.from("sk_test_x:").toString("base64")}`],
    ["a bearer token that is not a key", "Bearer not-a-key"],
    ["a key with a wrong mode word", "Bearer sk_prod_0123456789abcdefghijABCDEFGHIJ01"],
    ["an empty bearer", "Bearer "],
  ])("when the header has %s, then 401", async (_situation, header) => {
    const res = await request(ctx.app).get("/v1/transactions").set("Authorization", header);

    expect(res.status).toBe(401);
    expect(res.body).toEqual(unauthenticated);
  });

  test("when a well-formed key is unknown, then 401", async () => {
    const res = await merchantClient(ctx.app, "sk_test_0123456789abcdefghijABCDEFGHIJ01").get("/v1/transactions");

    expect(res.status).toBe(401);
  });

  test("when the key is revoked, then 401", async () => {
    const { apiKey, key } = await createApiKey(ctx.deps.repos, {
      storeId: merchant.storeId,
      name: "old",
      mode: "test",
      now: new Date(),
    });
    await ctx.db.apiKey.update({ where: { id: apiKey.id }, data: { revoked_at: new Date() } });

    const res = await merchantClient(ctx.app, key).get("/v1/transactions");

    expect(res.status).toBe(401);
  });

  test("when the key's revoke_at has passed, then 401; while it is ahead, the key works", async () => {
    const rotating = await createApiKey(ctx.deps.repos, {
      storeId: merchant.storeId,
      name: "rot",
      mode: "test",
      now: new Date(),
    });
    const expired = await createApiKey(ctx.deps.repos, {
      storeId: merchant.storeId,
      name: "exp",
      mode: "test",
      now: new Date(),
    });
    await ctx.db.apiKey.update({
      where: { id: rotating.apiKey.id },
      data: { revoke_at: new Date(Date.now() + 60_000) },
    });
    await ctx.db.apiKey.update({ where: { id: expired.apiKey.id }, data: { revoke_at: new Date(Date.now() - 1_000) } });

    expect((await merchantClient(ctx.app, rotating.key).get("/v1/transactions")).status).toBe(200);
    expect((await merchantClient(ctx.app, expired.key).get("/v1/transactions")).status).toBe(401);
  });

  test("when a live key and a test key of one store list transactions, then each sees only its own mode", async () => {
    const test = await merchantClient(ctx.app, merchant.testKey).post("/v1/transactions", chargeBody());
    const live = await merchantClient(ctx.app, merchant.liveKey).post("/v1/transactions", chargeBody());

    const testList = await merchantClient(ctx.app, merchant.testKey).get("/v1/transactions");
    const liveList = await merchantClient(ctx.app, merchant.liveKey).get("/v1/transactions");

    expect(testList.body.data.map((t: { id: string }) => t.id)).toContain(test.body.id);
    expect(testList.body.data.map((t: { id: string }) => t.id)).not.toContain(live.body.id);
    expect(liveList.body.data.map((t: { id: string }) => t.id)).toEqual([live.body.id]);
    expect((await merchantClient(ctx.app, merchant.liveKey).get(`/v1/transactions/${test.body.id}`)).status).toBe(404);
  });

  test("when a key is used, then last_used_at is set, and not rewritten by another use within a minute", async () => {
    const { apiKey, key } = await createApiKey(ctx.deps.repos, {
      storeId: merchant.storeId,
      name: "use",
      mode: "test",
      now: new Date(),
    });

    await merchantClient(ctx.app, key).get("/v1/transactions");
    const first = (await ctx.db.apiKey.findUniqueOrThrow({ where: { id: apiKey.id } })).last_used_at;
    await merchantClient(ctx.app, key).get("/v1/transactions");
    const second = (await ctx.db.apiKey.findUniqueOrThrow({ where: { id: apiKey.id } })).last_used_at;

    expect(first).toBeInstanceOf(Date);
    expect(second).toEqual(first);
  });

  test("when last_used_at is over a minute old, then a use refreshes it", async () => {
    const { apiKey, key } = await createApiKey(ctx.deps.repos, {
      storeId: merchant.storeId,
      name: "stale",
      mode: "test",
      now: new Date(),
    });
    const stale = new Date(Date.now() - 61_000);
    await ctx.db.apiKey.update({ where: { id: apiKey.id }, data: { last_used_at: stale } });

    await merchantClient(ctx.app, key).get("/v1/transactions");

    const stored = await ctx.db.apiKey.findUniqueOrThrow({ where: { id: apiKey.id } });
    expect(stored.last_used_at!.getTime()).toBeGreaterThan(stale.getTime() + 60_000);
    expect(stored.key_hash).toBe(hashApiKey(key));
  });

  test("when a key has used its 100 requests of the current second, then 429 rate_limited with Retry-After", async () => {
    const { apiKey, key } = await createApiKey(ctx.deps.repos, {
      storeId: merchant.storeId,
      name: "busy",
      mode: "test",
      now: new Date(),
    });
    const counter = createRateLimiter(ctx.deps.redis, ctx.config.queuePrefix, "api-key", 100, 1);
    await counter.consume(apiKey.id, 100);

    const res = await merchantClient(ctx.app, key).get("/v1/transactions");

    expect(res.status).toBe(429);
    expect(res.body.error).toMatchObject({ type: "rate_limit_error", code: "rate_limited" });
    expect(Number(res.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect((await merchantClient(ctx.app, merchant.testKey).get("/v1/transactions")).status).toBe(200);
  });

  describe("the process's key cache", () => {
    /** A key of the test merchant's store, used once so that the API has it cached. */
    async function cachedKey() {
      const created = await createApiKey(ctx.deps.repos, {
        storeId: merchant.storeId,
        name: "cached",
        mode: "test",
        now: new Date(),
      });
      expect((await merchantClient(ctx.app, created.key).get("/v1/transactions")).status).toBe(200);
      return created;
    }

    /** The status of `key`'s request once it is 401, polled for at most 5 s (throws after). */
    const refusedWithin = (key: string): Promise<number> =>
      waitUntil(
        "the key refused",
        async () => {
          const { status } = await merchantClient(ctx.app, key).get("/v1/transactions");
          return status === 401 ? status : undefined;
        },
        { timeoutMs: 5_000, intervalMs: 20 },
      );

    test("when a cached key is revoked by another connection, then it is refused once the change is heard", async () => {
      const { apiKey, key } = await cachedKey();
      const other = new Client({ connectionString: ctx.config.databaseUrl });
      await other.connect();
      try {
        await other.query("UPDATE api_keys SET revoked_at = now() WHERE id = $1", [apiKey.id]);
      } finally {
        await other.end();
      }

      // As another API process would: no barrier, only the notification.
      expect(await refusedWithin(key)).toBe(401);
    });

    test("when a cached key's revoke_at is set and passes, then it is refused without waiting for its sweep", async () => {
      const { apiKey, key } = await cachedKey();
      await ctx.db.apiKey.update({ where: { id: apiKey.id }, data: { revoke_at: new Date(Date.now() - 1) } });
      await ctx.deps.apiKeyChanges.catchUp();

      expect((await merchantClient(ctx.app, key).get("/v1/transactions")).status).toBe(401);
    });

    test("when the store is renamed, then the next charge's BR Code carries the new name", async () => {
      const { key } = await cachedKey();
      await ctx.db.store.update({ where: { id: merchant.storeId }, data: { name: "Padaria Renomeada" } });
      await ctx.deps.apiKeyChanges.catchUp();

      const res = await merchantClient(ctx.app, key).post("/v1/transactions", chargeBody());

      expect(res.status).toBe(201);
      expect(res.body.pix.copy_paste).toContain("Padaria Renomeada");
    });

    test("when the feed's connection is cut, then it reconnects, and a revocation made meanwhile is heard", async () => {
      const { apiKey, key } = await cachedKey();
      const admin = new Client({ connectionString: ctx.config.databaseUrl });
      await admin.connect();
      try {
        const cut = await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
           WHERE datname = current_database() AND application_name = $1`,
          [feedName(API_KEY_CHANGES_CHANNEL)],
        );
        expect(cut.rowCount).toBe(1);
        await admin.query("UPDATE api_keys SET revoked_at = now() WHERE id = $1", [apiKey.id]);
      } finally {
        await admin.end();
      }

      expect(await refusedWithin(key)).toBe(401);
      // Back online: a key is cached again, and a later revocation is heard as well.
      const { apiKey: later, key: laterKey } = await cachedKey();
      const cached = await waitUntil(
        "the key cached again",
        async () => {
          await merchantClient(ctx.app, laterKey).get("/v1/transactions");
          return ctx.deps.apiKeyCache.get(hashApiKey(laterKey));
        },
        { timeoutMs: 5_000, intervalMs: 20 },
      );
      expect(cached.id).toBe(later.id);
      await ctx.db.apiKey.update({ where: { id: later.id }, data: { revoked_at: new Date() } });
      expect(await refusedWithin(laterKey)).toBe(401);
    });
  });
});
