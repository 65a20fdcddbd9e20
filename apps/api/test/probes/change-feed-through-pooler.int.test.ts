/**
 * DESIGN §10 "PostgreSQL through a pooler": a change feed whose `LISTEN` goes through PgBouncer in transaction mode
 * (`DATABASE_DIRECT_URL` pointing at the pooler, by mistake) hears nothing, without any error. It finds out by its
 * probe, says so once in the log and in `/ready`, and the API key cache keeps nothing meanwhile, so a key revoked
 * elsewhere is refused at the next request.
 */
import { Client } from "pg";
import request from "supertest";
import { hashApiKey } from "@lm/domain";
import { adminDatabaseUrl, createTestMerchant, startPgBouncer, waitUntil, type OwnPgBouncer } from "@lm/testing";
import { useApiTestContext } from "../support/harness";
import { captureLogs, type MemoryTransport } from "../support/log-capture";
import { merchantClient } from "../support/merchant-client";

const CANNOT_HEAR = /^the change feed cannot hear its own notifications .*: is DATABASE_DIRECT_URL a pooler\?$/;

describe("a change feed that listens through a transaction-mode pooler", () => {
  let bouncer: OwnPgBouncer;
  let directUrl: string;
  beforeAll(async () => {
    bouncer = await startPgBouncer({ serverUrl: adminDatabaseUrl() });
  });
  const ctx = useApiTestContext((database) => {
    directUrl = database.url;
    return {
      DATABASE_URL: bouncer.url(database.name),
      DATABASE_POOLING: "transaction",
      DATABASE_DIRECT_URL: bouncer.url(database.name),
    };
  });
  let logs: MemoryTransport;
  // Before the feed's first verdict, which comes no sooner than a probe's deadline.
  beforeAll(() => {
    logs = captureLogs(ctx.deps.logger);
  });
  afterAll(async () => {
    await bouncer?.stop();
  });

  const feedWarnings = () =>
    logs.lines.filter(
      (line) => line.message === "api key change feed offline; every key is read from the database until it is back",
    );

  test("when it cannot hear its own probe, then one warning names the cause and /ready is 200 degraded naming change_feed", async () => {
    await waitUntil("the feed's warning", () => feedWarnings().length > 0, { timeoutMs: 5_000 });
    // Long enough for several probes and reconnections, none of which logs again.
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    const ready = await request(ctx.app).get("/ready");

    expect(feedWarnings()).toEqual([
      expect.objectContaining({ level: "warn", err: expect.stringMatching(CANNOT_HEAR) }),
    ]);
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: "degraded",
      checks: { database: "ok", redis: "ok", change_feed: { error: expect.stringMatching(CANNOT_HEAR) } },
    });
  });

  test("when it cannot hear itself, then the key cache keeps nothing, and a key revoked elsewhere is refused at once", async () => {
    const merchant = await createTestMerchant(ctx.db);
    const client = merchantClient(ctx.app, merchant.testKey);
    expect((await client.get("/v1/transactions")).status).toBe(200);
    expect((await client.get("/v1/transactions")).status).toBe(200);
    expect(ctx.deps.apiKeyCache.get(hashApiKey(merchant.testKey))).toBeUndefined();

    const other = new Client({ connectionString: directUrl });
    await other.connect();
    try {
      await other.query("UPDATE api_keys SET revoked_at = now() WHERE key_hash = $1", [hashApiKey(merchant.testKey)]);
    } finally {
      await other.end();
    }

    expect((await client.get("/v1/transactions")).status).toBe(401);
  });
});
