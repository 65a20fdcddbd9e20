/**
 * The API's Prometheus metrics: `GET /metrics` on the public port exists only with `METRICS_TOKEN` and
 * answers only to it; the `METRICS_PORT` listener serves the same registry; requests are observed by route template.
 */
import { serveMetrics, type MetricsServer } from "@lm/metrics";
import request from "supertest";
import { createApp } from "../../src/app";
import { useApiTestContext } from "../support/harness";
import { useTestMerchant } from "../support/merchant-client";

const METRICS_TOKEN = "metrics-token-for-tests-0123456789abcdef";

describe("API metrics", () => {
  const ctx = useApiTestContext({ METRICS_TOKEN });
  const merchant = useTestMerchant(ctx);

  const scrape = () => request(ctx.app).get("/metrics").set("Authorization", `Bearer ${METRICS_TOKEN}`);

  test("when /metrics is asked with METRICS_TOKEN, then 200 in the Prometheus text format with the request histogram and process metrics", async () => {
    await request(ctx.app).get("/health").expect(200);

    const res = await scrape();

    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.text).toMatch(/^# TYPE lm_http_request_duration_seconds histogram$/m);
    expect(res.text).toMatch(
      /^lm_http_request_duration_seconds_count\{method="GET",route="\/health",status="200"\} \d+$/m,
    );
    expect(res.text).toMatch(/^# TYPE process_cpu_seconds_total counter$/m);
    expect(res.text).toMatch(/^# TYPE nodejs_eventloop_lag_seconds gauge$/m);
  });

  test("when /metrics is asked without a token or with another one, then 401 authentication_required and no metrics", async () => {
    const none = await request(ctx.app).get("/metrics");
    const wrong = await request(ctx.app).get("/metrics").set("Authorization", `Bearer ${METRICS_TOKEN}x`);

    for (const res of [none, wrong]) {
      expect(res.status).toBe(401);
      expect(res.headers["www-authenticate"]).toBe('Bearer realm="metrics"');
      expect(res.body.error).toMatchObject({ type: "authentication_error", code: "authentication_required" });
      expect(res.text).not.toMatch(/lm_http_request_duration_seconds/);
    }
  });

  test("when METRICS_TOKEN is unset, then the public port has no /metrics route", async () => {
    const app = createApp({ ...ctx.deps, config: { ...ctx.config, metricsToken: undefined } });

    const res = await request(app).get("/metrics").set("Authorization", `Bearer ${METRICS_TOKEN}`);

    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("resource_not_found");
  });

  test("when requests carry ids in their paths, then the histogram labels them by route template, never by id", async () => {
    const missing = "txn_01J00000000000000000000000";
    await merchant.client.get(`/v1/transactions/${missing}`).expect(404);
    await request(ctx.app).get("/no/such/route").expect(404);

    const res = await scrape();

    expect(res.text).toMatch(
      /^lm_http_request_duration_seconds_count\{method="GET",route="\/v1\/transactions\/:id",status="404"\} \d+$/m,
    );
    expect(res.text).toMatch(
      /^lm_http_request_duration_seconds_count\{method="GET",route="\(unmatched\)",status="404"\} \d+$/m,
    );
    expect(res.text).not.toContain(missing);
    expect(res.text).not.toContain("/no/such/route");
  });

  test("when the METRICS_PORT listener is scraped, then it serves the same registry without a token, and nothing else", async () => {
    let server: MetricsServer | undefined;
    try {
      server = await serveMetrics(ctx.deps.metrics.registry, 0);
      await request(ctx.app).get("/health").expect(200);

      const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      const other = await fetch(`http://127.0.0.1:${server.port}/v1/transactions`);
      const post = await fetch(`http://127.0.0.1:${server.port}/metrics`, { method: "POST" });

      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(
        /^lm_http_request_duration_seconds_count\{method="GET",route="\/health",status="200"\}/m,
      );
      expect(other.status).toBe(404);
      expect(post.status).toBe(405);
    } finally {
      await server?.close();
    }
  });
});
