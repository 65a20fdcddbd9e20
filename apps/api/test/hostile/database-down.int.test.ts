/**
 * While PostgreSQL is down, requests that need it answer 503 `service_unavailable`
 * with `Retry-After` in the spec's envelope, not 500 `internal_error`. "Down" is a real PostgreSQL address where
 * nothing listens (a freed loopback port), so the shared server is never touched.
 */
import { createDb, createRepositories, type Db } from "@lm/db";
import { createServer } from "node:net";
import request from "supertest";
import { createApp } from "../../src/app";
import { useApiTestContext } from "../support/harness";
import { useTestMerchant } from "../support/merchant-client";
import { PANEL_ORIGIN } from "../support/panel";

/** A loopback port that was free a moment ago and has nothing listening now. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("when PostgreSQL is down", () => {
  const ctx = useApiTestContext();
  const merchant = useTestMerchant(ctx);
  let downDb: Db;
  let app: ReturnType<typeof createApp>;
  beforeAll(async () => {
    downDb = createDb(`postgresql://postgres@127.0.0.1:${await closedPort()}/lm_down`);
    app = createApp({ ...ctx.deps, db: downDb, repos: createRepositories(downDb) });
  });
  afterAll(async () => {
    await downDb.$disconnect();
  });

  const expectUnavailable = (res: request.Response) => {
    expect(res.status).toBe(503);
    expect(res.headers["retry-after"]).toMatch(/^[1-9]\d*$/);
    expect(res.body).toEqual({
      error: {
        type: "internal_error",
        code: "service_unavailable",
        message: expect.not.stringMatching(/postgres|prisma|127\.0\.0\.1/i),
        request_id: res.headers["x-request-id"],
      },
    });
  };

  test("when a merchant reads its charges, then 503 service_unavailable with Retry-After", async () => {
    expectUnavailable(await request(app).get("/v1/transactions").set("Authorization", `Bearer ${merchant.testKey}`));
  });

  test("when a seller signs in, then 503 service_unavailable with Retry-After", async () => {
    const res = await request(app)
      .post("/v1/me/auth/sign-in/email")
      .set("Origin", PANEL_ORIGIN)
      .send({ email: "someone@example.com", password: "a long enough password" });

    expectUnavailable(res);
  });

  test("when an acquirer posts a notification, then 503 so that it retries", async () => {
    expectUnavailable(
      await request(app).post("/v1/acquirers/sandbox/notifications").set("Content-Type", "application/json").send("{}"),
    );
  });

  test("when the probes are asked, then /health is 200 and /ready is 503 degraded naming the database", async () => {
    const [health, ready] = await Promise.all([request(app).get("/health"), request(app).get("/ready")]);

    expect(health.status).toBe(200);
    expect(ready.status).toBe(503);
    expect(ready.body.checks.database).toEqual({ error: expect.any(String) });
  });

  test("when the same request reaches the running database, then it is served", async () => {
    const res = await request(ctx.app).get("/v1/transactions").set("Authorization", `Bearer ${merchant.testKey}`);

    expect(res.status).toBe(200);
  });
});
