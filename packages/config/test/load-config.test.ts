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

  test("when several variables are bad, then one error lists every one of them by name", () => {
    const problems = problemsOf({ DATABASE_URL: "nonsense", PORT: "http", WORKER_CONCURRENCY: "0", COOKIE_SECURE: "maybe" });

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
      PUBLIC_BASE_URL: "https://pix.example.com",
      WEBHOOK_ALLOW_LOCAL_DESTINATIONS: "true",
    });

    expect(problems).toEqual([expect.stringMatching(/WEBHOOK_ALLOW_LOCAL_DESTINATIONS/)]);
  });

  test("when PUBLIC_BASE_URL's host cannot carry BR Codes in production (no dot, localhost, unset), then start-up is refused", () => {
    const production = {
      NODE_ENV: "production",
      DATABASE_URL: "postgresql://db/x",
      REDIS_URL: "redis://r:6379",
      ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
    };

    for (const url of ["http://localhost:3000", "https://api", "https://pix.localhost"]) {
      expect(problemsOf({ ...production, PUBLIC_BASE_URL: url })).toEqual([expect.stringMatching(/PUBLIC_BASE_URL" host must be a public DNS name/)]);
    }
    expect(problemsOf(production)).toEqual([expect.stringMatching(/PUBLIC_BASE_URL" is required/)]);
    expect(loadConfig({ ...production, PUBLIC_BASE_URL: "https://pix.example.com.br" }).publicBaseUrl).toBe("https://pix.example.com.br");
  });

  test("when PUBLIC_BASE_URL's host could never fit a BR Code, then start-up is refused in every environment", () => {
    expect(problemsOf({ PUBLIC_BASE_URL: `https://${"a".repeat(30)}.example.com` })).toEqual([
      expect.stringMatching(/PUBLIC_BASE_URL" host is too long/),
    ]);
    expect(problemsOf({ PUBLIC_BASE_URL: "http://[::1]:3000" })).toEqual([expect.stringMatching(/PUBLIC_BASE_URL" host must be a DNS name/)]);
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
});
