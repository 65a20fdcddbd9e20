import request from "supertest";
import type { WebhookEndpoint } from "@lm/db";
import { decryptSecret, saoPauloDate, SUBSCRIBABLE_EVENT_TYPES } from "@lm/domain";
import { createDeliveryRow, createEndpointRow, createEventRow, createTransactionRow } from "@lm/testing";
import { useApiTestContext } from "../support/harness";
import { captureLogs } from "../support/log-capture";
import { MANUAL_DELIVERIES_PER_MINUTE } from "../../src/http/rate-limit";
import { useTestMerchant } from "../support/merchant-client";
import { signInOps, signUpOwner } from "../support/panel";
import { createEndpoint, endpointOwner, panelClient, type EndpointOwner } from "../support/webhook-endpoints";

const HOUR_MS = 3_600_000;
const RECEIVER = "http://localhost:9/hooks";

type AttemptState = { type?: string; status: "pending" | "succeeded" | "failed" | "dead"; attemptedAt?: Date };

describe("webhook endpoints in the panel", () => {
  const ctx = useApiTestContext({ TRUST_PROXY: "loopback" });
  const merchant = useTestMerchant(ctx);
  // A fresh seller per test: each has its own endpoints, well under the limit of five.
  let owner: EndpointOwner;
  beforeEach(async () => {
    owner = await endpointOwner(ctx);
  });

  test("when an owner creates an endpoint after a step-up, then 201 with the secret once, and reads never show it", async () => {
    const res = await owner.panel.post("/v1/me/webhook-endpoints", {
      url: `${RECEIVER}/created`,
      events: ["transaction.paid", "transaction.expired"],
      description: "orders",
    });

    expect(res.status).toBe(201);
    const secret: string = res.body.secret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const shown = {
      id: expect.stringMatching(/^we_[0-9A-Z]{26}$/),
      object: "webhook_endpoint",
      url: `${RECEIVER}/created`,
      events: ["transaction.paid", "transaction.expired"],
      mode: "test",
      description: "orders",
      signature_scheme: "stripe",
      secret_prefix: secret.slice(6, 12),
      public_key: null,
      enabled: true,
      disabled_reason: null,
      auto_disabled_at: null,
      paused: false,
      ordering: "none",
      rate_limit: null,
      headers: {},
      created_at: expect.any(String),
      updated_at: expect.any(String),
    };
    expect(res.body).toEqual({ ...shown, secret });
    const read = await owner.panel.get(`/v1/me/webhook-endpoints/${res.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(shown);
    const row = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.secret_ciphertext).not.toContain(secret.slice(6));
    expect(decryptSecret(ctx.config.encryptionKey, row.secret_ciphertext, row.id)).toBe(secret);
  });

  test("when an endpoint is created, its secret rotated and it is deleted, then each is in the feed and the security log, never the secret", async () => {
    const logs = captureLogs(ctx.deps.logger);
    const created = await createEndpoint(owner, { url: `${RECEIVER}/audited` });
    const rotated = await owner.panel.post(`/v1/me/webhook-endpoints/${created.id}/rotate-secret`);
    await owner.panel.delete(`/v1/me/webhook-endpoints/${created.id}`).expect(204);

    const feed = await owner.panel.get("/v1/me/notifications");

    expect(feed.body.data.map((n: { type: string }) => n.type)).toEqual([
      "webhook_endpoint.deleted",
      "webhook_endpoint.secret_rotated",
      "webhook_endpoint.created",
    ]);
    expect(
      feed.body.data.every((n: { data: { webhook_endpoint_id: string } }) => n.data.webhook_endpoint_id === created.id),
    ).toBe(true);
    const events = logs.lines.filter((l) => l.message === "security event").map((l) => l.event);
    expect(events).toEqual(["webhook_endpoint.created", "webhook_endpoint.secret_rotated", "webhook_endpoint.deleted"]);
    const everything = JSON.stringify([feed.body, logs.lines]);
    expect(everything).not.toContain(created.secret.slice(6));
    expect(everything).not.toContain(String(rotated.body.secret).slice(6));
  });

  test("when the list is read, then newest first, paged, filtered by mode, without deleted endpoints", async () => {
    const first = await createEndpoint(owner, { url: `${RECEIVER}/a` });
    const live = await createEndpoint(owner, { url: `${RECEIVER}/b`, mode: "live" });
    const deleted = await createEndpoint(owner, { url: `${RECEIVER}/c` });
    await owner.panel.delete(`/v1/me/webhook-endpoints/${deleted.id}`).expect(204);

    const all = await owner.panel.get("/v1/me/webhook-endpoints");
    const page = await owner.panel.get(`/v1/me/webhook-endpoints?limit=1&starting_after=${live.id}`);
    const tests = await owner.panel.get("/v1/me/webhook-endpoints?mode=test");

    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ object: "list", has_more: false });
    expect(all.body.data.map((e: { id: string }) => e.id)).toEqual([live.id, first.id]);
    expect(all.body.data[0]).not.toHaveProperty("secret");
    expect(page.body.data.map((e: { id: string }) => e.id)).toEqual([first.id]);
    expect(tests.body.data.map((e: { id: string }) => e.id)).toEqual([first.id]);
  });

  test("when the session has no step-up, then creating is 403 mfa_required and nothing is written", async () => {
    const plain = await signUpOwner(ctx);
    const before = await ctx.db.webhookEndpoint.count();

    const res = await panelClient(ctx, plain.cookie).post("/v1/me/webhook-endpoints", { url: RECEIVER, events: ["*"] });

    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("mfa_required");
    expect(await ctx.db.webhookEndpoint.count()).toBe(before);
  });

  test.each([
    ["a private address", "https://10.0.0.7/hooks"],
    ["a literal public IP", "https://8.8.8.8/hooks"],
    ["embedded credentials", "http://user:pass@localhost:9/hooks"],
    ["another scheme", "ftp://localhost/hooks"],
    ["not a URL", "hooks"],
  ])("when the url has %s, then 400 invalid_url with param url", async (_case, url) => {
    const res = await owner.panel.post("/v1/me/webhook-endpoints", { url, events: ["*"] });

    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: "invalid_request_error", code: "invalid_url", param: "url" });
  });

  test.each([
    ["ping", ["ping"]],
    ["a type outside the catalog", ["transaction.paid", "transaction.chargeback"]],
    ["* beside other types", ["*", "transaction.paid"]],
  ])("when events has %s, then 400 invalid_event_type with param events", async (_case, events) => {
    const res = await owner.panel.post("/v1/me/webhook-endpoints", { url: RECEIVER, events });

    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      type: "invalid_request_error",
      code: "invalid_event_type",
      param: "events",
    });
  });

  test.each([
    ["no events", { url: RECEIVER, events: [] }, "events"],
    ["an unknown mode", { url: RECEIVER, events: ["*"], mode: "prod" }, "mode"],
    ["an unknown field", { url: RECEIVER, events: ["*"], enabled_events: ["*"] }, "enabled_events"],
  ])("when the body has %s, then 400 validation_failed naming it", async (_case, body, param) => {
    const res = await owner.panel.post("/v1/me/webhook-endpoints", body);

    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "validation_failed", param });
  });

  test("when a mode already has 5 endpoints, then the sixth is 409 invalid_state, the other mode is free, and a deletion frees a slot", async () => {
    const five = [];
    for (let i = 0; i < 5; i++) five.push(await createEndpoint(owner, { url: `${RECEIVER}/${i}` }));

    const sixth = await owner.panel.post("/v1/me/webhook-endpoints", { url: RECEIVER, events: ["*"] });
    const live = await owner.panel.post("/v1/me/webhook-endpoints", { url: RECEIVER, events: ["*"], mode: "live" });
    await owner.panel.delete(`/v1/me/webhook-endpoints/${five[0]!.id}`).expect(204);
    const afterDelete = await owner.panel.post("/v1/me/webhook-endpoints", { url: RECEIVER, events: ["*"] });

    expect(sixth.status).toBe(409);
    expect(sixth.body.error).toMatchObject({ type: "invalid_request_error", code: "invalid_state" });
    expect(live.status).toBe(201);
    expect(afterDelete.status).toBe(201);
  });

  test("when six creations race, then exactly five succeed", async () => {
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        owner.panel.post("/v1/me/webhook-endpoints", { url: `${RECEIVER}/${i}`, events: ["*"] }),
      ),
    );

    expect(replies.map((r) => r.status).sort()).toEqual([201, 201, 201, 201, 201, 409]);
  });

  test("when an endpoint is switched off, then disabled_reason is manual; switched on, reason, auto_disabled_at and the dead-chain count are cleared", async () => {
    const endpoint = await createEndpoint(owner, { url: `${RECEIVER}/toggle` });
    const path = `/v1/me/webhook-endpoints/${endpoint.id}`;

    const off = await owner.panel.patch(path, { enabled: false });
    await ctx.db.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { disabled_reason: "auto", auto_disabled_at: new Date(), consecutive_dead_chains: 50 },
    });
    const on = await owner.panel.patch(path, { enabled: true });

    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ enabled: false, disabled_reason: "manual", auto_disabled_at: null });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ enabled: true, disabled_reason: null, auto_disabled_at: null });
    const row = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(row.consecutive_dead_chains).toBe(0);
  });

  test("when url, events and description are changed, then they are stored and checked like on creation", async () => {
    const endpoint = await createEndpoint(owner, { url: `${RECEIVER}/before`, description: "old" });
    const path = `/v1/me/webhook-endpoints/${endpoint.id}`;

    const changed = await owner.panel.patch(path, {
      url: `${RECEIVER}/after`,
      events: ["seller.updated"],
      description: null,
    });
    const badUrl = await owner.panel.patch(path, { url: "https://192.168.0.1/x" });
    const badType = await owner.panel.patch(path, { events: ["ping"] });
    const misspelt = await owner.panel.patch(path, { enable: false });
    const empty = await owner.panel.patch(path, {});

    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      url: `${RECEIVER}/after`,
      events: ["seller.updated"],
      description: null,
      enabled: true,
    });
    expect([badUrl.body.error.code, badUrl.body.error.param]).toEqual(["invalid_url", "url"]);
    expect([badType.body.error.code, badType.body.error.param]).toEqual(["invalid_event_type", "events"]);
    expect(misspelt.status).toBe(400);
    expect(empty.status).toBe(400);
    expect((await owner.panel.get(path)).body).toMatchObject({ url: `${RECEIVER}/after`, enabled: true });
  });

  test("when the webhook step-up toggle is on, then change, delete and rotate need a step-up; off, they do not; creation always does", async () => {
    const plain = await signUpOwner(ctx);
    const store = await ctx.db.store.findFirstOrThrow({ where: { seller_id: plain.seller.id } });
    const panel = panelClient(ctx, plain.cookie);
    const { endpoint: created } = await createEndpointRow(ctx.db, ctx.config.encryptionKey, {
      storeId: store.id,
      url: RECEIVER,
    });
    const path = `/v1/me/webhook-endpoints/${created.id}`;

    const guarded = [
      await panel.patch(path, { description: "x" }),
      await panel.post(`${path}/rotate-secret`),
      await panel.delete(path),
    ];
    await ctx.db.seller.update({ where: { id: plain.seller.id }, data: { step_up_webhook: false } });
    const patched = await panel.patch(path, { description: "x" });
    const creation = await panel.post("/v1/me/webhook-endpoints", { url: RECEIVER, events: ["*"] });
    const deleted = await panel.delete(path);

    expect(guarded.map((r) => [r.status, r.body.error?.code])).toEqual([
      [403, "mfa_required"],
      [403, "mfa_required"],
      [403, "mfa_required"],
    ]);
    expect(patched.status).toBe(200);
    expect(creation.status).toBe(403);
    expect(deleted.status).toBe(204);
  });

  /** Calls, as `caller`, every route that names endpoint `id` (read, change, delete, rotate, ping, deliveries, stats). */
  async function callEveryEndpointRoute(caller: EndpointOwner, id: string) {
    const path = `/v1/me/webhook-endpoints/${id}`;
    return [
      await caller.panel.get(path),
      await caller.panel.patch(path, { enabled: false }),
      await caller.panel.delete(path),
      await caller.panel.post(`${path}/rotate-secret`),
      await caller.panel.post(`${path}/ping`),
      await caller.panel.get(`${path}/deliveries`),
      await caller.panel.get(`${path}/stats`),
    ];
  }

  test("when an endpoint is deleted, then its id answers 404 everywhere and it is gone from the list", async () => {
    const endpoint = await createEndpoint(owner, { url: `${RECEIVER}/gone` });

    await owner.panel.delete(`/v1/me/webhook-endpoints/${endpoint.id}`).expect(204);

    const replies = await callEveryEndpointRoute(owner, endpoint.id);
    expect(replies.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    expect(replies[0]!.body.error).toMatchObject({ type: "not_found_error", code: "resource_not_found" });
    const list = await owner.panel.get("/v1/me/webhook-endpoints");
    expect(list.body.data.map((e: { id: string }) => e.id)).not.toContain(endpoint.id);
    const row = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(row.deleted_at).toBeInstanceOf(Date);
  });

  test("when another seller's endpoint or delivery id is used, then 404 and nothing changes", async () => {
    const other = await endpointOwner(ctx);
    const theirs = await createEndpoint(other, { url: `${RECEIVER}/theirs` });
    const path = `/v1/me/webhook-endpoints/${theirs.id}`;
    const ping = await other.panel.post(`${path}/ping`).expect(202);

    const replies = [
      ...(await callEveryEndpointRoute(owner, theirs.id)),
      await owner.panel.post(`/v1/me/webhook-deliveries/${ping.body.id}/resend`),
      await owner.panel.get("/v1/me/webhook-endpoints/we_not-an-id"),
      await owner.panel.post("/v1/me/webhook-deliveries/evt_01JDZZZZZZZZZZZZZZZZZZZZZZ/resend"),
    ];

    expect(replies.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404, 404, 404, 404, 404]);
    const row = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: theirs.id } });
    expect(row).toMatchObject({ enabled: true, deleted_at: null, secret_prefix: theirs.secret_prefix });
    expect(await ctx.db.webhookDelivery.count({ where: { endpoint_id: theirs.id } })).toBe(1);
  });

  test("when the secret is rotated, then a new secret once, and the old one is kept as previous for 24 h", async () => {
    const endpoint = await createEndpoint(owner, { url: `${RECEIVER}/rotate` });
    const before = Date.now();

    const res = await owner.panel.post(`/v1/me/webhook-endpoints/${endpoint.id}/rotate-secret`);

    expect(res.status).toBe(200);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(res.body.secret).not.toBe(endpoint.secret);
    expect(res.body).toMatchObject({
      id: endpoint.id,
      object: "webhook_endpoint",
      secret_prefix: res.body.secret.slice(6, 12),
    });
    const expiresAt = Date.parse(res.body.previous_secret_expires_at);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 24 * HOUR_MS - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 24 * HOUR_MS + 1000);
    const row = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(decryptSecret(ctx.config.encryptionKey, row.secret_ciphertext, row.id)).toBe(res.body.secret);
    expect(decryptSecret(ctx.config.encryptionKey, row.previous_secret_ciphertext!, row.id)).toBe(endpoint.secret);
    expect((await owner.panel.get(`/v1/me/webhook-endpoints/${endpoint.id}`)).body).not.toHaveProperty("secret");
  });

  /** Writes a delivery row of `endpoint` for a new event of `type`, as it reads after its attempt. */
  async function attemptRow(endpoint: WebhookEndpoint, state: AttemptState) {
    const event = await createEventRow(ctx.db, { storeId: endpoint.store_id, type: state.type ?? "transaction.paid" });
    const row = await createDeliveryRow(ctx.db, { event, destination: { endpoint } });
    return ctx.db.webhookDelivery.update({
      where: { id: row.id },
      data: {
        status: state.status,
        attempted_at: state.attemptedAt ?? null,
        error: state.status === "succeeded" ? null : "http_500",
      },
    });
  }

  test("when an endpoint's deliveries are listed, then every attempt newest first, paged, filtered by status and event type", async () => {
    const created = await createEndpoint(owner, { url: `${RECEIVER}/listed` });
    const endpoint = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } });
    const failed = await attemptRow(endpoint, { type: "transaction.paid", status: "failed", attemptedAt: new Date() });
    const pending = await attemptRow(endpoint, { type: "transaction.created", status: "pending" });
    const path = `/v1/me/webhook-endpoints/${endpoint.id}/deliveries`;

    const all = await owner.panel.get(path);
    const page = await owner.panel.get(`${path}?limit=1`);
    const byStatus = await owner.panel.get(`${path}?status=failed`);
    const byType = await owner.panel.get(`${path}?event_type=transaction.created`);
    const badStatus = await owner.panel.get(`${path}?status=lost`);

    expect(all.status).toBe(200);
    expect(all.body.data.map((d: { id: string }) => d.id)).toEqual([pending.id, failed.id]);
    expect(all.body.data[1]).toEqual({
      id: failed.id,
      object: "webhook_delivery",
      event_id: failed.event_id,
      event_type: "transaction.paid",
      destination: { type: "endpoint", endpoint_id: endpoint.id },
      attempt: 1,
      status: "failed",
      error: "http_500",
      response_status: null,
      response_body_excerpt: null,
      duration_ms: null,
      scheduled_at: failed.scheduled_at.toISOString(),
      attempted_at: failed.attempted_at!.toISOString(),
      next_attempt_at: null,
      manual: false,
    });
    expect([page.body.data.length, page.body.has_more]).toEqual([1, true]);
    expect(byStatus.body.data.map((d: { id: string }) => d.id)).toEqual([failed.id]);
    expect(byType.body.data.map((d: { id: string }) => d.id)).toEqual([pending.id]);
    expect([badStatus.status, badStatus.body.error.param]).toEqual([400, "status"]);
  });

  test("when stats are read, then null before any finished attempt, then the rate over the last 7 days, per São Paulo day, and the latest ping", async () => {
    const created = await createEndpoint(owner, { url: `${RECEIVER}/stats` });
    const endpoint = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } });
    const path = `/v1/me/webhook-endpoints/${endpoint.id}/stats`;
    const ago = (ms: number) => new Date(Date.now() - ms);

    const empty = await owner.panel.get(path);
    await attemptRow(endpoint, { status: "succeeded", attemptedAt: ago(HOUR_MS) });
    await attemptRow(endpoint, { status: "failed", attemptedAt: ago(2 * HOUR_MS) });
    await attemptRow(endpoint, { status: "dead", attemptedAt: ago(3 * HOUR_MS) });
    await attemptRow(endpoint, { status: "succeeded", attemptedAt: ago(8 * 24 * HOUR_MS) });
    await attemptRow(endpoint, { status: "pending" });
    await attemptRow(endpoint, { type: "ping", status: "succeeded", attemptedAt: ago(5 * HOUR_MS) });
    const lastPing = await attemptRow(endpoint, { type: "ping", status: "failed", attemptedAt: ago(HOUR_MS / 2) });
    const filled = await owner.panel.get(path);

    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({
      success_rate: null,
      total_deliveries: 0,
      last_ping_at: null,
      last_ping_succeeded: null,
      days: expect.any(Array),
    });
    expect(empty.body.days).toHaveLength(7);
    expect(empty.body.days.every((day: { success_rate: unknown }) => day.success_rate === null)).toBe(true);
    expect(filled.body).toEqual({
      success_rate: 0.4,
      total_deliveries: 5,
      last_ping_at: lastPing.attempted_at!.toISOString(),
      last_ping_succeeded: false,
      days: expect.any(Array),
    });
    // The five recent attempts (two succeeded) fall on today or, just after midnight, on yesterday too.
    const days = filled.body.days as { date: string; total_deliveries: number; success_rate: number | null }[];
    expect(days.map((day) => day.date).at(-1)).toBe(saoPauloDate(new Date()));
    expect(days.reduce((sum, day) => sum + day.total_deliveries, 0)).toBe(5);
    expect(days.reduce((sum, day) => sum + (day.success_rate ?? 0) * day.total_deliveries, 0)).toBeCloseTo(2);
  });

  test("when a charge's postback delivery is resent, then a new manual chain to the charge's postback URL", async () => {
    const charge = await createTransactionRow(ctx.db, { storeId: owner.storeId, postbackUrl: `${RECEIVER}/postback` });
    const event = await createEventRow(ctx.db, { storeId: owner.storeId });
    const original = await createDeliveryRow(ctx.db, { event, destination: { transaction: charge } });

    const res = await owner.panel.post(`/v1/me/webhook-deliveries/${original.id}/resend`);

    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      event_id: event.id,
      destination: { type: "postback", transaction_id: charge.id, url: `${RECEIVER}/postback` },
      attempt: 1,
      status: "pending",
      manual: true,
    });
    expect(res.body.id).not.toBe(original.id);
    const row = await ctx.db.webhookDelivery.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.chain_id).toBe(row.id);
  });

  test("when the event types are listed, then the whole subscribable catalog with a description each, and no ping", async () => {
    const res = await owner.panel.get("/v1/me/event-types");

    expect(res.status).toBe(200);
    expect(res.body.object).toBe("list");
    expect(res.body.data.map((t: { id: string }) => t.id)).toEqual(Object.keys(SUBSCRIBABLE_EVENT_TYPES));
    expect(res.body.data).toContainEqual({
      id: "transaction.paid",
      object: "event_type",
      description: expect.stringMatching(/\S/),
    });
    expect(res.body.data.map((t: { id: string }) => t.id)).not.toContain("ping");
  });

  test("when an API key is used instead of a session, then every route answers 401", async () => {
    const endpoint = await createEndpoint(owner, { url: `${RECEIVER}/key` });
    const path = `/v1/me/webhook-endpoints/${endpoint.id}`;
    const bearer = (r: request.Test) => r.set("Authorization", `Bearer ${merchant.testKey}`);

    const replies = [
      await bearer(request(ctx.app).post("/v1/me/webhook-endpoints")).send({ url: RECEIVER, events: ["*"] }),
      await bearer(request(ctx.app).get("/v1/me/webhook-endpoints")),
      await bearer(request(ctx.app).get(path)),
      await bearer(request(ctx.app).patch(path)).send({ enabled: false }),
      await bearer(request(ctx.app).delete(path)),
      await bearer(request(ctx.app).post(`${path}/rotate-secret`)),
      await bearer(request(ctx.app).post(`${path}/ping`)),
      await bearer(request(ctx.app).get(`${path}/deliveries`)),
      await bearer(request(ctx.app).get(`${path}/stats`)),
      await bearer(request(ctx.app).post("/v1/me/webhook-deliveries/whd_01JDZZZZZZZZZZZZZZZZZZZZZZ/resend")),
      await bearer(request(ctx.app).get("/v1/me/event-types")),
    ];

    expect(new Set(replies.map((r) => r.status))).toEqual(new Set([401]));
    expect(replies[0]!.body.error.code).toBe("authentication_required");
  });

  test("when an operator calls the endpoint routes, then 403 permission_denied", async () => {
    const ops = await signInOps(ctx);

    const res = await panelClient(ctx, ops.cookie).get("/v1/me/webhook-endpoints");

    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("permission_denied");
  });

  test("when a seller starts more pings and resends than its per-minute allowance, then 429 rate_limited with Retry-After", async () => {
    const endpoint = await createEndpoint(owner, { url: `${RECEIVER}/limited` });
    const path = `/v1/me/webhook-endpoints/${endpoint.id}/ping`;
    for (let i = 0; i < MANUAL_DELIVERIES_PER_MINUTE; i++) await owner.panel.post(path).expect(202);

    const res = await owner.panel.post(path);

    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe("rate_limited");
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    const pings = await ctx.db.webhookDelivery.count({ where: { endpoint_id: endpoint.id, event_type: "ping" } });
    expect(pings).toBe(MANUAL_DELIVERIES_PER_MINUTE);
  });
});
