import { createDb, type Db, createRepositories } from "@lm/db";
import { hashToken } from "@lm/domain";
import { createTestDatabase, testConfig, type TestDatabase } from "@lm/testing";
import type { Config } from "@lm/config";
import { readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { runOps } from "../src/run";

describe("ops commands for panel accounts", () => {
  let database: TestDatabase;
  let db: Db;
  let config: Config;
  const ops = (...argv: string[]) => runOps(argv, { config, repos: createRepositories(db), now: () => new Date() });
  const newSeller = async (name: string, document: string) =>
    JSON.parse((await ops("seller:create", "--name", name, "--document", document, "--json")).stdout)
      .seller_id as string;

  beforeAll(async () => {
    database = await createTestDatabase();
    config = testConfig(database.url);
    db = createDb(database.url, { maxConnections: 2 });
  });
  afterAll(async () => {
    await db.$disconnect();
    await database.drop();
    await rm(config.mailOutboxDir, { recursive: true, force: true });
  });

  test("when invite:create names a seller by id, then the token is printed once, stored hashed, 7 days, and mailed", async () => {
    const sellerId = await newSeller("Mercado Azul LTDA", "11.444.777/0001-61");

    const out = await ops("invite:create", "--email", " New.Owner@Example.com ", "--seller", sellerId, "--json");

    expect(out.exitCode).toBe(0);
    const printed = JSON.parse(out.stdout);
    expect(printed).toMatchObject({
      seller_id: sellerId,
      email: "new.owner@example.com",
      mailed: "mailed",
      token: expect.stringMatching(/^[\w-]{43}$/),
    });
    const invite = await db.invite.findUniqueOrThrow({ where: { id: printed.invite_id } });
    expect(invite.token_hash).toBe(hashToken(printed.token));
    expect(invite.expires_at.getTime() - invite.created_at.getTime()).toBe(7 * 24 * 3_600_000);
    const files = await readdir(config.mailOutboxDir);
    const mails = await Promise.all(
      files.map(async (f) => JSON.parse(await readFile(path.join(config.mailOutboxDir, f), "utf8"))),
    );
    const mail = mails.find((m) => m.to[0].address === "new.owner@example.com");
    expect(mail.text).toContain(`http://api.test/dashboard/sign-up?invite=${printed.token}`);
    expect(printed.link).toBe(`http://api.test/dashboard/sign-up?invite=${printed.token}`);
    expect(mail.text).toContain("Mercado Azul LTDA");
  });

  test("when the invite mail cannot be sent, then the invite exists and its token is still printed", async () => {
    const sellerId = await newSeller("Correio Fora LTDA", "45.997.418/0001-53");
    const unreachableSmtp = { ...config, smtpUrl: "smtp://127.0.0.1:1" };

    const out = await runOps(["invite:create", "--email", "late@example.com", "--seller", sellerId, "--json"], {
      config: unreachableSmtp,
      repos: createRepositories(db),
      now: () => new Date(),
    });

    expect(out.exitCode).toBe(0);
    const printed = JSON.parse(out.stdout);
    expect(printed.mailed).toMatch(/^not mailed: /);
    expect(await db.invite.findUnique({ where: { token_hash: hashToken(printed.token) } })).not.toBeNull();
  });

  test("when invite:create names a seller by legal name, then that seller is used; unknown or ambiguous names are refused", async () => {
    const sellerId = await newSeller("Padaria Sol", "935.411.347-80");
    await newSeller("Twin Name", "529.982.247-25");
    await newSeller("Twin Name", "168.995.350-09");

    const found = await ops("invite:create", "--email", "baker@example.com", "--seller-name", "padaria sol", "--json");
    const unknown = await ops("invite:create", "--email", "x@example.com", "--seller-name", "Nobody Here");
    const ambiguous = await ops("invite:create", "--email", "y@example.com", "--seller-name", "Twin Name");
    const both = await ops(
      "invite:create",
      "--email",
      "z@example.com",
      "--seller",
      sellerId,
      "--seller-name",
      "Padaria Sol",
    );

    expect(JSON.parse(found.stdout).seller_id).toBe(sellerId);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/No such seller/);
    expect(ambiguous.exitCode).toBe(2);
    expect(ambiguous.stderr).toMatch(/Several sellers.*sel_.*sel_/);
    expect(both.exitCode).toBe(2);
    expect(
      await db.invite.count({ where: { email: { in: ["x@example.com", "y@example.com", "z@example.com"] } } }),
    ).toBe(0);
  });

  test("when user:create makes an operator, then it has no password and a 24-hour password-reset token is printed once", async () => {
    const out = await ops("user:create", "--email", "Ops@Example.com", "--name", "Olga Ops", "--role", "ops", "--json");

    expect(out.exitCode).toBe(0);
    const printed = JSON.parse(out.stdout);
    expect(printed).toMatchObject({
      email: "ops@example.com",
      role: "ops",
      token: expect.stringMatching(/^[\w-]{43}$/),
    });
    expect(printed.link).toBe(`http://api.test/dashboard/reset-password?token=${printed.token}`);
    const user = await db.user.findUniqueOrThrow({ where: { id: printed.user_id } });
    expect(user).toMatchObject({ role: "ops", seller_id: null, password_hash: null });
    const token = await db.mailedToken.findUniqueOrThrow({ where: { token_hash: hashToken(printed.token) } });
    expect(token.purpose).toBe("password_reset");
    expect(token.expires_at.getTime() - token.created_at.getTime()).toBe(24 * 3_600_000);
  });

  test("when user:create asks for another role or a taken address, then exit 2 and nothing is written", async () => {
    await ops("user:create", "--email", "taken@example.com", "--name", "A", "--role", "ops");
    const sellerId = await newSeller("Loja Tomada", "714.287.938-60");

    const owner = await ops("user:create", "--email", "owner@example.com", "--name", "B", "--role", "owner");
    const taken = await ops("user:create", "--email", "TAKEN@example.com", "--name", "C", "--role", "ops");
    const invited = await ops("invite:create", "--email", "taken@example.com", "--seller", sellerId);

    expect(owner.exitCode).toBe(2);
    expect(owner.stderr).toMatch(/--role must be ops/);
    expect(taken.exitCode).toBe(2);
    expect(taken.stderr).toMatch(/already exists/);
    expect(invited.exitCode).toBe(2);
    expect(await db.user.count({ where: { email: "owner@example.com" } })).toBe(0);
  });
});
