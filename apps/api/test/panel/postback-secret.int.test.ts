import request from "supertest";
import { decryptSecret, findSellerStore, setStepUpPrefs } from "@lm/domain";
import { useApiTestContext } from "../support/harness";
import { tablesContaining } from "../support/database-scan";
import { captureLogs, type MemoryTransport } from "../support/log-capture";
import { PANEL_ORIGIN, signInOps, signUpOwner } from "../support/panel";
import { signUpSteppedUp } from "../support/two-factor";

const SECRET = /^whsec_[A-Za-z0-9_-]{43}$/;

describe("store postback secret", () => {
  const ctx = useApiTestContext({ TRUST_PROXY: "loopback" });
  let logs: MemoryTransport;
  beforeAll(() => {
    logs = captureLogs(ctx.deps.logger);
  });

  const info = (cookie: string) => request(ctx.app).get("/v1/me/postback-secret").set("Cookie", cookie);
  const rotate = (cookie: string) =>
    request(ctx.app).post("/v1/me/postback-secret/rotate").set("Cookie", cookie).set("Origin", PANEL_ORIGIN);

  test("when the store never had a secret, then the info is all null", async () => {
    const owner = await signUpOwner(ctx);

    const res = await info(owner.cookie);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ prefix: null, rotated_at: null, previous_valid_until: null });
  });

  test("when the first secret is generated, then it is returned once, stored encrypted, and the info shows only its prefix", async () => {
    const owner = await signUpSteppedUp(ctx);

    const res = await rotate(owner.cookie);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      secret: expect.stringMatching(SECRET),
      prefix: res.body.secret.slice(6, 12),
      rotated_at: expect.any(String),
      previous_valid_until: null,
    });
    const shown = await info(owner.cookie);
    expect(shown.body).toEqual({
      prefix: res.body.prefix,
      rotated_at: res.body.rotated_at,
      previous_valid_until: null,
    });
    const store = await findSellerStore(ctx.deps.repos, owner.seller.id);
    expect(decryptSecret(ctx.config.encryptionKey, store.postback_secret_ciphertext!, store.id)).toBe(res.body.secret);
    expect(await tablesContaining(ctx.db, res.body.secret.slice(6))).toEqual([]);
    expect(JSON.stringify(logs.lines)).not.toContain(res.body.secret.slice(6));
    expect(logs.lines).toContainEqual(
      expect.objectContaining({
        message: "security event",
        event: "postback_secret.rotated",
        user_id: owner.user.id,
        seller_id: owner.seller.id,
        store_id: store.id,
      }),
    );
    const feed = (await request(ctx.app).get("/v1/me/notifications").set("Cookie", owner.cookie)).body.data;
    expect(feed).toEqual([
      expect.objectContaining({
        type: "postback_secret.rotated",
        title: "Postback secret rotated",
        data: { user_id: owner.user.id },
      }),
    ]);
    expect(JSON.stringify(feed)).not.toContain(res.body.secret.slice(6));
  });

  test("when the secret is rotated again, then a new one replaces it at once: previous_valid_until is the rotation time", async () => {
    const owner = await signUpSteppedUp(ctx);
    const first = (await rotate(owner.cookie).expect(200)).body;

    const second = (await rotate(owner.cookie).expect(200)).body;

    expect(second.secret).toMatch(SECRET);
    expect(second.secret).not.toBe(first.secret);
    expect(second.previous_valid_until).toBe(second.rotated_at);
    expect(Date.parse(second.rotated_at)).toBeGreaterThanOrEqual(Date.parse(first.rotated_at));
    expect((await info(owner.cookie)).body).toEqual({
      prefix: second.secret.slice(6, 12),
      rotated_at: second.rotated_at,
      previous_valid_until: second.rotated_at,
    });
  });

  test("when the account toggle is on, rotating needs a step-up; when it is off, it does not", async () => {
    const owner = await signUpOwner(ctx);

    const refused = await rotate(owner.cookie);
    const untouched = (await info(owner.cookie)).body.prefix;
    await setStepUpPrefs(ctx.deps.repos, owner.seller.id, { account: false });
    const allowed = await rotate(owner.cookie);

    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ type: "permission_error", code: "mfa_required" });
    expect(untouched).toBeNull();
    expect((await info(owner.cookie)).body.prefix).toBe(allowed.body.prefix);
    expect(allowed.status).toBe(200);
  });

  test("when an operator asks, then 403 permission_denied", async () => {
    const ops = await signInOps(ctx);

    const res = await info(ops.cookie);

    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("permission_denied");
  });
});
