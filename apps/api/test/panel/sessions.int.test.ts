import cookieParser from "cookie-parser";
import express from "express";
import request from "supertest";
import { requireRole, requireSession } from "../../src/http/auth";
import { errorHandler } from "../../src/http/error-handler";
import { useApiTestContext } from "../support/harness";
import { cookiePair, PANEL_ORIGIN, setCookie, signInRequest, signUpOwner } from "../support/panel";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe("sessions", () => {
  const ctx = useApiTestContext({ TERMS_VERSION: "2026-05-01", TRUST_PROXY: "loopback" });
  const list = (cookie: string) => request(ctx.app).get("/v1/me/sessions").set("Cookie", cookie);
  const revoke = (cookie: string, id: string) =>
    request(ctx.app).delete(`/v1/me/sessions/${id}`).set("Cookie", cookie).set("Origin", PANEL_ORIGIN);
  const signIn = async (email: string, password: string, body: Record<string, unknown> = {}) =>
    cookiePair(await signInRequest(ctx, { email, password, ...body }), "lm.session");
  /** Runs `fn` with the API's clock `offsetMs` ahead. */
  const later = async <T>(offsetMs: number, fn: () => Promise<T>): Promise<T> => {
    const realNow = ctx.deps.now;
    ctx.deps.now = () => new Date(Date.now() + offsetMs);
    try {
      return await fn();
    } finally {
      ctx.deps.now = realNow;
    }
  };

  test("when listed, then the live sessions show with current marked and never a token", async () => {
    const owner = await signUpOwner(ctx);
    const other = await signIn(owner.email, owner.password);
    const ended = await signIn(owner.email, owner.password);
    await request(ctx.app).post("/v1/me/auth/sign-out").set("Cookie", ended).set("Origin", PANEL_ORIGIN);

    const res = await list(owner.cookie).set("User-Agent", "panel-test/1.0");

    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(2);
    for (const s of res.body.data) {
      expect(Object.keys(s).sort()).toEqual([
        "created_at",
        "current",
        "expires_at",
        "id",
        "ip_address",
        "last_seen_at",
        "user_agent",
      ]);
      expect(s.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
    expect(res.body.data.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(JSON.stringify(res.body)).not.toContain(owner.cookie.split("=")[1]);
    expect(JSON.stringify(res.body)).not.toContain(other.split("=")[1]);
    expect(res.body.data.map((s: { ip_address: string }) => s.ip_address)).toContain("127.0.0.1");
  });

  /** Session revocation needs a step-up while the seller's `account` toggle is on (two-factor tests cover that). */
  const withoutAccountStepUp = (sellerId: string) =>
    ctx.db.seller.update({ where: { id: sellerId }, data: { step_up_account: false } });

  test("when a session is revoked by ses_ id or by uuid, then 204 and its cookie is refused", async () => {
    const owner = await signUpOwner(ctx);
    await withoutAccountStepUp(owner.seller.id);
    const a = await signIn(owner.email, owner.password);
    const b = await signIn(owner.email, owner.password);
    const sessions = (await list(owner.cookie)).body.data as { id: string; current: boolean }[];
    const [idA, idB] = await Promise.all(
      [a, b].map(async (c) => (await list(c)).body.data.find((s: { current: boolean }) => s.current).id),
    );

    const byPublicId = await revoke(owner.cookie, `ses_${String(idA).replace(/-/g, "")}`);
    const byUuid = await revoke(owner.cookie, String(idB));

    expect(sessions).toHaveLength(3);
    expect([byPublicId.status, byUuid.status]).toEqual([204, 204]);
    expect((await list(a)).status).toBe(401);
    expect((await list(b)).status).toBe(401);
    expect((await list(owner.cookie)).status).toBe(200);
  });

  test("when another user's session id, an unknown, a revoked or a malformed id is deleted, then 404", async () => {
    const owner = await signUpOwner(ctx);
    await withoutAccountStepUp(owner.seller.id);
    const stranger = await signUpOwner(ctx);
    const strangerId = (await list(stranger.cookie)).body.data[0].id as string;
    const mine = await signIn(owner.email, owner.password);
    const mineId = (await list(mine)).body.data.find((s: { current: boolean }) => s.current).id as string;
    await revoke(owner.cookie, mineId);

    const foreign = await revoke(owner.cookie, strangerId);
    const foreignPublic = await revoke(owner.cookie, `ses_${strangerId.replace(/-/g, "")}`);
    const unknown = await revoke(owner.cookie, crypto.randomUUID());
    const again = await revoke(owner.cookie, mineId);
    const malformed = await revoke(owner.cookie, "key_123");

    for (const res of [foreign, foreignPublic, unknown, again, malformed]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("resource_not_found");
    }
    expect((await list(stranger.cookie)).status).toBe(200);
  });

  test("when the cookie is missing, tampered or signed out, then 401 authentication_required", async () => {
    const owner = await signUpOwner(ctx);
    const token = owner.cookie.split("=")[1] ?? "";
    const tampered = `lm.session=${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    const signedOut = await signIn(owner.email, owner.password);
    const out = await request(ctx.app)
      .post("/v1/me/auth/sign-out")
      .set("Cookie", signedOut)
      .set("Origin", PANEL_ORIGIN);

    const none = await request(ctx.app).get("/v1/me/sessions");
    const bad = await list(tampered);
    const afterSignOut = await list(signedOut);

    expect(out.status).toBe(200);
    expect(out.body).toEqual({ status: true });
    expect(setCookie(out, "lm.session")).toMatch(/^lm\.session=; Path=\/; Expires=Thu, 01 Jan 1970/);
    for (const res of [none, bad, afterSignOut]) {
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ type: "authentication_error", code: "authentication_required" });
    }
    expect((await list(owner.cookie)).status).toBe(200);
  });

  test("when a cookie-authenticated POST comes from another origin or none, then 403 permission_denied", async () => {
    const owner = await signUpOwner(ctx);
    const post = () =>
      request(ctx.app).post("/v1/me/terms/accept").set("Cookie", owner.cookie).send({ version: "2026-05-01" });

    const evil = await post().set("Origin", "https://evil.example");
    const evilReferer = await post().set("Referer", "https://evil.example/panel");
    const none = await post();
    const nullOrigin = await post().set("Origin", "null");
    const viaReferer = await post().set("Referer", `${PANEL_ORIGIN}/settings`);
    const viaOrigin = await post().set("Origin", PANEL_ORIGIN);

    for (const res of [evil, evilReferer, none, nullOrigin]) {
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ type: "permission_error", code: "permission_denied" });
    }
    expect([viaReferer.status, viaOrigin.status]).toEqual([204, 204]);
  });

  test("when a sign-out carrying a cookie comes from another origin, then 403 and the session lives", async () => {
    const owner = await signUpOwner(ctx);

    const res = await request(ctx.app)
      .post("/v1/me/auth/sign-out")
      .set("Cookie", owner.cookie)
      .set("Origin", "https://evil.example");

    expect(res.status).toBe(403);
    expect((await list(owner.cookie)).status).toBe(200);
  });

  test("when the session is used after more than a minute, then last_seen_at and expires_at slide; within a minute nothing is written", async () => {
    const owner = await signUpOwner(ctx);
    const before = await ctx.db.session.findFirstOrThrow({ where: { user_id: owner.user.id } });

    await later(30_000, () => list(owner.cookie));
    const unchanged = await ctx.db.session.findUniqueOrThrow({ where: { id: before.id } });
    const res = await later(3 * DAY, () => list(owner.cookie));
    const slid = await ctx.db.session.findUniqueOrThrow({ where: { id: before.id } });

    expect(unchanged.last_seen_at).toEqual(before.last_seen_at);
    expect(slid.last_seen_at.getTime() - before.last_seen_at.getTime()).toBeGreaterThanOrEqual(3 * DAY);
    expect(slid.expires_at.getTime() - slid.last_seen_at.getTime()).toBe(7 * DAY);
    expect(setCookie(res, "lm.session")).toMatch(/; Max-Age=604800; /);
  });

  test("when unused for 7 days, then the session is over", async () => {
    const owner = await signUpOwner(ctx);

    const res = await later(7 * DAY + MINUTE, () => list(owner.cookie));

    expect(res.status).toBe(401);
  });

  test("when kept alive past 30 days, then the absolute cap ends it", async () => {
    const owner = await signUpOwner(ctx);
    for (const day of [6, 12, 18, 24, 29]) expect((await later(day * DAY, () => list(owner.cookie))).status).toBe(200);

    const capped = await later(30 * DAY + MINUTE, () => list(owner.cookie));

    expect(capped.status).toBe(401);
  });

  test("when a rememberMe false session is 24 h old, then it is over even if used", async () => {
    const owner = await signUpOwner(ctx);
    const cookie = await signIn(owner.email, owner.password, { rememberMe: false });
    expect((await later(23 * 60 * MINUTE, () => list(cookie))).status).toBe(200);

    const res = await later(DAY + MINUTE, () => list(cookie));

    expect(res.status).toBe(401);
  });

  test("when the terms version is current, then 204 and it is kept; another version is 400 validation_failed", async () => {
    const owner = await signUpOwner(ctx);
    const accept = (version: unknown) =>
      request(ctx.app)
        .post("/v1/me/terms/accept")
        .set("Cookie", owner.cookie)
        .set("Origin", PANEL_ORIGIN)
        .send({ version });

    const wrong = await accept("2025-01-01");
    const right = await accept("2026-05-01");

    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ code: "validation_failed", param: "version" });
    expect(right.status).toBe(204);
    const user = await ctx.db.user.findUniqueOrThrow({ where: { id: owner.user.id } });
    expect(user.terms_version).toBe("2026-05-01");
  });

  test("when a route needs the ops role, then an owner gets 403 and an operator passes", async () => {
    const app = express()
      .use(cookieParser())
      .get("/ops-only", requireSession(ctx.deps), requireRole("ops"), (_req, res) => void res.json({ ok: true }))
      .use(errorHandler(ctx.deps.logger));
    const owner = await signUpOwner(ctx);
    const operator = await signUpOwner(ctx);
    await ctx.db.user.update({ where: { id: operator.user.id }, data: { role: "ops", seller_id: null } });

    const refused = await request(app).get("/ops-only").set("Cookie", owner.cookie);
    const allowed = await request(app).get("/ops-only").set("Cookie", operator.cookie);
    const anonymous = await request(app).get("/ops-only");

    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("permission_denied");
    expect(allowed.status).toBe(200);
    expect(anonymous.status).toBe(401);
  });
});
