import { acceptTotpCode, decryptSecret } from "@lm/domain";
import * as OTPAuth from "otpauth";
import request from "supertest";
import { useApiTestContext } from "../support/harness";
import {
  cookiePair,
  freshIp,
  PANEL_ORIGIN,
  setCookie,
  signInRequest,
  signUpOwner,
  tokenInMail,
  waitForMail,
} from "../support/panel";
import {
  codeAt,
  panelPost,
  setClock,
  signUpWithTwoFactor,
  STEP_MS,
  stepTime,
  type TwoFactorOwner,
} from "../support/two-factor";

describe("two-factor authentication", () => {
  const ctx = useApiTestContext({ TRUST_PROXY: "loopback" });
  afterEach(() => {
    ctx.deps.now = () => new Date();
  });
  const sessions = (cookie: string) => request(ctx.app).get("/v1/me/sessions").set("Cookie", cookie);
  /** Signs in with the password; returns the reply and the challenge cookie pair, if any. */
  const signIn = async (owner: TwoFactorOwner, extraCookie?: string) => {
    const req = request(ctx.app).post("/v1/me/auth/sign-in/email").set("X-Forwarded-For", freshIp());
    if (extraCookie) req.set("Cookie", extraCookie).set("Origin", PANEL_ORIGIN);
    const res = await req.send({ email: owner.email, password: owner.password });
    return { res, challenge: setCookie(res, "lm.two_factor") ? cookiePair(res, "lm.two_factor") : "" };
  };
  const verify = (challenge: string, body: Record<string, unknown>, path = "verify-totp") =>
    request(ctx.app)
      .post(`/v1/me/auth/two-factor/${path}`)
      .set("Cookie", challenge)
      .set("Origin", PANEL_ORIGIN)
      .set("X-Forwarded-For", freshIp())
      .send(body);

  /** An owner with 2FA on and a second session, on a device trusted by `trustDevice: true`. */
  const signInTrusted = async () => {
    const enrolled = stepTime();
    const owner = await signUpWithTwoFactor(ctx, enrolled);
    setClock(ctx, enrolled + STEP_MS);
    const { challenge } = await signIn(owner);
    const passed = await verify(challenge, { code: codeAt(owner.totp, enrolled + STEP_MS), trustDevice: true });
    return { owner, passed, device: cookiePair(passed, "lm.trust_device") };
  };

  test("when enabled, then totp URI and 10 backup codes; 2FA is on only after the first valid code, on a new session", async () => {
    const at = stepTime();
    setClock(ctx, at);
    const owner = await signUpOwner(ctx);

    const enabled = await panelPost(ctx, "/v1/me/auth/two-factor/enable", owner.cookie, {
      password: owner.password,
      method: "totp",
    });
    const pending = await ctx.db.user.findUniqueOrThrow({ where: { id: owner.user.id } });
    const signInWhilePending = await signInRequest(ctx, { email: owner.email, password: owner.password });
    const totp = OTPAuth.URI.parse(enabled.body.totpURI) as OTPAuth.TOTP;
    const verified = await panelPost(ctx, "/v1/me/auth/two-factor/verify-totp", owner.cookie, {
      code: codeAt(totp, at),
    });

    expect(enabled.status).toBe(200);
    expect(enabled.body).toEqual({
      method: "totp",
      totpURI: expect.stringMatching(/^otpauth:\/\/totp\/LM%20Pix:/),
      backupCodes: expect.any(Array),
    });
    expect(enabled.body.backupCodes).toHaveLength(10);
    expect(pending.two_factor_enabled_at).toBeNull();
    expect(signInWhilePending.body.user).toBeDefined();
    expect(verified.status).toBe(200);
    expect(verified.body.user).toMatchObject({ id: owner.user.id, email: owner.email });
    expect(cookiePair(verified, "lm.session")).not.toBe(owner.cookie);
    expect((await sessions(owner.cookie)).status).toBe(401);
    expect((await sessions(cookiePair(verified, "lm.session"))).status).toBe(200);
    const on = await ctx.db.user.findUniqueOrThrow({ where: { id: owner.user.id } });
    expect(on.two_factor_enabled_at).toEqual(new Date(at));
    await waitForMail(ctx, owner.email, /Two-factor authentication is on/);
  });

  test("when stored, then the secret is encrypted with the user id as associated data", async () => {
    const owner = await signUpWithTwoFactor(ctx);
    const user = await ctx.db.user.findUniqueOrThrow({ where: { id: owner.user.id } });
    const ciphertext = user.totp_secret_ciphertext ?? "";

    expect(ciphertext).not.toContain(owner.totp.secret.base32);
    expect(ciphertext.toLowerCase()).not.toContain(owner.totp.secret.hex.toLowerCase());
    expect(decryptSecret(ctx.config.encryptionKey, ciphertext, user.id)).toBe(owner.totp.secret.hex.toLowerCase());
    expect(() => decryptSecret(ctx.config.encryptionKey, ciphertext, crypto.randomUUID())).toThrow();
    const codes = await ctx.db.backupCode.findMany({ where: { user_id: user.id } });
    expect(codes).toHaveLength(10);
    for (const code of owner.backupCodes) expect(JSON.stringify(codes)).not.toContain(code);
  });

  test("when enable is called again while 2FA is on, then 409 invalid_state and the secret is unchanged", async () => {
    const owner = await signUpWithTwoFactor(ctx);
    const before = await ctx.db.user.findUniqueOrThrow({ where: { id: owner.user.id } });

    const res = await panelPost(ctx, "/v1/me/auth/two-factor/enable", owner.cookie, { password: owner.password });

    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("invalid_state");
    const after = await ctx.db.user.findUniqueOrThrow({ where: { id: owner.user.id } });
    expect(after.totp_secret_ciphertext).toBe(before.totp_secret_ciphertext);
  });

  test("when enable gets a wrong password, or verify-totp a wrong code, then 401 and 2FA stays off", async () => {
    setClock(ctx, stepTime());
    const owner = await signUpOwner(ctx);

    const wrongPassword = await panelPost(ctx, "/v1/me/auth/two-factor/enable", owner.cookie, {
      password: "not my password",
    });
    await panelPost(ctx, "/v1/me/auth/two-factor/enable", owner.cookie, { password: owner.password });
    const wrongCode = await panelPost(ctx, "/v1/me/auth/two-factor/verify-totp", owner.cookie, { code: "000000" });

    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body.error.code).toBe("invalid_credentials");
    expect(wrongCode.status).toBe(401);
    expect(wrongCode.body.error.code).toBe("invalid_mfa_code");
    expect((await ctx.db.user.findUniqueOrThrow({ where: { id: owner.user.id } })).two_factor_enabled_at).toBeNull();
  });

  test("when a user with 2FA signs in, then {twoFactorRedirect: true}, no session, and the challenge cookie leads to a session", async () => {
    const enrolled = stepTime();
    const owner = await signUpWithTwoFactor(ctx, enrolled);
    setClock(ctx, enrolled + STEP_MS);

    const { res, challenge } = await signIn(owner);
    const passed = await verify(challenge, { code: codeAt(owner.totp, enrolled + STEP_MS) });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ twoFactorRedirect: true });
    expect(setCookie(res, "lm.session")).toBeUndefined();
    expect(setCookie(res, "lm.two_factor")).toMatch(
      /^lm\.two_factor=[\w-]{43}; Max-Age=600; Path=\/; Expires=.+; HttpOnly; SameSite=Lax$/,
    );
    expect(passed.status).toBe(200);
    expect(passed.body.user).toMatchObject({ id: owner.user.id });
    expect((await sessions(cookiePair(passed, "lm.session"))).status).toBe(200);
    expect(setCookie(passed, "lm.two_factor")).toMatch(/^lm\.two_factor=; /);
    expect(setCookie(passed, "lm.trust_device")).toBeUndefined();
  });

  test("when the code is from step T-1 or T+1, then it is accepted; T-2 and T+2 are refused", async () => {
    const enrolled = stepTime();
    const owner = await signUpWithTwoFactor(ctx, enrolled);
    const now = enrolled + 5 * STEP_MS;
    setClock(ctx, now);

    const first = await signIn(owner);
    const tooOld = await verify(first.challenge, { code: codeAt(owner.totp, now - 2 * STEP_MS) });
    const tooNew = await verify(first.challenge, { code: codeAt(owner.totp, now + 2 * STEP_MS) });
    const previous = await verify(first.challenge, { code: codeAt(owner.totp, now - STEP_MS) });
    const second = await signIn(owner);
    const next = await verify(second.challenge, { code: codeAt(owner.totp, now + STEP_MS) });

    expect([tooOld.status, tooNew.status]).toEqual([401, 401]);
    expect(tooOld.body.error.code).toBe("invalid_mfa_code");
    expect(previous.status).toBe(200);
    expect(next.status).toBe(200);
  });

  test("when a code accepted at sign-in is sent again to step-up, then it is refused as a replay, saying to wait for the next code", async () => {
    const enrolled = stepTime();
    const owner = await signUpWithTwoFactor(ctx, enrolled);
    const now = enrolled + 2 * STEP_MS;
    setClock(ctx, now);
    const code = codeAt(owner.totp, now);
    const { challenge } = await signIn(owner);
    const signedIn = await verify(challenge, { code });
    const cookie = cookiePair(signedIn, "lm.session");

    const replayed = await panelPost(ctx, "/v1/me/auth/step-up", cookie, { code, password: owner.password });
    const wrong = await panelPost(ctx, "/v1/me/auth/step-up", cookie, {
      code: codeAt(owner.totp, now - 20 * STEP_MS),
      password: owner.password,
    });

    expect(signedIn.status).toBe(200);
    expect(replayed.status).toBe(401);
    expect(replayed.body.error.code).toBe("invalid_mfa_code");
    expect(replayed.body.error.message).toMatch(/already used; wait for the next one in your authenticator app/);
    expect([wrong.status, wrong.body.error.code, wrong.body.error.message]).toEqual([
      401,
      "invalid_mfa_code",
      "The code is not valid.",
    ]);
    expect(await ctx.db.session.count({ where: { user_id: owner.user.id, mfa_verified_until: { not: null } } })).toBe(
      0,
    );
  });

  test("when 10 checks of one code run at once, then exactly one is accepted", async () => {
    const enrolled = stepTime();
    const owner = await signUpWithTwoFactor(ctx, enrolled);
    const now = new Date(enrolled + STEP_MS);
    const user = await ctx.db.user.findUniqueOrThrow({ where: { id: owner.user.id } });
    const code = codeAt(owner.totp, now.getTime());

    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, () => acceptTotpCode(ctx.deps.repos, ctx.config.encryptionKey, { user, code, now })),
    );

    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    for (const o of outcomes) if (o.status === "rejected") expect(o.reason.code).toBe("invalid_mfa_code");
  });

  test("when a backup code passes a challenge, then it works once; a second challenge refuses it", async () => {
    const owner = await signUpWithTwoFactor(ctx);
    const backupCode = owner.backupCodes[3] ?? "";

    const first = await signIn(owner);
    const passed = await verify(first.challenge, { code: backupCode.toUpperCase() }, "verify-backup-code");
    const second = await signIn(owner);
    const reused = await verify(second.challenge, { code: backupCode }, "verify-backup-code");
    const other = await verify(second.challenge, { code: owner.backupCodes[4] }, "verify-backup-code");

    expect(passed.status).toBe(200);
    expect(cookiePair(passed, "lm.session")).toMatch(/^lm\.session=/);
    expect(reused.status).toBe(401);
    expect(reused.body.error.code).toBe("invalid_mfa_code");
    expect(other.status).toBe(200);
  });

  test("when new backup codes are generated, then the old ones stop working and the new ones work", async () => {
    const owner = await signUpWithTwoFactor(ctx);

    const wrong = await panelPost(ctx, "/v1/me/auth/two-factor/generate-backup-codes", owner.cookie, {
      password: "wrong password",
    });
    const fresh = await panelPost(ctx, "/v1/me/auth/two-factor/generate-backup-codes", owner.cookie, {
      password: owner.password,
    });
    const { challenge } = await signIn(owner);
    const old = await verify(challenge, { code: owner.backupCodes[0] }, "verify-backup-code");
    const renewed = await verify(challenge, { code: fresh.body.backupCodes[0] }, "verify-backup-code");

    expect(wrong.status).toBe(401);
    expect(fresh.status).toBe(200);
    expect(fresh.body.backupCodes).toHaveLength(10);
    expect(fresh.body.backupCodes).not.toContain(owner.backupCodes[0]);
    expect(old.status).toBe(401);
    expect(renewed.status).toBe(200);
  });

  test("when the challenge is older than 10 minutes, then it is over (401) even with the right code", async () => {
    const enrolled = stepTime();
    const owner = await signUpWithTwoFactor(ctx, enrolled);
    setClock(ctx, enrolled + STEP_MS);
    const { challenge } = await signIn(owner);
    const later = enrolled + STEP_MS + 10 * 60_000 + 1_000;
    setClock(ctx, later);

    const res = await verify(challenge, { code: codeAt(owner.totp, later) });

    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("authentication_required");
    expect(setCookie(res, "lm.session")).toBeUndefined();
  });

  test("when 5 wrong codes are sent to one challenge, then it is burned and the right code is refused after", async () => {
    const enrolled = stepTime();
    const owner = await signUpWithTwoFactor(ctx, enrolled);
    const now = enrolled + STEP_MS;
    setClock(ctx, now);
    const { challenge } = await signIn(owner);
    const right = codeAt(owner.totp, now);
    const wrong = right === "111111" ? "222222" : "111111";

    const tries: number[] = [];
    for (let i = 0; i < 5; i++) tries.push((await verify(challenge, { code: wrong })).status);
    const after = await verify(challenge, { code: right });

    expect(tries).toEqual([401, 401, 401, 401, 401]);
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe("authentication_required");
    const stored = await ctx.db.twoFactorChallenge.findFirstOrThrow({ where: { user_id: owner.user.id } });
    expect(stored.consumed_at).not.toBeNull();
  });

  test("when there is no challenge cookie, then verify-backup-code is 401 authentication_required", async () => {
    const res = await request(ctx.app).post("/v1/me/auth/two-factor/verify-backup-code").send({ code: "abcdefgh23" });

    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("authentication_required");
  });

  test("when trustDevice is asked, then the device skips the challenge next time and its cookie rotates on use", async () => {
    const { owner, passed, device } = await signInTrusted();

    const trusted = await signIn(owner, device);
    const rotated = cookiePair(trusted.res, "lm.trust_device");
    const copied = await signIn(owner, device);

    expect(setCookie(passed, "lm.trust_device")).toMatch(/; Max-Age=2592000; Path=\/; .*HttpOnly; SameSite=Lax$/);
    expect(trusted.res.body.user).toMatchObject({ id: owner.user.id });
    expect(setCookie(trusted.res, "lm.session")).toBeDefined();
    expect(rotated).not.toBe(device);
    expect(copied.res.body).toEqual({ twoFactorRedirect: true });
    expect((await signIn(owner, rotated)).res.body.user).toBeDefined();
  });

  test("when 2FA is disabled, then every session and trusted device ends, sign-in needs no code, and a notice is mailed", async () => {
    const { owner, passed, device } = await signInTrusted();
    const at = stepTime(2);
    setClock(ctx, at);
    await panelPost(ctx, "/v1/me/auth/step-up", owner.cookie, {
      code: codeAt(owner.totp, at),
      password: owner.password,
    }).expect(200);

    const wrong = await panelPost(ctx, "/v1/me/auth/two-factor/disable", owner.cookie, { password: "wrong password" });
    const res = await panelPost(ctx, "/v1/me/auth/two-factor/disable", owner.cookie, { password: owner.password });
    const again = await panelPost(ctx, "/v1/me/auth/two-factor/disable", cookiePair(passed, "lm.session"), {
      password: owner.password,
    });

    expect(wrong.status).toBe(401);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
    expect((await sessions(owner.cookie)).status).toBe(401);
    expect(again.status).toBe(401);
    expect(await ctx.db.trustedDevice.count({ where: { user_id: owner.user.id, revoked_at: null } })).toBe(0);
    const plain = await signIn(owner, device);
    expect(plain.res.body.user).toMatchObject({ id: owner.user.id });
    expect(setCookie(plain.res, "lm.trust_device")).toBeUndefined();
    await waitForMail(ctx, owner.email, /Two-factor authentication is off/);
    const off = await panelPost(ctx, "/v1/me/auth/two-factor/disable", cookiePair(plain.res, "lm.session"), {
      password: owner.password,
    });
    expect(off.status).toBe(409);
  });

  test("when the password is reset, then trusted devices are revoked too", async () => {
    const { owner, device } = await signInTrusted();
    await request(ctx.app).post("/v1/me/auth/request-password-reset").send({ email: owner.email });
    const token = tokenInMail(await waitForMail(ctx, owner.email, /Reset your password/));
    await request(ctx.app).post("/v1/me/auth/reset-password").send({ token, newPassword: "another long passphrase" });

    const res = await signIn({ ...owner, password: "another long passphrase" }, device);

    expect(res.res.body).toEqual({ twoFactorRedirect: true });
    expect(
      (await ctx.db.user.findUniqueOrThrow({ where: { id: owner.user.id } })).two_factor_enabled_at,
    ).not.toBeNull();
  });

  test("when one IP sends a 6th second factor in a minute, then 429 rate_limited", async () => {
    const owner = await signUpWithTwoFactor(ctx);
    const ip = freshIp();
    const attempt = (challenge: string) =>
      request(ctx.app)
        .post("/v1/me/auth/two-factor/verify-backup-code")
        .set("Cookie", challenge)
        .set("Origin", PANEL_ORIGIN)
        .set("X-Forwarded-For", ip)
        .send({ code: "zzzzzzzzzz" });

    const first = await signIn(owner);
    for (let i = 0; i < 4; i++) expect((await attempt(first.challenge)).status).toBe(401);
    const second = await signIn(owner);
    expect((await attempt(second.challenge)).status).toBe(401);
    const sixth = await attempt(second.challenge);

    expect(sixth.status).toBe(429);
    expect(sixth.body.error.code).toBe("rate_limited");
  });

  test("when a user calls enable, disable or generate-backup-codes a 6th time in a minute, then 429", async () => {
    const owner = await signUpWithTwoFactor(ctx);
    const wrong = { password: "not the password" };
    // Enrolment (enable and verify-totp) used two of the five.
    await panelPost(ctx, "/v1/me/auth/two-factor/disable", owner.cookie, wrong);
    await panelPost(ctx, "/v1/me/auth/two-factor/generate-backup-codes", owner.cookie, wrong);
    await panelPost(ctx, "/v1/me/auth/two-factor/disable", owner.cookie, wrong);
    const sixth = await panelPost(ctx, "/v1/me/auth/two-factor/disable", owner.cookie, { password: owner.password });

    expect(sixth.status).toBe(429);
    expect(
      (await ctx.db.user.findUniqueOrThrow({ where: { id: owner.user.id } })).two_factor_enabled_at,
    ).not.toBeNull();
  });
});
