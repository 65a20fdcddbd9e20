import { createApp } from "../../src/app";
import { createPanelRateLimits, emailKey, SIGN_IN_LOCK_FAILURES } from "../../src/http/rate-limit";
import request from "supertest";
import { useApiTestContext } from "../support/harness";
import { freshIp, setCookie, signUpOwner, uniqueEmail } from "../support/panel";

describe("sign-in", () => {
  // A proxy on loopback is trusted in this file, so each test can speak from its own client address.
  const ctx = useApiTestContext({ TRUST_PROXY: "loopback" });
  const signIn = (body: Record<string, unknown>, ip = freshIp()) =>
    request(ctx.app).post("/v1/me/auth/sign-in/email").set("X-Forwarded-For", ip).send(body);

  test("when the password is right, then 200 {user} and a new session cookie each time", async () => {
    const owner = await signUpOwner(ctx);

    const first = await signIn({ email: owner.email, password: owner.password });
    const second = await signIn({ email: owner.email, password: owner.password });

    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      user: {
        id: owner.user.id,
        email: owner.email,
        name: "Ana Lima",
        emailVerified: false,
        role: "owner",
        seller_id: owner.seller.id,
      },
    });
    expect(setCookie(first, "lm.session")).not.toBe(setCookie(second, "lm.session"));
    expect(await ctx.db.session.count({ where: { user_id: owner.user.id } })).toBe(3);
  });

  test("when rememberMe is false, then the cookie has no Max-Age and the server keeps it 24 h", async () => {
    const owner = await signUpOwner(ctx);

    const res = await signIn({ email: owner.email, password: owner.password, rememberMe: false });

    const cookie = setCookie(res, "lm.session") ?? "";
    expect(cookie).toMatch(/^lm\.session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax$/);
    const session = await ctx.db.session.findFirstOrThrow({ where: { user_id: owner.user.id, persistent: false } });
    expect(session.absolute_expires_at.getTime() - session.created_at.getTime()).toBe(24 * 3_600_000);
    expect(session.expires_at).toEqual(session.absolute_expires_at);
  });

  test("when rememberMe is true, then Max-Age is 7 days and the absolute cap 30 days", async () => {
    const owner = await signUpOwner(ctx);

    const res = await signIn({ email: owner.email, password: owner.password, rememberMe: true });

    expect(setCookie(res, "lm.session")).toMatch(/; Max-Age=604800; /);
    const session = await ctx.db.session.findFirstOrThrow({
      where: { user_id: owner.user.id },
      orderBy: { created_at: "desc" },
    });
    expect(session.absolute_expires_at.getTime() - session.created_at.getTime()).toBe(30 * 24 * 3_600_000);
  });

  test("when COOKIE_SECURE is on, then the session cookie is Secure", async () => {
    const owner = await signUpOwner(ctx);
    const secureApp = createApp({ ...ctx.deps, config: { ...ctx.config, cookieSecure: true } });

    const res = await request(secureApp)
      .post("/v1/me/auth/sign-in/email")
      .set("X-Forwarded-For", freshIp())
      .send({ email: owner.email, password: owner.password });

    expect(setCookie(res, "lm.session")).toMatch(/; HttpOnly; Secure; SameSite=Lax$/);
  });

  test("when the email is unknown or the password wrong, then the same 401 invalid_credentials and no cookie", async () => {
    const owner = await signUpOwner(ctx);

    const unknown = await signIn({ email: uniqueEmail("nobody"), password: owner.password });
    const wrong = await signIn({ email: owner.email, password: "not the password" });

    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    const strip = (body: { error: Record<string, unknown> }) => ({ ...body.error, request_id: undefined });
    expect(strip(unknown.body)).toEqual(strip(wrong.body));
    expect(unknown.body.error).toMatchObject({ type: "authentication_error", code: "invalid_credentials" });
    expect(setCookie(unknown, "lm.session")).toBeUndefined();
    expect(setCookie(wrong, "lm.session")).toBeUndefined();
  });

  test("when the email is unknown, then the answer takes about as long as a wrong password (a dummy bcrypt compare)", async () => {
    // Cost 10 makes bcrypt dominate the request time; the dummy hash is made on the first unknown-address sign-in.
    const slowApp = createApp({ ...ctx.deps, config: { ...ctx.config, bcryptCost: 10 } });
    const owner = await signUpOwner(ctx);
    await ctx.db.user.update({
      where: { id: owner.user.id },
      data: { password_hash: await (await import("@lm/domain")).hashPassword(owner.password, 10) },
    });
    const time = async (email: string) => {
      const started = performance.now();
      const res = await request(slowApp)
        .post("/v1/me/auth/sign-in/email")
        .set("X-Forwarded-For", freshIp())
        .send({ email, password: "wrong password!" });
      expect(res.status).toBe(401);
      return performance.now() - started;
    };
    await time(uniqueEmail("warm-up"));

    // The fastest of three (load only ever adds time); without the dummy compare the ratio would be below 0.1.
    const fastest = async (email: () => string) =>
      Math.min(await time(email()), await time(email()), await time(email()));
    const unknown = await fastest(() => uniqueEmail("nobody"));
    const wrong = await fastest(() => owner.email);

    expect(unknown).toBeGreaterThan(wrong * 0.3);
    expect(wrong).toBeGreaterThan(unknown * 0.3);
  });

  test("when one email is tried 6 times in a minute from different IPs, then the 6th is 429 with Retry-After", async () => {
    const owner = await signUpOwner(ctx);

    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await signIn({ email: owner.email, password: "wrong password!" })).status);
    const sixth = await signIn({ email: owner.email, password: owner.password });

    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    expect(sixth.status).toBe(429);
    expect(sixth.body.error).toMatchObject({ type: "rate_limit_error", code: "rate_limited" });
    expect(Number(sixth.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(Number(sixth.headers["retry-after"])).toBeLessThanOrEqual(60);
  });

  test("when one IP tries 6 different emails in a minute, then the 6th is 429", async () => {
    const ip = freshIp();
    const owner = await signUpOwner(ctx);

    for (let i = 0; i < 5; i++) await signIn({ email: uniqueEmail("spray"), password: "wrong password!" }, ip);
    const sixth = await signIn({ email: owner.email, password: owner.password }, ip);
    const elsewhere = await signIn({ email: owner.email, password: owner.password });

    expect(sixth.status).toBe(429);
    expect(elsewhere.status).toBe(200);
  });

  test("when the email differs only in case and surrounding spaces, then it shares the bucket", async () => {
    const owner = await signUpOwner(ctx);
    const variants = [
      owner.email,
      owner.email.toUpperCase(),
      ` ${owner.email}`,
      `${owner.email}  `,
      ` ${owner.email.toUpperCase()} `,
    ];

    for (const email of variants) expect((await signIn({ email, password: "wrong password!" })).status).toBe(401);
    const sixth = await signIn({ email: owner.email, password: owner.password });

    expect(sixth.status).toBe(429);
  });

  test("when the right password is typed with another case and spaces in the email, then sign-in succeeds", async () => {
    const owner = await signUpOwner(ctx);

    const res = await signIn({ email: `  ${owner.email.toUpperCase()} `, password: owner.password });

    expect(res.status).toBe(200);
  });

  test("when an address has 20 failures in a row, then sign-in is locked 15 minutes even with the right password", async () => {
    const owner = await signUpOwner(ctx);
    // Arrange 19 earlier failures (spread over minutes in real life; the per-minute limit would otherwise interfere).
    const limits = createPanelRateLimits(ctx.deps.redis, ctx.config.queuePrefix);
    await limits.signInFailures.penalty(emailKey(owner.email), SIGN_IN_LOCK_FAILURES - 1);

    const twentieth = await signIn({ email: owner.email, password: "wrong password!" });
    const locked = await signIn({ email: owner.email, password: owner.password });

    expect(twentieth.status).toBe(401);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers["retry-after"])).toBeGreaterThan(14 * 60);
    expect(Number(locked.headers["retry-after"])).toBeLessThanOrEqual(15 * 60);
  });

  test("when a success follows failures, then the run of failures starts again", async () => {
    const owner = await signUpOwner(ctx);
    const limits = createPanelRateLimits(ctx.deps.redis, ctx.config.queuePrefix);
    await limits.signInFailures.penalty(emailKey(owner.email), SIGN_IN_LOCK_FAILURES - 2);

    expect((await signIn({ email: owner.email, password: owner.password })).status).toBe(200);
    expect((await signIn({ email: owner.email, password: "wrong password!" })).status).toBe(401);
    expect((await signIn({ email: owner.email, password: "wrong password!" })).status).toBe(401);

    expect((await signIn({ email: owner.email, password: owner.password })).status).toBe(200);
  });

  test("when trust proxy is off, then X-Forwarded-For is not believed and all attempts share the socket's bucket", async () => {
    const untrusting = createApp({ ...ctx.deps, config: { ...ctx.config, trustProxy: false } });
    const attempt = (ip: string) =>
      request(untrusting)
        .post("/v1/me/auth/sign-in/email")
        .set("X-Forwarded-For", ip)
        .send({ email: uniqueEmail("x"), password: "wrong password!" });

    for (let i = 0; i < 5; i++) expect((await attempt(`203.0.113.${i}`)).status).toBe(401);
    const sixth = await attempt("203.0.113.99");

    expect(sixth.status).toBe(429);
  });

  test("when the body is not JSON or misses the password, then 415 or 400", async () => {
    const form = await request(ctx.app)
      .post("/v1/me/auth/sign-in/email")
      .type("form")
      .send({ email: "a@b.co", password: "x" });
    const missing = await signIn({ email: "a@b.co" });
    const rememberString = await signIn({ email: "a@b.co", password: "x", rememberMe: "false" });

    expect(form.status).toBe(415);
    expect(missing.status).toBe(400);
    expect(missing.body.error.param).toBe("password");
    expect(rememberString.body.error.param).toBe("rememberMe");
  });
});
