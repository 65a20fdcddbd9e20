import request from "supertest";
import { useApiTestContext } from "../support/harness";
import {
  cookiePair,
  freshIp,
  mailsTo,
  PANEL_ORIGIN,
  signInRequest,
  signUpOwner,
  tokenInMail,
  uniqueEmail,
  waitForMail,
} from "../support/panel";
import { codeAt, panelPost, setClock, signUpWithTwoFactor, STEP_MS, stepTime } from "../support/two-factor";

const RECOVERY_SUBJECT = /Recover access/;
const HOUR = 3_600_000;

describe("lost-2FA recovery", () => {
  const ctx = useApiTestContext({ TRUST_PROXY: "loopback" });
  afterEach(() => {
    ctx.deps.now = () => new Date();
  });
  const requestRecovery = (body: Record<string, unknown>) =>
    request(ctx.app).post("/v1/me/auth/two-factor/recovery/request").set("X-Forwarded-For", freshIp()).send(body);
  const confirm = (token: unknown) => request(ctx.app).post("/v1/me/auth/two-factor/recovery/confirm").send({ token });
  /** Waits long enough for a mail that is not coming to have been written. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

  test("when the owner confirms the mailed token, then 2FA is off, sessions and devices end and withdrawals lock 24 h", async () => {
    const enrolled = stepTime();
    const owner = await signUpWithTwoFactor(ctx, enrolled);
    setClock(ctx, enrolled + STEP_MS);
    const challenge = cookiePair(
      await signInRequest(ctx, { email: owner.email, password: owner.password }),
      "lm.two_factor",
    );
    const passed = await panelPost(ctx, "/v1/me/auth/two-factor/verify-totp", challenge, {
      code: codeAt(owner.totp, enrolled + STEP_MS),
      trustDevice: true,
    });
    const requested = await requestRecovery({
      email: owner.email,
      password: owner.password,
      redirect_to: `${PANEL_ORIGIN}/done`,
    });
    const mail = await waitForMail(ctx, owner.email, RECOVERY_SUBJECT);
    const link = new URL(/http\S+/.exec(mail.text)?.[0] ?? "");
    const confirmedAt = enrolled + 2 * STEP_MS;
    setClock(ctx, confirmedAt);

    const res = await confirm(tokenInMail(mail));

    expect(requested.status).toBe(200);
    expect(requested.body).toEqual({ status: true });
    expect(`${link.origin}${link.pathname}`).toBe("http://api.test/dashboard/two-factor/recovery");
    expect(link.searchParams.get("redirect_to")).toBe(`${PANEL_ORIGIN}/done`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ withdrawals_locked_until: new Date(confirmedAt + 24 * HOUR).toISOString() });
    const seller = await ctx.db.seller.findUniqueOrThrow({ where: { id: owner.seller.id } });
    expect(seller.withdrawals_locked_until).toEqual(new Date(confirmedAt + 24 * HOUR));
    const updated = await ctx.db.event.findFirstOrThrow({
      where: { type: "seller.updated", store: { seller_id: seller.id } },
    });
    expect(updated.data).toMatchObject({ id: seller.id, withdrawals_locked_until: res.body.withdrawals_locked_until });
    for (const cookie of [owner.cookie, cookiePair(passed, "lm.session")]) {
      expect((await request(ctx.app).get("/v1/me/sessions").set("Cookie", cookie)).status).toBe(401);
    }
    expect(await ctx.db.trustedDevice.count({ where: { user_id: owner.user.id, revoked_at: null } })).toBe(0);
    expect(await ctx.db.backupCode.count({ where: { user_id: owner.user.id } })).toBe(0);
    const signIn = await signInRequest(ctx, { email: owner.email, password: owner.password });
    expect(signIn.body.user).toMatchObject({ id: owner.user.id });
    await waitForMail(ctx, owner.email, /turned off by recovery/);
  });

  test("when the token is used twice, unknown or expired, then 401 invalid_mfa_code", async () => {
    const owner = await signUpWithTwoFactor(ctx);
    await requestRecovery({ email: owner.email, password: owner.password });
    const token = tokenInMail(await waitForMail(ctx, owner.email, RECOVERY_SUBJECT));
    const other = await signUpWithTwoFactor(ctx);
    await requestRecovery({ email: other.email, password: other.password });
    const expiring = tokenInMail(await waitForMail(ctx, other.email, RECOVERY_SUBJECT));

    const first = await confirm(token);
    const reused = await confirm(token);
    const unknown = await confirm("u".repeat(43));
    setClock(ctx, Date.now() + HOUR + 60_000);
    const expired = await confirm(expiring);

    expect(first.status).toBe(200);
    for (const res of [reused, unknown, expired]) {
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ type: "authentication_error", code: "invalid_mfa_code" });
    }
    expect(
      (await ctx.db.user.findUniqueOrThrow({ where: { id: other.user.id } })).two_factor_enabled_at,
    ).not.toBeNull();
  });

  test("when the password is wrong, the address unknown, 2FA off or the user an operator, then the same 200 and no mail", async () => {
    const owner = await signUpWithTwoFactor(ctx);
    const withoutTwoFactor = await signUpOwner(ctx);
    const operator = await signUpWithTwoFactor(ctx);
    await ctx.db.user.update({ where: { id: operator.user.id }, data: { role: "ops", seller_id: null } });
    const ghost = uniqueEmail("ghost");

    const replies = [
      await requestRecovery({ email: owner.email, password: "not the password" }),
      await requestRecovery({ email: ghost, password: "whatever it is" }),
      await requestRecovery({ email: withoutTwoFactor.email, password: withoutTwoFactor.password }),
      await requestRecovery({ email: operator.email, password: operator.password }),
    ];
    await settle();

    for (const res of replies) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: true });
    }
    for (const address of [owner.email, ghost, withoutTwoFactor.email, operator.email]) {
      expect(await mailsTo(ctx, address, RECOVERY_SUBJECT)).toHaveLength(0);
    }
  });

  test("when redirect_to is not a panel origin, then 400 and no mail", async () => {
    const owner = await signUpWithTwoFactor(ctx);

    const res = await requestRecovery({
      email: owner.email,
      password: owner.password,
      redirect_to: "https://evil.example/",
    });
    await settle();

    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe("redirect_to");
    expect(await mailsTo(ctx, owner.email, RECOVERY_SUBJECT)).toHaveLength(0);
  });

  test("when one address asks 6 times in a minute, then the 6th is 429 rate_limited", async () => {
    const email = uniqueEmail("asker");

    for (let i = 0; i < 5; i++) await requestRecovery({ email, password: "x" });
    const sixth = await requestRecovery({ email: email.toUpperCase(), password: "x" });

    expect(sixth.status).toBe(429);
    expect(sixth.body.error.code).toBe("rate_limited");
    expect(Number(sixth.headers["retry-after"])).toBeGreaterThan(0);
  });

  test("when one IP asks for 6 addresses in a minute, then the 6th is 429", async () => {
    const ip = freshIp();
    const ask = () =>
      request(ctx.app)
        .post("/v1/me/auth/two-factor/recovery/request")
        .set("X-Forwarded-For", ip)
        .send({ email: uniqueEmail("spray"), password: "x" });

    for (let i = 0; i < 5; i++) expect((await ask()).status).toBe(200);
    const sixth = await ask();

    expect(sixth.status).toBe(429);
  });
});
