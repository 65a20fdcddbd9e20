import request from "supertest";
import { createLogger } from "@lm/logging";
import { testConfig } from "@lm/testing";
import { createApp } from "../../src/app";
import { closeAppDeps, createAppDeps } from "../../src/deps";
import { useApiTestContext } from "../support/harness";

const rootPackage = require("../../../../package.json") as { version: string };

describe("probes", () => {
  const ctx = useApiTestContext();

  test("when the process is up, then /health answers ok with the package version and uptime", async () => {
    const res = await request(ctx.app).get("/health");

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", version: rootPackage.version, uptime_s: expect.any(Number) });
    expect(Number.isInteger(res.body.uptime_s)).toBe(true);
  });

  test("when PostgreSQL, Redis and the change feed answer, then /ready is 200 ok with every check ok", async () => {
    const res = await request(ctx.app).get("/ready");

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", checks: { database: "ok", redis: "ok", change_feed: "ok" } });
  });

  test("when REDIS_URL points at a closed port, then /ready is 503 degraded naming redis, within 2 s", async () => {
    const config = testConfig(ctx.config.databaseUrl, { REDIS_URL: "redis://127.0.0.1:1" });
    const deps = createAppDeps(config, { logger: createLogger({ level: "error", service: "api", silent: true }) });
    deps.redis.on("error", () => undefined);
    try {
      const started = Date.now();
      const res = await request(createApp(deps)).get("/ready");

      expect(Date.now() - started).toBeLessThan(2_500);
      expect(res.status).toBe(503);
      expect(res.body.status).toBe("degraded");
      expect(res.body.checks.database).toBe("ok");
      expect(res.body.checks.redis).toEqual({ error: expect.stringMatching(/ECONNREFUSED/) });
    } finally {
      await closeAppDeps(deps);
    }
  });

  test("when the database cannot be reached, then /ready is 503 naming database", async () => {
    const config = testConfig("postgresql://postgres@127.0.0.1:1/nothing");
    const deps = createAppDeps(config, { logger: createLogger({ level: "error", service: "api", silent: true }) });
    try {
      const res = await request(createApp(deps)).get("/ready");

      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        status: "degraded",
        checks: { database: { error: expect.any(String) }, redis: "ok", change_feed: { error: expect.any(String) } },
      });
    } finally {
      await closeAppDeps(deps);
    }
  });
});
