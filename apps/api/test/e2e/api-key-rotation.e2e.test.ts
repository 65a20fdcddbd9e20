import request from "supertest";
import { waitUntil } from "@lm/testing";
import { useE2eTestContext } from "./support/e2e-harness";
import { captureLogs, type MemoryTransport } from "../support/log-capture";
import { merchantClient } from "../support/merchant-client";
import { PANEL_ORIGIN } from "../support/panel";
import { signUpSteppedUp, type TwoFactorOwner } from "../support/two-factor";

const DAY_MS = 24 * 60 * 60 * 1000;

describe("API key rotation", () => {
  const ctx = useE2eTestContext();
  let logs: MemoryTransport;
  beforeAll(() => {
    logs = captureLogs(ctx.deps.logger);
  });

  const create = (owner: TwoFactorOwner, name: string) =>
    request(ctx.app)
      .post("/v1/me/api-keys")
      .set("Cookie", owner.cookie)
      .set("Origin", PANEL_ORIGIN)
      .send({ name, mode: "test" });
  const rotate = (owner: TwoFactorOwner, id: string) =>
    request(ctx.app).post(`/v1/me/api-keys/${id}/rotate`).set("Cookie", owner.cookie).set("Origin", PANEL_ORIGIN);
  const list = (owner: TwoFactorOwner) => request(ctx.app).get("/v1/me/api-keys").set("Cookie", owner.cookie);
  const transactions = (key: string) => merchantClient(ctx.app, key).get("/v1/transactions");

  test("when a key is rotated, then 201 gives a new key once and the old one works for 24 h, listed with its revoke_at", async () => {
    const owner = await signUpSteppedUp(ctx);
    const old = (await create(owner, "checkout").expect(201)).body;
    const before = Date.now();

    const res = await rotate(owner, old.id);

    expect(res.status).toBe(201);
    const { key, old_key_revoke_at: oldKeyRevokeAt, ...view } = res.body;
    expect(key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(view).toMatchObject({
      object: "api_key",
      name: "checkout",
      mode: "test",
      key_prefix: key.slice(0, 12),
      revoke_at: null,
    });
    expect(Date.parse(oldKeyRevokeAt)).toBeGreaterThanOrEqual(before + DAY_MS);
    expect(Date.parse(oldKeyRevokeAt)).toBeLessThanOrEqual(Date.now() + DAY_MS);
    const listed = (await list(owner)).body.data;
    expect(listed).toEqual([view, { ...old, key: undefined, revoke_at: oldKeyRevokeAt }]);
    expect((await transactions(old.key)).status).toBe(200);
    expect((await transactions(key)).status).toBe(200);
    expect(JSON.stringify(listed)).not.toMatch(/"key":/);
    expect(JSON.stringify(logs.lines)).not.toContain(key.slice(8));
    expect(logs.lines).toContainEqual(
      expect.objectContaining({
        message: "security event",
        event: "api_key.rotated",
        key_id: old.id,
        new_key_id: view.id,
      }),
    );
  });

  test("when a rotated key is rotated again, then 409 invalid_state and no key is added", async () => {
    const owner = await signUpSteppedUp(ctx);
    const old = (await create(owner, "twice").expect(201)).body;
    await rotate(owner, old.id).expect(201);

    const again = await rotate(owner, old.id);

    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("invalid_state");
    expect((await list(owner)).body.data).toHaveLength(2);
  });

  test("when the grace window ends, then the old key fails at once, and the revocation job marks it revoked", async () => {
    const owner = await signUpSteppedUp(ctx);
    const old = (await create(owner, "ending").expect(201)).body;
    const rotated = (await rotate(owner, old.id).expect(201)).body;
    const ended = new Date(Date.now() - 1000);
    await ctx.db.apiKey.update({ where: { id: old.id }, data: { revoke_at: ended } });

    const refused = await transactions(old.key);
    await ctx.worker.producer.enqueue("key-revocation", { data: {} });
    const revoked = await waitUntil("the old key revoked", async () => {
      const row = await ctx.db.apiKey.findUniqueOrThrow({ where: { id: old.id } });
      return row.revoked_at;
    });

    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("authentication_required");
    expect(revoked).toEqual(ended);
    expect((await ctx.db.apiKey.findUniqueOrThrow({ where: { id: rotated.id } })).revoked_at).toBeNull();
    expect((await transactions(rotated.key)).status).toBe(200);
    expect((await list(owner)).body.data.map((k: { id: string }) => k.id)).toEqual([rotated.id]);
  });
});
