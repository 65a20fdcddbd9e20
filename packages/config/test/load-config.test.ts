import { ConfigError, DEFAULT_RETRY_SCHEDULE_SECONDS, loadConfig } from "../src";

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error("expected a ConfigError");
}

describe("loadConfig", () => {
  test("when nothing is set outside production, then development defaults apply", () => {
    const config = loadConfig({});

    expect(config.port).toBe(3000);
    expect(config.retryScheduleSeconds).toEqual([...DEFAULT_RETRY_SCHEDULE_SECONDS]);
    expect(config.encryptionKey).toHaveLength(32);
    expect(config.cookieSecure).toBe(true);
    expect(config.webhookAllowLocalDestinations).toBe(false);
    expect(config.stepUpWindowSeconds).toBe(600);
    expect(config.smtpUrl).toBeUndefined();
    expect(config.mailOutboxDir).toBe("var/mail");
  });

  test("when PORT moves and PUBLIC_BASE_URL and PANEL_ORIGINS are unset, then both defaults follow the port", () => {
    const moved = loadConfig({ PORT: "3310" });
    const unset = loadConfig({});

    expect(moved.port).toBe(3310);
    expect(moved.publicBaseUrl).toBe("http://localhost:3310");
    expect(moved.panelOrigins).toEqual(["http://localhost:3310"]);
    expect([unset.publicBaseUrl, unset.panelOrigins]).toEqual(["http://localhost:3000", ["http://localhost:3000"]]);
    expect(loadConfig({ PORT: "3310", PUBLIC_BASE_URL: "http://pix.test:8080" }).publicBaseUrl).toBe(
      "http://pix.test:8080",
    );
  });

  test("when QUEUE_PREFIX is in braces outside a cluster, then it is accepted as is; a half-open brace is refused", () => {
    expect(loadConfig({ QUEUE_PREFIX: "{lm}" }).queuePrefix).toBe("{lm}");
    expect(problemsOf({ QUEUE_PREFIX: "{lm" }).join("\n")).toMatch(/QUEUE_PREFIX/);
  });

  test("when DELIVERY_QUEUE_SHARDS is unset, then 8; outside 1..64, then start-up is refused naming it", () => {
    expect(loadConfig({}).deliveryQueueShards).toBe(8);
    expect(loadConfig({ DELIVERY_QUEUE_SHARDS: "64" }).deliveryQueueShards).toBe(64);
    expect(problemsOf({ DELIVERY_QUEUE_SHARDS: "0" })).toEqual([expect.stringMatching(/DELIVERY_QUEUE_SHARDS/)]);
    expect(problemsOf({ DELIVERY_QUEUE_SHARDS: "65" })).toEqual([expect.stringMatching(/DELIVERY_QUEUE_SHARDS/)]);
  });

  test("when RECURRENCE_LEAD_DAYS is unset, then 5; outside 2..10, then start-up is refused naming it", () => {
    expect(loadConfig({}).recurrenceLeadDays).toBe(5);
    expect(loadConfig({ RECURRENCE_LEAD_DAYS: "10" }).recurrenceLeadDays).toBe(10);
    expect(problemsOf({ RECURRENCE_LEAD_DAYS: "1" })).toEqual([expect.stringMatching(/RECURRENCE_LEAD_DAYS/)]);
    expect(problemsOf({ RECURRENCE_LEAD_DAYS: "11" })).toEqual([expect.stringMatching(/RECURRENCE_LEAD_DAYS/)]);
  });

  describe("Redis Cluster", () => {
    const nodes = "redis://:secret@10.0.0.1:6379, redis://:secret@10.0.0.2:6380";

    test("when REDIS_CLUSTER_NODES is set without QUEUE_PREFIX, then the nodes are listed and the prefix is lm", () => {
      const config = loadConfig({ REDIS_CLUSTER_NODES: nodes });

      expect(config.redisClusterNodes).toEqual(["redis://:secret@10.0.0.1:6379", "redis://:secret@10.0.0.2:6380"]);
      expect(config.queuePrefix).toBe("lm");
      expect(loadConfig({}).redisClusterNodes).toBeUndefined();
    });

    test("when REDIS_CLUSTER_NODES is set with a prefix in braces, then start-up is refused: each queue has its own hash tag", () => {
      expect(problemsOf({ REDIS_CLUSTER_NODES: nodes, QUEUE_PREFIX: "{lm}" })).toEqual([
        expect.stringMatching(/"QUEUE_PREFIX" must not be in braces when REDIS_CLUSTER_NODES is set/),
      ]);
      expect(loadConfig({ REDIS_CLUSTER_NODES: nodes, QUEUE_PREFIX: "pix" }).queuePrefix).toBe("pix");
    });

    test.each([
      ["not a URL", "10.0.0.1:6379"],
      ["another scheme", "http://10.0.0.1:6379"],
      ["mixed schemes", "redis://10.0.0.1:6379,rediss://10.0.0.2:6379"],
      ["empty", " , "],
    ])("when REDIS_CLUSTER_NODES is %s, then start-up is refused naming it", (_label, value) => {
      expect(problemsOf({ REDIS_CLUSTER_NODES: value, QUEUE_PREFIX: "lm" })).toEqual([
        expect.stringMatching(/"REDIS_CLUSTER_NODES" must be comma-separated redis/),
      ]);
    });

    test("when production runs on a cluster, then REDIS_URL is not required", () => {
      const { REDIS_URL: _unused, ...withoutUrl } = production;

      expect(loadConfig({ ...withoutUrl, REDIS_CLUSTER_NODES: nodes }).redisClusterNodes).toHaveLength(2);
      expect(problemsOf(withoutUrl)).toEqual([expect.stringMatching(/"REDIS_URL" is required/)]);
    });
  });

  test("when DATABASE_POOLING and DATABASE_DIRECT_URL are unset, then session pooling and the direct URL is DATABASE_URL", () => {
    const config = loadConfig({ DATABASE_URL: "postgresql://app@pooler:6432/lm" });

    expect(config.databasePooling).toBe("session");
    expect(config.databaseDirectUrl).toBe("postgresql://app@pooler:6432/lm");
  });

  test("when DATABASE_POOLING is transaction and DATABASE_DIRECT_URL is set, then both are taken; other values are refused", () => {
    const config = loadConfig({
      DATABASE_URL: "postgresql://app@pooler:6432/lm",
      DATABASE_POOLING: "transaction",
      DATABASE_DIRECT_URL: "postgresql://app@db:5432/lm",
    });

    expect(config.databasePooling).toBe("transaction");
    expect(config.databaseDirectUrl).toBe("postgresql://app@db:5432/lm");
    expect(problemsOf({ DATABASE_POOLING: "statement" }).join("\n")).toMatch(
      /DATABASE_POOLING" must be one of \[session, transaction\]/,
    );
    expect(problemsOf({ DATABASE_DIRECT_URL: "mysql://db/lm" }).join("\n")).toMatch(/DATABASE_DIRECT_URL/);
  });

  test("when several variables are bad, then one error lists every one of them by name", () => {
    const problems = problemsOf({
      DATABASE_URL: "nonsense",
      PORT: "http",
      WORKER_CONCURRENCY: "0",
      COOKIE_SECURE: "maybe",
    });

    expect(problems).toHaveLength(4);
    expect(problems.join("\n")).toMatch(/DATABASE_URL/);
    expect(problems.join("\n")).toMatch(/PORT/);
    expect(problems.join("\n")).toMatch(/WORKER_CONCURRENCY/);
    expect(problems.join("\n")).toMatch(/COOKIE_SECURE/);
  });

  test("when NODE_ENV is production, then DATABASE_URL, REDIS_URL and ENCRYPTION_KEY are required", () => {
    const problems = problemsOf({ NODE_ENV: "production" }).join("\n");

    expect(problems).toMatch(/DATABASE_URL" is required/);
    expect(problems).toMatch(/REDIS_URL" is required/);
    expect(problems).toMatch(/ENCRYPTION_KEY" is required/);
  });

  test("when production allows local webhook destinations, then start-up is refused", () => {
    const problems = problemsOf({
      NODE_ENV: "production",
      DATABASE_URL: "postgresql://db/x",
      REDIS_URL: "redis://r:6379",
      ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
      PANEL_ORIGINS: "https://panel.example.com",
      PUBLIC_BASE_URL: "https://pix.example.com",
      WEBHOOK_ALLOW_LOCAL_DESTINATIONS: "true",
    });

    expect(problems).toEqual([expect.stringMatching(/WEBHOOK_ALLOW_LOCAL_DESTINATIONS/)]);
  });

  const production = {
    NODE_ENV: "production",
    DATABASE_URL: "postgresql://db/x",
    REDIS_URL: "redis://r:6379",
    ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
    PANEL_ORIGINS: "https://panel.example.com",
    PUBLIC_BASE_URL: "https://pix.example.com",
  };

  test("when production turns COOKIE_SECURE off, then start-up is refused", () => {
    expect(problemsOf({ ...production, COOKIE_SECURE: "false" })).toEqual([
      expect.stringMatching(/COOKIE_SECURE" cannot be false/),
    ]);
  });

  test.each([
    ["unset (the localhost default)", undefined, /PANEL_ORIGINS" is required/],
    ["plain http", "https://panel.example.com,http://panel.example.com", /PANEL_ORIGINS" must be https/],
    ["localhost", "https://localhost:3000", /PANEL_ORIGINS" must be https/],
    ["a localhost subdomain", "https://panel.localhost", /PANEL_ORIGINS" must be https/],
    ["a loopback address", "https://127.0.0.2", /PANEL_ORIGINS" must be https/],
    ["the IPv6 loopback", "https://[::1]:8443", /PANEL_ORIGINS" must be https/],
  ])("when production's PANEL_ORIGINS is %s, then start-up is refused", (_label, origins, message) => {
    expect(problemsOf({ ...production, PANEL_ORIGINS: origins })).toEqual([expect.stringMatching(message)]);
  });

  test("when production has https public panel origins and secure cookies, then the configuration loads", () => {
    const config = loadConfig({ ...production, PANEL_ORIGINS: "https://panel.example.com, https://admin.example.com" });

    expect(config.panelOrigins).toEqual(["https://panel.example.com", "https://admin.example.com"]);
    expect(config.cookieSecure).toBe(true);
  });

  test("when outside production the panel is on localhost over http with insecure cookies, then it loads", () => {
    expect(loadConfig({ PANEL_ORIGINS: "http://localhost:5173", COOKIE_SECURE: "false" }).cookieSecure).toBe(false);
  });

  test("when PUBLIC_BASE_URL's host cannot carry BR Codes in production (no dot, localhost, unset), then start-up is refused", () => {
    for (const url of ["http://localhost:3000", "https://api", "https://pix.localhost"]) {
      expect(problemsOf({ ...production, PUBLIC_BASE_URL: url })).toEqual([
        expect.stringMatching(/PUBLIC_BASE_URL" host must be a public DNS name/),
      ]);
    }
    expect(problemsOf({ ...production, PUBLIC_BASE_URL: undefined })).toEqual([
      expect.stringMatching(/PUBLIC_BASE_URL" is required/),
    ]);
    expect(loadConfig({ ...production, PUBLIC_BASE_URL: "https://pix.example.com.br" }).publicBaseUrl).toBe(
      "https://pix.example.com.br",
    );
  });

  test("when PUBLIC_BASE_URL's host could never fit a BR Code, then start-up is refused in every environment", () => {
    expect(problemsOf({ PUBLIC_BASE_URL: `https://${"a".repeat(30)}.example.com` })).toEqual([
      expect.stringMatching(/PUBLIC_BASE_URL" host is too long/),
    ]);
    expect(problemsOf({ PUBLIC_BASE_URL: "http://[::1]:3000" })).toEqual([
      expect.stringMatching(/PUBLIC_BASE_URL" host must be a DNS name/),
    ]);
    expect(loadConfig({ PUBLIC_BASE_URL: "http://localhost:3000" }).publicBaseUrl).toBe("http://localhost:3000");
  });

  test("when ENCRYPTION_KEY is not 32 bytes, then it is refused", () => {
    expect(problemsOf({ ENCRYPTION_KEY: Buffer.alloc(16).toString("base64") })).toEqual([
      expect.stringMatching(/ENCRYPTION_KEY" must be 32 bytes/),
    ]);
  });

  test("when RETRY_SCHEDULE_SECONDS has five numbers, then they become the schedule; otherwise it is refused", () => {
    expect(loadConfig({ RETRY_SCHEDULE_SECONDS: "1, 2,3,4 ,5" }).retryScheduleSeconds).toEqual([1, 2, 3, 4, 5]);
    expect(problemsOf({ RETRY_SCHEDULE_SECONDS: "1,2,3" })).toEqual([expect.stringMatching(/RETRY_SCHEDULE_SECONDS/)]);
  });

  test("when PANEL_ORIGINS lists origins, then they are split and trimmed; a path is refused", () => {
    expect(loadConfig({ PANEL_ORIGINS: "https://a.example, https://b.example:8443" }).panelOrigins).toEqual([
      "https://a.example",
      "https://b.example:8443",
    ]);
    expect(problemsOf({ PANEL_ORIGINS: "https://a.example/panel" })).toHaveLength(1);
  });
});

describe("account settings", () => {
  test("when nothing is set, then bcrypt cost 12, no trusted proxy and a default sender", () => {
    const config = loadConfig({});

    expect(config.bcryptCost).toBe(12);
    expect(config.trustProxy).toBe(false);
    expect(config.mailFrom).toMatch(/@/);
  });

  test("when BCRYPT_COST is below 12 outside tests, then the process refuses to start; in tests 4 is allowed", () => {
    expect(problemsOf({ BCRYPT_COST: "10" }).join("\n")).toMatch(/BCRYPT_COST/);
    expect(problemsOf({ NODE_ENV: "production", BCRYPT_COST: "4" }).join("\n")).toMatch(/BCRYPT_COST/);
    expect(loadConfig({ NODE_ENV: "test", BCRYPT_COST: "4" }).bcryptCost).toBe(4);
  });

  test("when TRUST_PROXY is a hop count, a list of subnets or a keyword, then Express gets that value", () => {
    expect(loadConfig({ TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: "0" }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "10.0.0.0/8, 192.0.2.1" }).trustProxy).toEqual(["10.0.0.0/8", "192.0.2.1"]);
    expect(loadConfig({ TRUST_PROXY: "loopback" }).trustProxy).toEqual(["loopback"]);
    expect(problemsOf({ TRUST_PROXY: "everyone please" }).join("\n")).toMatch(/TRUST_PROXY/);
  });

  test("when METRICS_PORT and METRICS_TOKEN are unset, then there is no metrics listener and no public /metrics", () => {
    const config = loadConfig({});

    expect(config.metricsPort).toBeUndefined();
    expect(config.metricsToken).toBeUndefined();
  });

  test("when METRICS_PORT is a port and METRICS_TOKEN 32 printable characters, then both are taken", () => {
    const token = "m".repeat(32);

    const config = loadConfig({ METRICS_PORT: "9464", METRICS_TOKEN: token });

    expect(config.metricsPort).toBe(9464);
    expect(config.metricsToken).toBe(token);
  });

  test("when METRICS_PORT is not a port or METRICS_TOKEN is short or has spaces, then start-up is refused", () => {
    expect(problemsOf({ METRICS_PORT: "70000" }).join("\n")).toMatch(/METRICS_PORT/);
    expect(problemsOf({ METRICS_TOKEN: "short" }).join("\n")).toMatch(/METRICS_TOKEN/);
    expect(problemsOf({ METRICS_TOKEN: `${"m".repeat(20)} ${"m".repeat(20)}` }).join("\n")).toMatch(/METRICS_TOKEN/);
  });
});

describe("retention", () => {
  test("when RETENTION_DAYS is unset, then 90; at least 30 is taken; below 30 or not a whole number, start-up is refused", () => {
    expect(loadConfig({}).retentionDays).toBe(90);
    expect(loadConfig({ RETENTION_DAYS: "30" }).retentionDays).toBe(30);
    expect(problemsOf({ RETENTION_DAYS: "29" }).join("\n")).toMatch(/RETENTION_DAYS/);
    expect(problemsOf({ RETENTION_DAYS: "45.5" }).join("\n")).toMatch(/RETENTION_DAYS/);
  });
});
