import { createOpsUser } from "@lm/domain";
import request from "supertest";
import { useApiTestContext } from "../support/harness";
import {
  cookiePair,
  mailsTo,
  PANEL_ORIGIN,
  signInRequest,
  signUpOwner,
  tokenInMail,
  uniqueEmail,
  waitForMail,
} from "../support/panel";

const RESET_SUBJECT = /Reset your password/;

describe("password reset", () => {
  const ctx = useApiTestContext({ TRUST_PROXY: "loopback" });
  const requestReset = (body: Record<string, unknown>) =>
    request(ctx.app).post("/v1/me/auth/request-password-reset").send(body);
  const reset = (token: string, newPassword: string) =>
    request(ctx.app).post("/v1/me/auth/reset-password").send({ token, newPassword });
  const sessions = (cookie: string) => request(ctx.app).get("/v1/me/sessions").set("Cookie", cookie);

  test("when the address has an account, then 200 and a mail with a single-use link on PUBLIC_BASE_URL", async () => {
    const owner = await signUpOwner(ctx);

    const res = await requestReset({ email: owner.email.toUpperCase(), redirectTo: `${PANEL_ORIGIN}/signed-in` });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
    const mail = await waitForMail(ctx, owner.email, RESET_SUBJECT);
    const link = new URL(/http\S+/.exec(mail.text)?.[0] ?? "");
    expect(link.origin).toBe("http://api.test");
    expect(link.pathname).toBe("/dashboard/reset-password");
    expect(link.searchParams.get("redirectTo")).toBe(`${PANEL_ORIGIN}/signed-in`);
    expect(link.searchParams.get("token")).toMatch(/^[\w-]{43}$/);
    expect(mail.html).toContain(link.toString().replace(/&/g, "&amp;"));
  });

  test("when the address has no account, then the same 200 and no mail", async () => {
    const email = uniqueEmail("ghost");

    const res = await requestReset({ email });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await mailsTo(ctx, email, RESET_SUBJECT)).toHaveLength(0);
  });

  test("when the Host header is hostile, then the link still uses PUBLIC_BASE_URL", async () => {
    const owner = await signUpOwner(ctx);

    await requestReset({ email: owner.email }).set("Host", "evil.example").set("X-Forwarded-Host", "evil.example");

    const mail = await waitForMail(ctx, owner.email, RESET_SUBJECT);
    expect(mail.text).toContain("http://api.test/dashboard/reset-password?token=");
    expect(mail.text).not.toContain("evil.example");
  });

  test("when redirectTo is not on a panel origin, then 400 on redirectTo and no mail", async () => {
    const owner = await signUpOwner(ctx);

    const res = await requestReset({ email: owner.email, redirectTo: "https://evil.example/steal" });

    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "validation_failed", param: "redirectTo" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await mailsTo(ctx, owner.email, RESET_SUBJECT)).toHaveLength(0);
  });

  test("when resets are asked 5 times in an hour, then every answer is 200 and only 3 mails go out", async () => {
    const owner = await signUpOwner(ctx);

    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await requestReset({ email: ` ${owner.email} ` })).status);

    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    await waitForMail(ctx, owner.email, RESET_SUBJECT);
    const deadline = Date.now() + 5_000;
    while ((await mailsTo(ctx, owner.email, RESET_SUBJECT)).length < 3 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await mailsTo(ctx, owner.email, RESET_SUBJECT)).toHaveLength(3);
  });

  test("when the token is used, then the password changes, every session is revoked and the token is spent", async () => {
    const owner = await signUpOwner(ctx);
    const second = cookiePair(await signInRequest(ctx, { email: owner.email, password: owner.password }), "lm.session");
    await requestReset({ email: owner.email });
    const token = tokenInMail(await waitForMail(ctx, owner.email, RESET_SUBJECT));

    const res = await reset(token, "a brand new passphrase");
    const reused = await reset(token, "yet another passphrase");

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
    expect((await sessions(owner.cookie)).status).toBe(401);
    expect((await sessions(second)).status).toBe(401);
    expect(reused.status).toBe(400);
    expect(reused.body.error).toMatchObject({ code: "validation_failed", param: "token" });
    expect((await signInRequest(ctx, { email: owner.email, password: owner.password })).status).toBe(401);
    const fresh = await signInRequest(ctx, { email: owner.email, password: "a brand new passphrase" });
    expect(fresh.status).toBe(200);
    expect(fresh.body.user.emailVerified).toBe(true);
  });

  test("when the token is older than 1 hour, then 400 and the password stays", async () => {
    const owner = await signUpOwner(ctx);
    await requestReset({ email: owner.email });
    const token = tokenInMail(await waitForMail(ctx, owner.email, RESET_SUBJECT));
    const realNow = ctx.deps.now;
    ctx.deps.now = () => new Date(Date.now() + 61 * 60_000);

    let res: request.Response;
    try {
      res = await reset(token, "a brand new passphrase");
    } finally {
      ctx.deps.now = realNow;
    }

    expect(res.status).toBe(400);
    expect((await sessions(owner.cookie)).status).toBe(200);
    expect((await signInRequest(ctx, { email: owner.email, password: owner.password })).status).toBe(200);
  });

  test("when the new password is too short or the token is a verification token, then 400 and nothing changes", async () => {
    const owner = await signUpOwner(ctx);
    const verification = tokenInMail(await waitForMail(ctx, owner.email, /Confirm your email/));
    await requestReset({ email: owner.email });
    const token = tokenInMail(await waitForMail(ctx, owner.email, RESET_SUBJECT));

    const short = await reset(token, "short");
    const wrongPurpose = await reset(verification, "a brand new passphrase");

    expect(short.status).toBe(400);
    expect(short.body.error.param).toBe("newPassword");
    expect(wrongPurpose.status).toBe(400);
    expect(wrongPurpose.body.error.param).toBe("token");
    expect((await sessions(owner.cookie)).status).toBe(200);
    expect((await reset(token, "a brand new passphrase")).status).toBe(200);
  });

  test("when an operator uses the user:create setup token, then the password is set and they sign in as ops", async () => {
    const email = uniqueEmail("operator");
    const { token } = await createOpsUser(ctx.deps, { email, name: "Olga Ops", now: ctx.deps.now() });
    const before = await signInRequest(ctx, { email, password: "the operator passphrase" });

    const res = await reset(token, "the operator passphrase");
    const after = await signInRequest(ctx, { email, password: "the operator passphrase" });

    expect(before.status).toBe(401);
    expect(res.status).toBe(200);
    expect(after.status).toBe(200);
    expect(after.body.user).toMatchObject({ email, role: "ops", seller_id: null });
  });
});
