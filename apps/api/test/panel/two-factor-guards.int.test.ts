import * as OTPAuth from "otpauth";
import request from "supertest";
import { useApiTestContext } from "../support/harness";
import {
  cookiePair,
  mailsTo,
  PANEL_ORIGIN,
  signInRequest,
  signUpOwner,
  tokenInMail,
  waitForMail,
  type SignedUpOwner,
} from "../support/panel";
import { codeAt, panelPost, setClock, signUpWithTwoFactor, STEP_MS, stepTime } from "../support/two-factor";

const HOUR = 3_600_000;
const LOCK_NOTICE = /^Withdrawals are locked/;

/** DESIGN §11 "Account-takeover guards": what a session and the password alone cannot do to a seller's money. */
describe("two-factor account-takeover guards", () => {
  const ctx = useApiTestContext({ TRUST_PROXY: "loopback" });
  afterEach(() => {
    ctx.deps.now = () => new Date();
  });
  const disable = (cookie: string, password: string) =>
    panelPost(ctx, "/v1/me/auth/two-factor/disable", cookie, { password });
  const lockOf = async (sellerId: string) =>
    (await ctx.db.seller.findUniqueOrThrow({ where: { id: sellerId } })).withdrawals_locked_until;
  /** The seller feed's items of type `seller.updated`, as a second owner reads them. */
  const lockFeed = async (reader: SignedUpOwner) =>
    (
      await request(ctx.app).get("/v1/me/notifications").set("Cookie", reader.cookie).set("Origin", PANEL_ORIGIN)
    ).body.data.filter((n: { type: string }) => n.type === "seller.updated");

  test("when 2FA is on and the session has no live step-up, then disable is 403 mfa_required and 2FA stays on", async () => {
    const enrolled = stepTime();
    const owner = await signUpWithTwoFactor(ctx, enrolled);
    const never = await disable(owner.cookie, owner.password);
    setClock(ctx, enrolled + STEP_MS);
    await panelPost(ctx, "/v1/me/auth/step-up", owner.cookie, {
      code: codeAt(owner.totp, enrolled + STEP_MS),
      password: owner.password,
    }).expect(200);
    setClock(ctx, enrolled + STEP_MS + ctx.config.stepUpWindowSeconds * 1000 + 1_000);

    const expired = await disable(owner.cookie, owner.password);

    for (const res of [never, expired]) {
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ type: "permission_error", code: "mfa_required" });
    }
    const user = await ctx.db.user.findUniqueOrThrow({ where: { id: owner.user.id } });
    expect(user.two_factor_enabled_at).not.toBeNull();
    expect(await lockOf(owner.seller.id)).toBeNull();
  });

  test("when a stepped-up owner disables 2FA, then withdrawals lock 24 h, seller.updated is recorded, every owner is mailed and the feed says so", async () => {
    const enrolled = stepTime();
    const owner = await signUpWithTwoFactor(ctx, enrolled);
    const partner = await signUpOwner(ctx, { seller: owner.seller });
    const at = enrolled + STEP_MS;
    setClock(ctx, at);
    await panelPost(ctx, "/v1/me/auth/step-up", owner.cookie, {
      code: codeAt(owner.totp, at),
      password: owner.password,
    }).expect(200);

    const res = await disable(owner.cookie, owner.password);

    expect(res.status).toBe(200);
    const until = new Date(at + 24 * HOUR);
    expect(await lockOf(owner.seller.id)).toEqual(until);
    const updated = await ctx.db.event.findFirstOrThrow({
      where: { type: "seller.updated", store: { seller_id: owner.seller.id } },
    });
    expect(updated.data).toMatchObject({ id: owner.seller.id, withdrawals_locked_until: until.toISOString() });
    const own = await waitForMail(ctx, owner.email, /Two-factor authentication is off/);
    expect(own.text).toContain(until.toISOString());
    const notice = await waitForMail(ctx, partner.email, LOCK_NOTICE);
    expect(notice.text).toContain(until.toISOString());
    expect(await lockFeed(partner)).toEqual([
      expect.objectContaining({
        title: "Withdrawals locked",
        message: expect.stringContaining(until.toISOString()),
        data: { fields: "withdrawals_locked_until", user_id: owner.user.id },
      }),
    ]);
  });

  test("when an enrolment is only pending, then disable drops it with the password alone and locks nothing", async () => {
    const owner = await signUpOwner(ctx);
    await panelPost(ctx, "/v1/me/auth/two-factor/enable", owner.cookie, { password: owner.password }).expect(200);

    const res = await disable(owner.cookie, owner.password);

    expect(res.status).toBe(200);
    const user = await ctx.db.user.findUniqueOrThrow({ where: { id: owner.user.id } });
    expect(user.totp_secret_ciphertext).toBeNull();
    expect(await lockOf(owner.seller.id)).toBeNull();
  });

  test("when an owner turns 2FA on for the first time, then withdrawals do not lock", async () => {
    const owner = await signUpWithTwoFactor(ctx);

    expect(await lockOf(owner.seller.id)).toBeNull();
    expect(await mailsTo(ctx, owner.email, LOCK_NOTICE)).toHaveLength(0);
  });

  test("when an owner enrols 2FA again after turning it off, then withdrawals lock 24 h again and every owner is told", async () => {
    const enrolled = stepTime();
    const owner = await signUpWithTwoFactor(ctx, enrolled);
    const partner = await signUpOwner(ctx, { seller: owner.seller });
    setClock(ctx, enrolled + STEP_MS);
    await panelPost(ctx, "/v1/me/auth/step-up", owner.cookie, {
      code: codeAt(owner.totp, enrolled + STEP_MS),
      password: owner.password,
    }).expect(200);
    await disable(owner.cookie, owner.password).expect(200);
    const later = enrolled + 25 * HOUR;
    setClock(ctx, later);
    const signedIn = await signInRequest(ctx, { email: owner.email, password: owner.password }).expect(200);
    const cookie = cookiePair(signedIn, "lm.session");
    const enabled = await panelPost(ctx, "/v1/me/auth/two-factor/enable", cookie, { password: owner.password });
    const totp = OTPAuth.URI.parse(enabled.body.totpURI) as OTPAuth.TOTP;

    const verified = await panelPost(ctx, "/v1/me/auth/two-factor/verify-totp", cookie, { code: codeAt(totp, later) });

    expect(verified.status).toBe(200);
    const until = new Date(later + 24 * HOUR);
    expect(await lockOf(owner.seller.id)).toEqual(until);
    const notice = await waitForMail(ctx, partner.email, LOCK_NOTICE);
    expect(notice.text).toContain("turned on again");
    expect(notice.text).toContain(until.toISOString());
    expect((await waitForMail(ctx, owner.email, /on again/)).text).toContain(until.toISOString());
  });

  test("when 2FA is recovered, then every other owner is mailed the lock too and the feed says so", async () => {
    const owner = await signUpWithTwoFactor(ctx);
    const partner = await signUpOwner(ctx, { seller: owner.seller });
    await request(ctx.app)
      .post("/v1/me/auth/two-factor/recovery/request")
      .send({ email: owner.email, password: owner.password })
      .expect(200);
    const token = tokenInMail(await waitForMail(ctx, owner.email, /Recover access/));

    const res = await request(ctx.app).post("/v1/me/auth/two-factor/recovery/confirm").send({ token });

    expect(res.status).toBe(200);
    const until = res.body.withdrawals_locked_until;
    expect((await waitForMail(ctx, partner.email, LOCK_NOTICE)).text).toContain(until);
    expect((await waitForMail(ctx, owner.email, /turned off by recovery/)).text).toContain(until);
    expect(await lockFeed(partner)).toEqual([
      expect.objectContaining({
        title: "Withdrawals locked",
        message: expect.stringContaining(until),
        data: { fields: "withdrawals_locked_until", user_id: owner.user.id },
      }),
    ]);
  });
});
