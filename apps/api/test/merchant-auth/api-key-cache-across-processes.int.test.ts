/**
 * Two API processes on one database (DESIGN §3 and §10): each keeps the keys it authenticated, the other's feed probes
 * do not make it forget them, and a key deleted through one is refused by the other within 1 s, told only by the
 * change feed (no barrier crosses processes).
 */
import type { Express } from "express";
import request from "supertest";
import { hashApiKey } from "@lm/domain";
import { createLogger } from "@lm/logging";
import { waitUntil } from "@lm/testing";
import { createApp } from "../../src/app";
import { closeAppDeps, createAppDeps, type AppDeps } from "../../src/deps";
import { useApiTestContext } from "../support/harness";
import { merchantClient } from "../support/merchant-client";
import { PANEL_ORIGIN } from "../support/panel";
import { panelPost, signUpSteppedUp } from "../support/two-factor";

describe("API keys cached by two API processes", () => {
  const ctx = useApiTestContext();
  let other: { deps: AppDeps; app: Express };
  beforeAll(async () => {
    const deps = createAppDeps(ctx.config, { logger: createLogger({ level: "error", service: "api", silent: true }) });
    other = { deps, app: createApp(deps) };
    await deps.apiKeyChanges.check();
  });
  afterAll(async () => {
    if (other) await closeAppDeps(other.deps);
  });

  /** A new owner's test API key named `name`, created through the panel of the first process, and the owner's cookie. */
  const createTestKeyInPanel = async (name: string): Promise<{ id: string; key: string; cookie: string }> => {
    const owner = await signUpSteppedUp(ctx);
    const created = await panelPost(ctx, "/v1/me/api-keys", owner.cookie, { name, mode: "test" }).expect(201);
    return { id: created.body.id, key: created.body.key, cookie: owner.cookie };
  };

  test("when both processes' feeds probe themselves, then neither takes the other's probes for changes: a key stays kept", async () => {
    const { key } = await createTestKeyInPanel("kept");
    expect((await merchantClient(other.app, key).get("/v1/transactions")).status).toBe(200);
    const kept = await waitUntil("the other process to keep the key", () =>
      other.deps.apiKeyCache.get(hashApiKey(key)),
    );

    // Several probes of each feed (one every 250 ms), each heard by both.
    await new Promise((resolve) => setTimeout(resolve, 1_200));

    expect(other.deps.apiKeyCache.get(hashApiKey(key))).toBe(kept);
  });

  test("when a key is deleted through one process, then the other, which had it cached, refuses it within 1 s", async () => {
    const { id, key, cookie } = await createTestKeyInPanel("two processes");
    const transactions = () => merchantClient(other.app, key).get("/v1/transactions");
    await waitUntil("the other process to keep the key", async () => {
      expect((await transactions()).status).toBe(200);
      return other.deps.apiKeyCache.get(hashApiKey(key));
    });

    await request(ctx.app)
      .delete(`/v1/me/api-keys/${id}`)
      .set("Cookie", cookie)
      .set("Origin", PANEL_ORIGIN)
      .expect(204);
    const deletedAt = performance.now();
    const refused = await waitUntil(
      "the other process to refuse the key",
      async () => (await transactions()).status === 401 && { afterMs: performance.now() - deletedAt },
      { timeoutMs: 3_000, intervalMs: 10 },
    );

    expect(refused.afterMs).toBeLessThan(1_000);
  });
});
