/**
 * Second-factor guesses are limited per account (5 a minute) across sign-in challenges, step-up and
 * disable, whatever the number of challenges or client addresses; a right password resets neither that limit nor
 * the sign-in failure run; a run of wrong codes is mailed to the owner.
 */
import request from "supertest";
import { createPanelRateLimits, emailKey, SIGN_IN_LOCK_FAILURES } from "../../src/http/rate-limit";
import { useApiTestContext } from "../support/harness";
import { cookiePair, freshIp, mailsTo, PANEL_ORIGIN, waitForMail } from "../support/panel";
import { codeAt, panelPost, setClock, signUpWithTwoFactor, stepTime, type TwoFactorOwner } from "../support/two-factor";

describe("second-factor limits per account", () => {
  const ctx = useApiTestContext({ TRUST_PROXY: "loopback" });
  const limits = () => createPanelRateLimits(ctx.deps.redis, ctx.config.queuePrefix);

  /** A code that is not the right one at `ms`. */
  const wrongCode = (owner: TwoFactorOwner, ms: number) => (codeAt(owner.totp, ms) === "000000" ? "111111" : "000000");
  /** Signs in with the right password from a new address: the `lm.two_factor=...` challenge cookie. */
  const challenge = async (owner: TwoFactorOwner) => {
    const res = await request(ctx.app)
      .post("/v1/me/auth/sign-in/email")
      .set("X-Forwarded-For", freshIp())
      .send({ email: owner.email, password: owner.password });
    expect(res.body).toEqual({ twoFactorRedirect: true });
    return cookiePair(res, "lm.two_factor");
  };
  /** One second factor on a challenge, from a new address each time. */
  const verify = (cookie: string, code: string) =>
    request(ctx.app)
      .post("/v1/me/auth/two-factor/verify-totp")
      .set("Cookie", cookie)
      .set("Origin", PANEL_ORIGIN)
      .set("X-Forwarded-For", freshIp())
      .send({ code });

  test("when five challenges from five addresses each get one wrong code, then the account's sixth code, even the right one, is 429", async () => {
    const at = stepTime();
    const owner = await signUpWithTwoFactor(ctx, at);
    const later = at + 30_000;
    setClock(ctx, later);
    const sessions = await ctx.db.session.count({ where: { user_id: owner.user.id } });

    const statuses: number[] = [];
    let last = "";
    for (let i = 0; i < 5; i++) {
      last = await challenge(owner);
      statuses.push((await verify(last, wrongCode(owner, later))).status);
    }
    // The last challenge has four of its five tries left, and its address has tried once.
    const sixth = await verify(last, codeAt(owner.totp, later));

    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    expect(sixth.status).toBe(429);
    expect(sixth.body.error).toMatchObject({ type: "rate_limit_error", code: "rate_limited" });
    expect(Number(sixth.headers["retry-after"])).toBeGreaterThan(0);
    expect(await ctx.db.session.count({ where: { user_id: owner.user.id } })).toBe(sessions);
  });

  test("when wrong codes are spread over step-up, disable and a challenge, then they share one budget", async () => {
    const at = stepTime();
    const owner = await signUpWithTwoFactor(ctx, at);
    const later = at + 30_000;
    setClock(ctx, later);
    const stepUp = (code: string) =>
      panelPost(ctx, "/v1/me/auth/step-up", owner.cookie, { code, password: owner.password });

    const replies = [
      await stepUp(wrongCode(owner, later)),
      await stepUp(wrongCode(owner, later)),
      await panelPost(ctx, "/v1/me/auth/two-factor/disable", owner.cookie, { password: "not the password at all" }),
      await verify(await challenge(owner), wrongCode(owner, later)),
      await verify(await challenge(owner), wrongCode(owner, later)),
    ];
    const sixth = await stepUp(codeAt(owner.totp, later));

    // Without a step-up, disable is refused before the password is read (DESIGN §11), and the try still counts.
    expect(replies.map((r) => r.status)).toEqual([401, 401, 403, 401, 401]);
    expect(sixth.status).toBe(429);
    const session = await ctx.db.session.findFirstOrThrow({
      where: { user_id: owner.user.id },
      orderBy: { created_at: "asc" },
    });
    expect(session.mfa_verified_until).toBeNull();
  });

  test("when a right code follows wrong ones, then it is not counted and the run of wrong codes ends", async () => {
    const at = stepTime();
    const owner = await signUpWithTwoFactor(ctx, at);
    const later = at + 30_000;
    setClock(ctx, later);

    await verify(await challenge(owner), wrongCode(owner, later)).expect(401);
    const passed = await verify(await challenge(owner), codeAt(owner.totp, later));

    expect(passed.status).toBe(200);
    expect(await limits().secondFactorFailures.get(owner.user.id)).toBeNull();
    expect((await limits().secondFactorPerUser.get(owner.user.id))?.consumedPoints).toBe(1);
  });

  test("when the right password is entered again between wrong codes, then the run goes on and the owner is mailed once at the fifth", async () => {
    const at = stepTime();
    const owner = await signUpWithTwoFactor(ctx, at);
    const later = at + 30_000;
    setClock(ctx, later);

    for (let i = 0; i < 3; i++) await verify(await challenge(owner), wrongCode(owner, later)).expect(401);
    const beforeFifth = await mailsTo(ctx, owner.email, /Wrong two-factor codes/);
    for (let i = 0; i < 2; i++) await verify(await challenge(owner), wrongCode(owner, later)).expect(401);

    const mail = await waitForMail(ctx, owner.email, /Wrong two-factor codes/);
    expect(beforeFifth).toHaveLength(0);
    expect(mail.text).toMatch(/5 wrong two-factor codes in a row/);
    expect((await limits().secondFactorFailures.get(owner.user.id))?.consumedPoints).toBe(5);
  });

  test("when the right password opens a challenge after 19 failed sign-ins, then the failure run is kept until the challenge is passed", async () => {
    const at = stepTime();
    const owner = await signUpWithTwoFactor(ctx, at);
    const later = at + 30_000;
    setClock(ctx, later);
    await limits().signInFailures.penalty(emailKey(owner.email), SIGN_IN_LOCK_FAILURES - 1);

    const cookie = await challenge(owner);
    const kept = await limits().signInFailures.get(emailKey(owner.email));
    await verify(cookie, codeAt(owner.totp, later)).expect(200);

    expect(kept?.consumedPoints).toBe(SIGN_IN_LOCK_FAILURES - 1);
    expect(await limits().signInFailures.get(emailKey(owner.email))).toBeNull();
  });
});
