import request from "supertest";
import { useApiTestContext } from "../support/harness";
import { cookiePair, PANEL_ORIGIN, signInRequest, signUpOwner } from "../support/panel";
import {
  codeAt,
  panelPost,
  setClock,
  signUpWithTwoFactor,
  STEP_MS,
  stepTime,
  type TwoFactorOwner,
} from "../support/two-factor";

const WINDOW_SECONDS = 120;

describe("step-up", () => {
  const ctx = useApiTestContext({ TRUST_PROXY: "loopback", STEP_UP_WINDOW_SECONDS: String(WINDOW_SECONDS) });
  afterEach(() => {
    ctx.deps.now = () => new Date();
  });
  const stepUp = (cookie: string, body: Record<string, unknown>) => panelPost(ctx, "/v1/me/auth/step-up", cookie, body);
  const revokeSession = (cookie: string, id: string) =>
    request(ctx.app).delete(`/v1/me/sessions/${id}`).set("Cookie", cookie).set("Origin", PANEL_ORIGIN);
  const prefs = (cookie: string) => request(ctx.app).get("/v1/me/security/step-up-prefs").set("Cookie", cookie);
  const putPrefs = (cookie: string, body: Record<string, unknown>) =>
    request(ctx.app).put("/v1/me/security/step-up-prefs").set("Cookie", cookie).set("Origin", PANEL_ORIGIN).send(body);
  /** A second session of the owner, through a sign-in closed with a backup code. */
  const anotherSession = async (owner: TwoFactorOwner): Promise<string> => {
    const challenge = cookiePair(
      await signInRequest(ctx, { email: owner.email, password: owner.password }),
      "lm.two_factor",
    );
    const passed = await panelPost(ctx, "/v1/me/auth/two-factor/verify-backup-code", challenge, {
      code: owner.backupCodes[0],
    });
    return cookiePair(passed, "lm.session");
  };

  test("when the code and password are right, then mfa_verified_until is now + the window on this session", async () => {
    const enrolled = stepTime();
    const owner = await signUpWithTwoFactor(ctx, enrolled);
    const now = enrolled + STEP_MS;
    setClock(ctx, now);

    const res = await stepUp(owner.cookie, { code: codeAt(owner.totp, now), password: owner.password });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ mfa_verified_until: new Date(now + WINDOW_SECONDS * 1000).toISOString() });
    const session = await ctx.db.session.findFirstOrThrow({ where: { user_id: owner.user.id, revoked_at: null } });
    expect(session.mfa_verified_until).toEqual(new Date(now + WINDOW_SECONDS * 1000));
  });

  test("when 2FA is off, then 403 mfa_required", async () => {
    const owner = await signUpOwner(ctx);

    const res = await stepUp(owner.cookie, { code: "123456", password: owner.password });

    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ type: "permission_error", code: "mfa_required" });
  });

  test("when the code or the password is wrong, then 401 invalid_mfa_code and the code is not spent by a wrong password", async () => {
    const enrolled = stepTime();
    const owner = await signUpWithTwoFactor(ctx, enrolled);
    const now = enrolled + STEP_MS;
    setClock(ctx, now);
    const code = codeAt(owner.totp, now);

    const wrongCode = await stepUp(owner.cookie, {
      code: code === "000000" ? "000001" : "000000",
      password: owner.password,
    });
    const wrongPassword = await stepUp(owner.cookie, { code, password: "not the password" });
    const right = await stepUp(owner.cookie, { code, password: owner.password });

    expect([wrongCode.status, wrongPassword.status]).toEqual([401, 401]);
    expect(wrongCode.body.error).toMatchObject({ type: "authentication_error", code: "invalid_mfa_code" });
    expect(wrongPassword.body.error.code).toBe("invalid_mfa_code");
    expect(right.status).toBe(200);
  });

  test("when the code is malformed but its value is the right code, then it is refused", async () => {
    const enrolled = stepTime();
    const owner = await signUpWithTwoFactor(ctx, enrolled);
    const now = enrolled + STEP_MS;
    setClock(ctx, now);
    const code = codeAt(owner.totp, now);
    const send = (value: unknown) => stepUp(owner.cookie, { code: value, password: owner.password });

    const refused = [
      await send(` ${code}`),
      await send(`${code} `),
      await send(`+${code.slice(1)}`),
      await send(code.slice(1)),
    ];
    const asNumber = await send(Number(code));
    const asNull = await send(null);
    const right = await send(code);

    for (const res of refused) expect(res.body.error.code).toBe("invalid_mfa_code");
    expect([asNumber.status, asNull.status]).toEqual([400, 400]);
    expect(asNumber.body.error.param).toBe("code");
    expect(right.status).toBe(200);
  });

  test("when one code is sent 10 times at once, then exactly one step-up succeeds", async () => {
    const enrolled = stepTime();
    const owner = await signUpWithTwoFactor(ctx, enrolled);
    const now = enrolled + STEP_MS;
    setClock(ctx, now);
    const code = codeAt(owner.totp, now);

    const replies = await Promise.all(
      Array.from({ length: 10 }, () => stepUp(owner.cookie, { code, password: owner.password })),
    );

    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of replies.filter((r) => r.status !== 200))
      expect(["invalid_mfa_code", "rate_limited"]).toContain(r.body.error.code);
  });

  test("when step-ups exceed 5 a minute, then 429 rate_limited with Retry-After", async () => {
    const enrolled = stepTime();
    const owner = await signUpWithTwoFactor(ctx, enrolled);
    setClock(ctx, enrolled + STEP_MS);

    for (let i = 0; i < 5; i++) await stepUp(owner.cookie, { code: "000000", password: owner.password });
    const sixth = await stepUp(owner.cookie, {
      code: codeAt(owner.totp, enrolled + STEP_MS),
      password: owner.password,
    });

    expect(sixth.status).toBe(429);
    expect(sixth.body.error.code).toBe("rate_limited");
    expect(Number(sixth.headers["retry-after"])).toBeGreaterThan(0);
  });

  test("when a session is revoked, then a step-up is needed while the account toggle is on, and the window expires", async () => {
    const enrolled = stepTime();
    const owner = await signUpWithTwoFactor(ctx, enrolled);
    const other = await anotherSession(owner);
    const otherId = (await request(ctx.app).get("/v1/me/sessions").set("Cookie", other)).body.data.find(
      (s: { current: boolean }) => s.current,
    ).id;
    const now = enrolled + STEP_MS;
    setClock(ctx, now);

    const before = await revokeSession(owner.cookie, otherId);
    await stepUp(owner.cookie, { code: codeAt(owner.totp, now), password: owner.password });
    setClock(ctx, now + WINDOW_SECONDS * 1000 + 1000);
    const expired = await revokeSession(owner.cookie, otherId);
    setClock(ctx, now + WINDOW_SECONDS * 1000 - 1000);
    const within = await revokeSession(owner.cookie, otherId);

    expect(before.status).toBe(403);
    expect(before.body.error.code).toBe("mfa_required");
    expect(expired.status).toBe(403);
    expect(within.status).toBe(204);
  });

  test("when one session stepped up, then another session of the same user is not covered", async () => {
    const enrolled = stepTime();
    const owner = await signUpWithTwoFactor(ctx, enrolled);
    const other = await anotherSession(owner);
    const now = enrolled + STEP_MS;
    setClock(ctx, now);
    await stepUp(owner.cookie, { code: codeAt(owner.totp, now), password: owner.password });

    const fromOther = await putPrefs(other, { webhook: false });
    const fromStepped = await putPrefs(owner.cookie, { webhook: false });

    expect(fromOther.status).toBe(403);
    expect(fromOther.body.error.code).toBe("mfa_required");
    expect(fromStepped.status).toBe(200);
  });

  test("when prefs are read and changed, then both default on, PUT needs a step-up and returns the toggles after the change", async () => {
    const enrolled = stepTime();
    const owner = await signUpWithTwoFactor(ctx, enrolled);
    const now = enrolled + STEP_MS;
    setClock(ctx, now);

    const defaults = await prefs(owner.cookie);
    const refused = await putPrefs(owner.cookie, { account: false });
    await stepUp(owner.cookie, { code: codeAt(owner.totp, now), password: owner.password });
    const changed = await putPrefs(owner.cookie, { account: false, role: "ops" });
    const invalid = await putPrefs(owner.cookie, { webhook: "no" });

    expect(defaults.body).toEqual({ webhook: true, account: true });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("mfa_required");
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ webhook: true, account: false });
    expect(invalid.status).toBe(400);
    expect((await prefs(owner.cookie)).body).toEqual({ webhook: true, account: false });
  });

  test("when the account toggle is off, then a session is revoked without a step-up", async () => {
    const owner = await signUpOwner(ctx);
    await ctx.db.seller.update({ where: { id: owner.seller.id }, data: { step_up_account: false } });
    const other = cookiePair(await signInRequest(ctx, { email: owner.email, password: owner.password }), "lm.session");
    const otherId = (await request(ctx.app).get("/v1/me/sessions").set("Cookie", other)).body.data.find(
      (s: { current: boolean }) => s.current,
    ).id;

    const res = await revokeSession(owner.cookie, otherId);

    expect(res.status).toBe(204);
  });

  test("when an operator (no seller) reads the prefs, then 403 permission_denied", async () => {
    const operator = await signUpOwner(ctx);
    await ctx.db.user.update({ where: { id: operator.user.id }, data: { role: "ops", seller_id: null } });

    const res = await prefs(operator.cookie);

    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("permission_denied");
  });
});
