import express from "express";
import request from "supertest";
import { createLogger } from "@lm/logging";
import { ApiError } from "@lm/domain";
import { errorHandler } from "../../src/http/error-handler";
import { requestId } from "../../src/http/request-id";
import { requestLog } from "../../src/http/request-log";
import { useApiTestContext } from "../support/harness";
import { captureLogs } from "../support/log-capture";

const envelope = (code: string, type: string) => ({
  error: { type, code, message: expect.any(String), request_id: expect.stringMatching(/^req_[0-9A-Z]{26}$/) },
});

describe("HTTP foundation", () => {
  const ctx = useApiTestContext();

  test("when the route is unknown, then 404 resource_not_found in the spec envelope with the X-Request-Id", async () => {
    const res = await request(ctx.app).get("/v1/nothing-here");

    expect(res.status).toBe(404);
    expect(res.body).toEqual(envelope("resource_not_found", "not_found_error"));
    expect(res.headers["x-request-id"]).toBe(res.body.error.request_id);
  });

  test("when the caller sends a sane X-Request-Id, then it is echoed and used in the envelope", async () => {
    const res = await request(ctx.app).get("/nope").set("X-Request-Id", "client-trace-12345");

    expect(res.headers["x-request-id"]).toBe("client-trace-12345");
    expect(res.body.error.request_id).toBe("client-trace-12345");
  });

  test("when the caller's X-Request-Id is not sane, then a new req_ id replaces it", async () => {
    const res = await request(ctx.app).get("/health").set("X-Request-Id", "<script>alert(1)</script>");

    expect(res.headers["x-request-id"]).toMatch(/^req_[0-9A-Z]{26}$/);
  });

  test("when the JSON body is malformed, then 400 validation_failed", async () => {
    const res = await request(ctx.app).post("/v1/anything").set("Content-Type", "application/json").send('{"a":');

    expect(res.status).toBe(400);
    expect(res.body).toEqual(envelope("validation_failed", "invalid_request_error"));
  });

  test("when the body is not JSON, then 415 unsupported_media_type", async () => {
    const res = await request(ctx.app).post("/v1/anything").set("Content-Type", "text/plain").send("amount=1");

    expect(res.status).toBe(415);
    expect(res.body).toEqual(envelope("unsupported_media_type", "invalid_request_error"));
  });

  test("when the body is form-encoded, then 415", async () => {
    const res = await request(ctx.app).post("/v1/anything").type("form").send({ amount: 1 });

    expect(res.status).toBe(415);
  });

  test("when the JSON body is over 100 kB, then 413 payload_too_large", async () => {
    const res = await request(ctx.app)
      .post("/v1/anything")
      .set("Content-Type", "application/json")
      .send(JSON.stringify({ pad: "x".repeat(101 * 1024) }));

    expect(res.status).toBe(413);
    expect(res.body).toEqual(envelope("payload_too_large", "invalid_request_error"));
  });

  test("when a JSON body is just under 100 kB, then it is accepted by the parser (404 from routing)", async () => {
    const res = await request(ctx.app)
      .post("/v1/anything")
      .set("Content-Type", "application/json")
      .send(JSON.stringify({ pad: "x".repeat(99 * 1024) }));

    expect(res.status).toBe(404);
  });
});

describe("central error handler", () => {
  function appThrowing(err: unknown) {
    const logger = createLogger({ level: "info", service: "api", silent: false });
    const memory = captureLogs(logger);
    const app = express();
    app.use(requestId, requestLog(logger));
    app.get("/boom/:token", () => {
      throw err;
    });
    app.use(errorHandler(logger));
    return { app, memory };
  }

  test("when a handler throws an unexpected error, then 500 internal_error with no internals in the reply", async () => {
    const { app, memory } = appThrowing(new Error("connect ECONNREFUSED postgresql://admin:hunter2@db/prod"));

    const res = await request(app).get("/boom/tok_secret");

    expect(res.status).toBe(500);
    expect(res.body).toEqual(envelope("internal_error", "internal_error"));
    expect(JSON.stringify(res.body)).not.toMatch(/hunter2|ECONNREFUSED|stack/);
    expect(memory.lines.some((l) => l.message === "unhandled error")).toBe(true);
  });

  test("when an ApiError with param and headers is thrown, then they reach the reply", async () => {
    const { app } = appThrowing(
      new ApiError("rate_limited", "Slow down.", { param: "email", headers: { "Retry-After": "7" } }),
    );

    const res = await request(app).get("/boom/x");

    expect(res.status).toBe(429);
    expect(res.headers["retry-after"]).toBe("7");
    expect(res.body.error).toMatchObject({ type: "rate_limit_error", code: "rate_limited", param: "email" });
  });

  test("when a request is logged, then the line has method, route pattern, status, duration and request id, and no secrets", async () => {
    const { app, memory } = appThrowing(new ApiError("validation_failed", "bad"));

    await request(app)
      .get("/boom/inv_tok_123?token=abc")
      .set("Authorization", "Bearer sk_test_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
      .set("Cookie", "lm.session=supersecret");

    const line = memory.lines.find((l) => l.message === "request");
    expect(line).toMatchObject({ method: "GET", path: "/boom/:token", status: 400, request_id: expect.any(String) });
    expect(typeof line?.duration_ms).toBe("number");
    const all = JSON.stringify(memory.lines);
    expect(all).not.toMatch(/inv_tok_123|abc|sk_test_a|supersecret/);
  });
});
