import request from "supertest";
import { useApiTestContext } from "../support/harness";
import {
  makeInvite,
  PANEL_ORIGIN,
  PASSWORD,
  setCookie,
  signUpOwner,
  tokenInMail,
  uniqueEmail,
  waitForMail,
} from "../support/panel";

describe("sign-up with an invite", () => {
  const ctx = useApiTestContext({ TERMS_VERSION: "2026-03-01" });
  const signUp = (body: Record<string, unknown>) => request(ctx.app).post("/v1/me/auth/sign-up/email").send(body);

  test("when the invite is valid, then 200 {user} exactly, a session cookie, owner of the invite's seller, terms kept", async () => {
    const email = uniqueEmail();
    const { token, seller } = await makeInvite(ctx, email);

    const res = await signUp({ name: "Ana Lima", email, password: PASSWORD, accept_terms: true, invite_token: token });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        email,
        name: "Ana Lima",
        emailVerified: false,
        role: "owner",
        seller_id: seller.id,
      },
    });
    expect(setCookie(res, "lm.session")).toMatch(
      /^lm\.session=[A-Za-z0-9_-]{43}; Max-Age=604800; Path=\/; Expires=.+; HttpOnly; SameSite=Lax$/,
    );
    const user = await ctx.db.user.findUniqueOrThrow({ where: { id: res.body.user.id } });
    expect(user.terms_version).toBe("2026-03-01");
    expect(user.terms_accepted_at).toBeInstanceOf(Date);
    expect(user.password_hash).toMatch(/^\$2b\$04\$/);
  });

  test("when the body says role admin and other extra fields, then they are ignored and the user is an owner", async () => {
    const email = uniqueEmail();
    const { token } = await makeInvite(ctx, email);

    const res = await signUp({
      name: "Eve",
      email,
      password: PASSWORD,
      accept_terms: true,
      invite_token: token,
      role: "admin",
      seller_id: "sel_01JD0000000000000000000000",
      emailVerified: true,
      email_verified_at: "2026-01-01T00:00:00Z",
    });

    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ role: "owner", emailVerified: false });
    const user = await ctx.db.user.findUniqueOrThrow({ where: { id: res.body.user.id } });
    expect(user.role).toBe("owner");
    expect(user.email_verified_at).toBeNull();
  });

  test("when the invite was used, then a second sign-up with it is 404 like an unknown one", async () => {
    const email = uniqueEmail();
    const { token } = await makeInvite(ctx, email);
    await signUp({ name: "A", email, password: PASSWORD, accept_terms: true, invite_token: token });

    const reused = await signUp({
      name: "B",
      email: uniqueEmail(),
      password: PASSWORD,
      accept_terms: true,
      invite_token: token,
    });
    const unknown = await signUp({
      name: "B",
      email,
      password: PASSWORD,
      accept_terms: true,
      invite_token: "x".repeat(43),
    });

    expect(reused.status).toBe(404);
    expect(reused.body.error.code).toBe("resource_not_found");
    expect(unknown.body.error).toEqual({ ...reused.body.error, request_id: unknown.body.error.request_id });
  });

  test("when the invite is expired or revoked, then 404 resource_not_found and no user", async () => {
    const expiredEmail = uniqueEmail();
    const expired = await makeInvite(ctx, expiredEmail);
    await ctx.db.invite.updateMany({
      where: { email: expiredEmail },
      data: { expires_at: new Date(Date.now() - 1000) },
    });
    const revokedEmail = uniqueEmail();
    const revoked = await makeInvite(ctx, revokedEmail);
    await ctx.db.invite.updateMany({ where: { email: revokedEmail }, data: { revoked_at: new Date() } });

    const a = await signUp({
      name: "A",
      email: expiredEmail,
      password: PASSWORD,
      accept_terms: true,
      invite_token: expired.token,
    });
    const b = await signUp({
      name: "B",
      email: revokedEmail,
      password: PASSWORD,
      accept_terms: true,
      invite_token: revoked.token,
    });

    expect([a.status, b.status]).toEqual([404, 404]);
    expect(await ctx.db.user.count({ where: { email: { in: [expiredEmail, revokedEmail] } } })).toBe(0);
  });

  test("when the email is not the invited address, then 400 validation_failed on email and the invite stays usable", async () => {
    const email = uniqueEmail();
    const { token } = await makeInvite(ctx, email);

    const res = await signUp({
      name: "A",
      email: uniqueEmail(),
      password: PASSWORD,
      accept_terms: true,
      invite_token: token,
    });

    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "validation_failed", param: "email" });
    expect((await ctx.db.invite.findFirstOrThrow({ where: { email } })).used_at).toBeNull();
  });

  test.each([
    ["accept_terms false", { accept_terms: false }, "accept_terms"],
    ["accept_terms missing", { accept_terms: undefined }, "accept_terms"],
    ["accept_terms as the string true", { accept_terms: "true" }, "accept_terms"],
    ["a password of 11 characters", { password: "a".repeat(11) }, "password"],
    ["a password of 129 characters", { password: "a".repeat(129) }, "password"],
    ["an empty name", { name: "" }, "name"],
    ["a malformed email", { email: "not-an-email" }, "email"],
  ])(
    "when the body has %s, then 400 validation_failed naming the field and nothing is written",
    async (_label, change, param) => {
      const email = uniqueEmail();
      const { token } = await makeInvite(ctx, email);

      const res = await signUp({
        name: "A",
        email,
        password: PASSWORD,
        accept_terms: true,
        invite_token: token,
        ...change,
      });

      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: "validation_failed", type: "invalid_request_error", param });
      expect(await ctx.db.user.count({ where: { email } })).toBe(0);
    },
  );

  test("when the password has exactly 12 or 128 characters, then it is accepted", async () => {
    for (const password of ["a".repeat(12), "b".repeat(128)]) {
      const email = uniqueEmail();
      const { token } = await makeInvite(ctx, email);
      const res = await signUp({ name: "A", email, password, accept_terms: true, invite_token: token });
      expect(res.status).toBe(200);
    }
  });

  test("when two passwords share their first 72 bytes, then they are different passwords", async () => {
    const prefix = "p".repeat(72);
    const owner = await signUpOwner(ctx, { password: `${prefix}-first` });

    const wrong = await request(ctx.app)
      .post("/v1/me/auth/sign-in/email")
      .send({ email: owner.email, password: `${prefix}-other` });
    const right = await request(ctx.app)
      .post("/v1/me/auth/sign-in/email")
      .send({ email: owner.email, password: `${prefix}-first` });

    expect(wrong.status).toBe(401);
    expect(right.status).toBe(200);
  });

  test("when the body is form-encoded, then 415 and no user", async () => {
    const email = uniqueEmail();
    const { token } = await makeInvite(ctx, email);

    const res = await request(ctx.app)
      .post("/v1/me/auth/sign-up/email")
      .type("form")
      .send({ name: "A", email, password: PASSWORD, accept_terms: "true", invite_token: token });

    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe("unsupported_media_type");
  });

  test("when a user with that address exists, then 409 invalid_state and the second invite stays unused", async () => {
    const email = uniqueEmail();
    const first = await makeInvite(ctx, email);
    const second = await makeInvite(ctx, email);
    await signUp({ name: "A", email, password: PASSWORD, accept_terms: true, invite_token: first.token });

    const res = await signUp({ name: "A", email, password: PASSWORD, accept_terms: true, invite_token: second.token });

    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("invalid_state");
    expect(await ctx.db.invite.count({ where: { email, used_at: null } })).toBe(1);
  });
});

describe("email verification", () => {
  const ctx = useApiTestContext();

  test("when the mailed link is followed, then the user is verified and the link is single use", async () => {
    const owner = await signUpOwner(ctx);
    const mail = await waitForMail(ctx, owner.email, /Confirm your email/);
    expect(mail.text).toMatch(/ http:\/\/api\.test\/dashboard\/verify-email\?token=[\w-]{43}$/m);
    expect(mail.html).toContain("http://api.test/dashboard/verify-email?token=");
    const token = tokenInMail(mail);

    const first = await request(ctx.app).get("/v1/me/auth/verify-email").query({ token });
    const again = await request(ctx.app).get("/v1/me/auth/verify-email").query({ token });

    expect(first.status).toBe(200);
    expect(first.body).toEqual({ status: true });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({ code: "validation_failed", param: "token" });
    const signIn = await request(ctx.app)
      .post("/v1/me/auth/sign-in/email")
      .send({ email: owner.email, password: owner.password });
    expect(signIn.body.user.emailVerified).toBe(true);
  });

  test("when the verification token is older than 24 h, then 400 and the user stays unverified", async () => {
    const owner = await signUpOwner(ctx);
    const token = tokenInMail(await waitForMail(ctx, owner.email, /Confirm your email/));
    const realNow = ctx.deps.now;
    ctx.deps.now = () => new Date(Date.now() + 24 * 3_600_000 + 1000);
    try {
      const res = await request(ctx.app).get("/v1/me/auth/verify-email").query({ token });
      expect(res.status).toBe(400);
    } finally {
      ctx.deps.now = realNow;
    }
    expect((await ctx.db.user.findUniqueOrThrow({ where: { id: owner.user.id } })).email_verified_at).toBeNull();
  });

  test("when callbackURL is not on a panel origin, then 400 on callbackURL and the token is not used", async () => {
    const owner = await signUpOwner(ctx);
    const token = tokenInMail(await waitForMail(ctx, owner.email, /Confirm your email/));

    const evil = await request(ctx.app)
      .get("/v1/me/auth/verify-email")
      .query({ token, callbackURL: "https://evil.example/x" });
    const good = await request(ctx.app)
      .get("/v1/me/auth/verify-email")
      .query({ token, callbackURL: `${PANEL_ORIGIN}/done` });

    expect(evil.status).toBe(400);
    expect(evil.body.error.param).toBe("callbackURL");
    expect(good.status).toBe(200);
  });
});

describe("invite look-up", () => {
  const ctx = useApiTestContext();

  test("when the invite is active, then 200 {email, expires_at}; when not, 404; the 6th look-up in a minute is 429", async () => {
    const email = uniqueEmail("invitee");
    const { token } = await makeInvite(ctx, email);

    const found = await request(ctx.app).get(`/v1/me/auth/invites/${token}`);
    const unknown = await request(ctx.app).get(`/v1/me/auth/invites/${"u".repeat(43)}`);
    const malformed = await request(ctx.app).get("/v1/me/auth/invites/short");
    await request(ctx.app).get(`/v1/me/auth/invites/${token}`);
    await request(ctx.app).get(`/v1/me/auth/invites/${token}`);
    const sixth = await request(ctx.app).get(`/v1/me/auth/invites/${token}`);

    expect(found.status).toBe(200);
    expect(found.body).toEqual({ email, expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/) });
    expect(new Date(found.body.expires_at).getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3_600_000);
    expect([unknown.status, malformed.status]).toEqual([404, 404]);
    expect(sixth.status).toBe(429);
    expect(sixth.body.error).toMatchObject({ code: "rate_limited", type: "rate_limit_error" });
    expect(Number(sixth.headers["retry-after"])).toBeGreaterThan(0);
  });
});
