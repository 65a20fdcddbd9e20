/**
 * Helpers of the panel tests: sellers with an owner signed in, cookies, and the mail outbox.
 */
import { generateCpf } from "@brazilian-utils/brazilian-utils";
import { createInvite, createOpsUser, createSeller } from "@lm/domain";
import type { Seller, User } from "@lm/db";
import { randomBytes } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import request from "supertest";
import type { ApiTestContext } from "./harness";

/** The origin tests send on cookie requests; `testConfig` puts it in PANEL_ORIGINS. */
export const PANEL_ORIGIN = "http://panel.test";

/** A password that satisfies the rules. */
export const PASSWORD = "correct horse battery";

/** A fresh unique address. */
export function uniqueEmail(label = "owner"): string {
  return `${label}-${randomBytes(5).toString("hex")}@example.com`;
}

/** A seller (with its store) made through the ops use case. */
export async function makeSeller(ctx: ApiTestContext, name = "Loja Teste LTDA"): Promise<Seller> {
  return (await createSeller(ctx.deps.repos, ctx.config, { name, document: generateCpf() })).seller;
}

/** An invite token for `email` to a new (or given) seller. */
export async function makeInvite(
  ctx: ApiTestContext,
  email: string,
  seller?: Seller,
): Promise<{ token: string; seller: Seller }> {
  const target = seller ?? (await makeSeller(ctx));
  const { token } = await createInvite(ctx.deps.repos, { email, seller: target, now: ctx.deps.now() });
  return { token, seller: target };
}

/** The `name=value` pair of cookie `name` in a reply's Set-Cookie, or undefined. */
export function setCookie(res: request.Response, name: string): string | undefined {
  const header = res.headers["set-cookie"] as unknown as string[] | undefined;
  return header?.find((c) => c.startsWith(`${name}=`));
}

/** `name=value` of cookie `name` in a reply, for a later request's Cookie header. */
export function cookiePair(res: request.Response, name: string): string {
  const full = setCookie(res, name);
  if (!full) throw new Error(`no ${name} cookie in the reply`);
  return full.split(";")[0] ?? "";
}

/** A signed-up owner: the user, their seller, the password and the `lm.session=…` pair. */
export interface SignedUpOwner {
  user: User;
  seller: Seller;
  email: string;
  password: string;
  cookie: string;
}

/** Signs up a new owner through the API, of a new seller or of `options.seller` (a second owner). */
export async function signUpOwner(
  ctx: ApiTestContext,
  options: { email?: string; password?: string; seller?: Seller } = {},
): Promise<SignedUpOwner> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? PASSWORD;
  const { token, seller } = await makeInvite(ctx, email, options.seller);
  const res = await request(ctx.app)
    .post("/v1/me/auth/sign-up/email")
    .send({ name: "Ana Lima", email, password, accept_terms: true, invite_token: token });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(res.body)}`);
  const user = await ctx.db.user.findUniqueOrThrow({ where: { id: res.body.user.id } });
  return { user, seller, email, password, cookie: cookiePair(res, "lm.session") };
}

/** A mail as the JSON outbox stores it (nodemailer's JSON transport). */
export interface OutboxMail {
  to: { address: string }[];
  subject: string;
  text: string;
  html: string;
}

/** Every mail in the outbox so far, oldest first. */
export async function readOutbox(ctx: ApiTestContext): Promise<OutboxMail[]> {
  const dir = ctx.config.mailOutboxDir;
  const names = await readdir(dir).catch(() => [] as string[]);
  const mails = await Promise.all(
    names.sort().map(async (n) => JSON.parse(await readFile(path.join(dir, n), "utf8")) as OutboxMail),
  );
  return mails;
}

/** Mails to `address` whose subject matches `subject`. */
export async function mailsTo(ctx: ApiTestContext, address: string, subject: RegExp): Promise<OutboxMail[]> {
  return (await readOutbox(ctx)).filter((m) => m.to.some((t) => t.address === address) && subject.test(m.subject));
}

/** Polls until a mail to `address` with `subject` arrives (up to 5 s) and returns the newest. */
export async function waitForMail(ctx: ApiTestContext, address: string, subject: RegExp): Promise<OutboxMail> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const found = await mailsTo(ctx, address, subject);
    const newest = found[found.length - 1];
    if (newest) return newest;
    if (Date.now() > deadline) throw new Error(`no mail "${subject}" to ${address}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The `token` query parameter of the first link in a mail's text. */
export function tokenInMail(mail: OutboxMail): string {
  const link = /https?:\/\/\S+/.exec(mail.text)?.[0];
  const token = link ? new URL(link).searchParams.get("token") : null;
  if (!token) throw new Error("no token link in the mail");
  return token;
}

let ipCounter = 0;
/**
 * A client address not used before in this process, sent as X-Forwarded-For. Files that sign in often set
 * `TRUST_PROXY: "loopback"` so that the per-IP sign-in limit does not make their tests depend on each other.
 */
export function freshIp(): string {
  ipCounter += 1;
  return `198.18.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
}

/** Signs in through the API from a fresh address and returns the reply. */
export function signInRequest(ctx: ApiTestContext, body: Record<string, unknown>): request.Test {
  return request(ctx.app).post("/v1/me/auth/sign-in/email").set("X-Forwarded-For", freshIp()).send(body);
}

/** An operator (`role: ops`) made with the `user:create` use case, who set a password and signed in: `lm.session=…`. */
export async function signInOps(ctx: ApiTestContext): Promise<{ user: User; cookie: string }> {
  const email = uniqueEmail("ops");
  const { user, token } = await createOpsUser(ctx.deps, { email, name: "Operadora", now: ctx.deps.now() });
  await request(ctx.app).post("/v1/me/auth/reset-password").send({ token, newPassword: PASSWORD }).expect(200);
  const res = await signInRequest(ctx, { email, password: PASSWORD });
  if (res.status !== 200) throw new Error(`ops sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { user, cookie: cookiePair(res, "lm.session") };
}
