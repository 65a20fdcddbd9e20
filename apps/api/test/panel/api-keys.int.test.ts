import { createHash } from "node:crypto";
import request from "supertest";
import { createApiKey, findSellerStore, setSellerKyc, setStepUpPrefs } from "@lm/domain";
import { useApiTestContext } from "../support/harness";
import { tablesContaining } from "../support/database-scan";
import { captureLogs, type MemoryTransport } from "../support/log-capture";
import { merchantClient } from "../support/merchant-client";
import { PANEL_ORIGIN, signInOps, signUpOwner } from "../support/panel";
import { signUpSteppedUp, type TwoFactorOwner } from "../support/two-factor";

const KEY = /^sk_test_[0-9A-Za-z]{32}$/;

describe("panel API keys", () => {
  const ctx = useApiTestContext({ TRUST_PROXY: "loopback" });
  let logs: MemoryTransport;
  beforeAll(() => {
    logs = captureLogs(ctx.deps.logger);
  });

  const list = (cookie: string) => request(ctx.app).get("/v1/me/api-keys").set("Cookie", cookie);
  const create = (cookie: string, body: Record<string, unknown>) =>
    request(ctx.app).post("/v1/me/api-keys").set("Cookie", cookie).set("Origin", PANEL_ORIGIN).send(body);
  const rotate = (cookie: string, id: string) =>
    request(ctx.app).post(`/v1/me/api-keys/${id}/rotate`).set("Cookie", cookie).set("Origin", PANEL_ORIGIN);
  const remove = (cookie: string, id: string) =>
    request(ctx.app).delete(`/v1/me/api-keys/${id}`).set("Cookie", cookie).set("Origin", PANEL_ORIGIN);
  const transactions = (key: string) => merchantClient(ctx.app, key).get("/v1/transactions");
  const createKeys = async (owner: TwoFactorOwner, mode: "test" | "live", count: number) => {
    for (let i = 0; i < count; i++) await create(owner.cookie, { name: `${mode} ${i}`, mode }).expect(201);
  };

  test("when an owner creates a test key after a step-up, then 201 shows the key once and it works on the merchant API", async () => {
    const owner = await signUpSteppedUp(ctx);

    const res = await create(owner.cookie, { name: "Loja virtual", mode: "test" });

    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^key_[0-9A-Z]{26}$/),
      object: "api_key",
      name: "Loja virtual",
      mode: "test",
      key_prefix: res.body.key.slice(0, 12),
      last_used_at: null,
      revoke_at: null,
      created_at: expect.any(String),
      key: expect.stringMatching(KEY),
    });
    expect((await transactions(res.body.key)).status).toBe(200);
    const listed = await list(owner.cookie);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      object: "list",
      data: [{ ...res.body, key: undefined, last_used_at: expect.any(String) }],
      has_more: false,
    });
    expect(JSON.stringify(listed.body)).not.toContain(res.body.key.slice(8));
  });

  test("when a key is created, then neither the logs nor any table hold it in clear, and a security event names the ids", async () => {
    const owner = await signUpSteppedUp(ctx);

    const { key, id } = (await create(owner.cookie, { name: "audit", mode: "test" }).expect(201)).body;

    const stored = await ctx.db.apiKey.findUniqueOrThrow({ where: { id } });
    expect(stored.key_hash).toBe(createHash("sha256").update(key).digest("hex"));
    expect(await tablesContaining(ctx.db, key.slice(8))).toEqual([]);
    expect(JSON.stringify(logs.lines)).not.toContain(key.slice(8));
    expect(logs.lines).toContainEqual(
      expect.objectContaining({
        message: "security event",
        event: "api_key.created",
        key_id: id,
        mode: "test",
        user_id: owner.user.id,
        seller_id: owner.seller.id,
        store_id: stored.store_id,
        request_id: expect.any(String),
      }),
    );
  });

  test("when keys are created, rotated and deleted, then the owner's feed shows each action, never the key", async () => {
    const owner = await signUpSteppedUp(ctx);
    const created = (await create(owner.cookie, { name: "feed", mode: "test" }).expect(201)).body;
    const rotated = (await rotate(owner.cookie, created.id).expect(201)).body;
    await remove(owner.cookie, rotated.id).expect(204);

    const feed = await request(ctx.app).get("/v1/me/notifications").set("Cookie", owner.cookie);

    expect(feed.status).toBe(200);
    expect(feed.body.data.map((n: { type: string; data: unknown }) => [n.type, n.data])).toEqual([
      ["api_key.deleted", { key_id: rotated.id, mode: "test", user_id: owner.user.id }],
      [
        "api_key.rotated",
        {
          key_id: created.id,
          new_key_id: rotated.id,
          mode: "test",
          revoke_at: rotated.old_key_revoke_at,
          user_id: owner.user.id,
        },
      ],
      ["api_key.created", { key_id: created.id, mode: "test", user_id: owner.user.id }],
    ]);
    expect(feed.body.data[0]).toMatchObject({
      object: "notification",
      title: "API key deleted",
      message: expect.stringContaining('"feed"'),
    });
    expect(JSON.stringify(feed.body)).not.toContain(created.key.slice(8));
    expect(JSON.stringify(feed.body)).not.toContain(rotated.key.slice(8));
  });

  test("when a creation is refused, then nothing reaches the feed or the security log", async () => {
    const owner = await signUpSteppedUp(ctx);
    const linesBefore = logs.lines.length;

    await create(owner.cookie, { name: "live", mode: "live" }).expect(403);

    const feed = await request(ctx.app).get("/v1/me/notifications").set("Cookie", owner.cookie);
    expect(feed.body.data).toEqual([]);
    expect(logs.lines.slice(linesBefore).filter((l) => l.message === "security event")).toEqual([]);
  });

  test("when the session has no step-up, then create and rotate answer 403 mfa_required and nothing is created", async () => {
    const owner = await signUpOwner(ctx);
    await setSellerKyc(ctx.deps.repos, owner.seller.id, "approved");

    const created = await create(owner.cookie, { name: "no step-up", mode: "test" });
    const rotated = await rotate(owner.cookie, "key_01JD3Z0000000000000000000A");

    expect([created.status, rotated.status]).toEqual([403, 403]);
    expect(created.body.error).toMatchObject({ type: "permission_error", code: "mfa_required" });
    expect(rotated.body.error.code).toBe("mfa_required");
    expect(await ctx.db.apiKey.count({ where: { store: { seller_id: owner.seller.id } } })).toBe(0);
  });

  test("when a live key is asked for without approved KYC, then 403 kyc_required; after seller:kyc approved, 201", async () => {
    const owner = await signUpSteppedUp(ctx);

    const refused = await create(owner.cookie, { name: "produção", mode: "live" });
    await setSellerKyc(ctx.deps.repos, owner.seller.id, "approved");
    const issued = await create(owner.cookie, { name: "produção", mode: "live" });

    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ type: "permission_error", code: "kyc_required" });
    expect(issued.status).toBe(201);
    expect(issued.body.key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect(issued.body.mode).toBe("live");
  });

  test("when the body is invalid, then 400 validation_failed naming the field", async () => {
    const owner = await signUpSteppedUp(ctx);

    const cases = [
      [{ mode: "test" }, "name"],
      [{ name: "", mode: "test" }, "name"],
      [{ name: "   ", mode: "test" }, "name"],
      [{ name: "x".repeat(65), mode: "test" }, "name"],
      [{ name: "ok" }, "mode"],
      [{ name: "ok", mode: "production" }, "mode"],
      [{ name: 42, mode: "test" }, "name"],
    ] as const;

    for (const [body, param] of cases) {
      const res = await create(owner.cookie, body);
      expect([res.status, res.body.error.code, res.body.error.param]).toEqual([400, "validation_failed", param]);
    }
    expect((await create(owner.cookie, { name: "x".repeat(64), mode: "test" })).status).toBe(201);
  });

  test("when a mode already has 10 active keys, then the 11th and a rotation answer 409 invalid_state; the other mode is not affected", async () => {
    const owner = await signUpSteppedUp(ctx);
    await setSellerKyc(ctx.deps.repos, owner.seller.id, "approved");
    await createKeys(owner, "test", 10);
    const anyKey = (await list(owner.cookie)).body.data[0].id;

    const eleventh = await create(owner.cookie, { name: "one too many", mode: "test" });
    const rotation = await rotate(owner.cookie, anyKey);
    const live = await create(owner.cookie, { name: "live", mode: "live" });

    expect([eleventh.status, rotation.status]).toEqual([409, 409]);
    expect(eleventh.body.error).toMatchObject({ type: "invalid_request_error", code: "invalid_state" });
    expect(rotation.body.error.code).toBe("invalid_state");
    expect((await ctx.db.apiKey.findUniqueOrThrow({ where: { id: anyKey } })).revoke_at).toBeNull();
    expect(live.status).toBe(201);
    expect((await list(owner.cookie)).body.data).toHaveLength(11);
  });

  test("when 10 creations race for the last 2 free places, then exactly 2 succeed", async () => {
    const owner = await signUpSteppedUp(ctx);
    await createKeys(owner, "test", 8);

    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) => create(owner.cookie, { name: `race ${i}`, mode: "test" })),
    );

    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 409, 409, 409, 409, 409, 409, 409, 409]);
  });

  test("when a key is deleted, then 204, it fails on the merchant API at once, leaves the list, and frees a place", async () => {
    const owner = await signUpSteppedUp(ctx);
    await createKeys(owner, "test", 9);
    const { id, key } = (await create(owner.cookie, { name: "to delete", mode: "test" }).expect(201)).body;
    expect((await transactions(key)).status).toBe(200);

    const res = await remove(owner.cookie, id);

    expect(res.status).toBe(204);
    expect((await transactions(key)).status).toBe(401);
    expect((await list(owner.cookie)).body.data.map((k: { id: string }) => k.id)).not.toContain(id);
    expect((await ctx.db.apiKey.findUniqueOrThrow({ where: { id } })).revoked_at).not.toBeNull();
    expect((await remove(owner.cookie, id)).status).toBe(404);
    expect((await create(owner.cookie, { name: "in its place", mode: "test" })).status).toBe(201);
    expect(logs.lines).toContainEqual(
      expect.objectContaining({ message: "security event", event: "api_key.deleted", key_id: id }),
    );
  });

  test("when the account toggle is on, deleting needs a step-up; when it is off, it does not", async () => {
    const owner = await signUpOwner(ctx);
    const store = await findSellerStore(ctx.deps.repos, owner.seller.id);
    const { apiKey } = await createApiKey(ctx.deps.repos, {
      storeId: store.id,
      name: "from ops",
      mode: "test",
      now: new Date(),
    });

    const refused = await remove(owner.cookie, apiKey.id);
    await setStepUpPrefs(ctx.deps.repos, owner.seller.id, { account: false });
    const allowed = await remove(owner.cookie, apiKey.id);

    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("mfa_required");
    expect(allowed.status).toBe(204);
  });

  test("when another seller's owner lists, rotates or deletes a key, then they see nothing and get 404", async () => {
    const owner = await signUpSteppedUp(ctx);
    const { id, key } = (await create(owner.cookie, { name: "mine", mode: "test" }).expect(201)).body;
    const stranger = await signUpSteppedUp(ctx);

    const listed = await list(stranger.cookie);
    const rotated = await rotate(stranger.cookie, id);
    const deleted = await remove(stranger.cookie, id);

    expect(listed.body.data).toEqual([]);
    expect([rotated.status, deleted.status]).toEqual([404, 404]);
    expect(rotated.body.error).toMatchObject({ type: "not_found_error", code: "resource_not_found" });
    expect(deleted.body.error.code).toBe("resource_not_found");
    expect((await transactions(key)).status).toBe(200);
    expect((await list(owner.cookie)).body.data.map((k: { id: string }) => k.id)).toEqual([id]);
  });

  test("when the id is malformed, then 400 validation_failed; a well-formed unknown or other-kind id is 404", async () => {
    const owner = await signUpSteppedUp(ctx);

    const malformed = [
      await rotate(owner.cookie, "not-an-id"),
      await remove(owner.cookie, "key_%20x"),
      await remove(owner.cookie, `key_${"A".repeat(70)}`),
    ];
    const unknown = [
      await rotate(owner.cookie, "key_01JD3Z0000000000000000000Z"),
      await remove(owner.cookie, "txn_01JD3Z0000000000000000000Z"),
    ];

    for (const res of malformed)
      expect([res.status, res.body.error.code, res.body.error.param]).toEqual([400, "validation_failed", "id"]);
    for (const res of unknown) expect([res.status, res.body.error.code]).toEqual([404, "resource_not_found"]);
  });

  test("when an operator or a signed-out caller uses the routes, then 403 permission_denied or 401", async () => {
    const ops = await signInOps(ctx);

    const asOps = await list(ops.cookie);
    const signedOut = await request(ctx.app).get("/v1/me/api-keys");

    expect(asOps.status).toBe(403);
    expect(asOps.body.error.code).toBe("permission_denied");
    expect(signedOut.status).toBe(401);
  });
});
