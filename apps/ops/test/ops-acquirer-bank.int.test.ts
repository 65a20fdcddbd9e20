import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createDb, listServingBankAcquirers, type Db, createRepositories } from "@lm/db";
import { decryptSecret, type BankCredentials } from "@lm/domain";
import { createTestDatabase, TEST_ENCRYPTION_KEY, testConfig, type TestDatabase } from "@lm/testing";
import { runOps } from "../src/run";

/**
 * The bank acquirer commands' own rules (DESIGN §9 "Configuration"), without a bank: what they refuse, and how
 * secrets are stored. Talking to a bank is covered end to end (apps/api/test/e2e/live-acquirer.e2e.test.ts).
 */
describe("ops bank acquirer commands", () => {
  let database: TestDatabase;
  let db: Db;
  let dir: string;
  const ops = (...argv: string[]) =>
    runOps(argv, { config: testConfig(database.url), repos: createRepositories(db), now: () => new Date() });
  const file = async (name: string, contents: string) => {
    const at = path.join(dir, name);
    await writeFile(at, contents);
    return at;
  };
  const configure = async (slug: string, overrides: Record<string, string | null> = {}) => {
    const options: Record<string, string | null> = {
      profile: "efi",
      "api-url": "https://pix.bank.example/v2",
      "token-url": "https://pix.bank.example/oauth/token",
      "client-id": "Client_Id_1",
      "client-secret-file": await file("secret", "Client_Secret_9f3b\n"),
      "cert-file": await file("cert.pem", "-----BEGIN CERTIFICATE-----\nMIIBcert\n-----END CERTIFICATE-----\n"),
      "key-file": await file("key.pem", "-----BEGIN PRIVATE KEY-----\nMIIBkey\n-----END PRIVATE KEY-----\n"),
      "pix-key": "7f6a2c1e-4b3d-4e8a-9c5f-2d1b0a9e8f74",
      ...overrides,
    };
    const argv = Object.entries(options).flatMap(([name, value]) => (value === null ? [] : [`--${name}`, value]));
    return ops("acquirer:configure", slug, ...argv, "--json");
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb(database.url, { maxConnections: 2 });
    dir = await mkdtemp(path.join(tmpdir(), "ops-bank-"));
  });
  afterAll(async () => {
    await db.$disconnect();
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  });

  test("when a bank is configured, then its secrets are stored encrypted under its id and never printed", async () => {
    const out = await configure("banco-pix");

    expect(out.exitCode).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({
      id: expect.stringMatching(/^acq_/),
      slug: "banco-pix",
      profile: "efi",
      api_url: "https://pix.bank.example/v2",
    });
    expect(out.stdout).not.toMatch(/Client_Secret|MIIBkey/);
    const row = await db.acquirer.findUniqueOrThrow({ where: { slug: "banco-pix" } });
    expect(row.credentials_ciphertext).not.toMatch(/Client_Secret|MIIBkey/);
    const credentials = JSON.parse(
      decryptSecret(TEST_ENCRYPTION_KEY, row.credentials_ciphertext!, row.id),
    ) as BankCredentials;
    expect(credentials).toEqual({
      clientSecret: "Client_Secret_9f3b",
      certPem: expect.stringContaining("MIIBcert"),
      keyPem: expect.stringContaining("MIIBkey"),
    });
    expect(() => decryptSecret(TEST_ENCRYPTION_KEY, row.credentials_ciphertext!, "acq_other")).toThrow();
  });

  test.each([
    ["a profile that is not bcb or efi", { profile: "itau" }, /Profile must be one of bcb, efi/],
    ["an http API URL", { "api-url": "http://pix.bank.example/v2" }, /API URL must be an https URL/],
    ["no certificate nor PFX", { "cert-file": null, "key-file": null }, /either a certificate and its key, or a PFX/],
    ["both a certificate and a PFX", { "pfx-file": "/etc/hostname" }, /either a certificate and its key, or a PFX/],
    ["an unreadable secret file", { "client-secret-file": "/nonexistent/secret" }, /cannot read/],
    ["no Pix key", { "pix-key": null }, /--pix-key is required/],
    ["an account that is not branch/number", { account: "0001-123", "account-type": "checking" }, /<branch>\/<number>/],
    ["an account without its type", { account: "0001/123456" }, /account type must be one of checking/],
    ["an account type without an account", { "account-type": "savings" }, /--account-type needs --account/],
  ])(
    "when acquirer:configure gets %s, then exit 2 with the reason and nothing is written",
    async (_, overrides, reason) => {
      const out = await configure("banco-recusado", overrides);

      expect(out.exitCode).toBe(2);
      expect(out.stderr).toMatch(reason);
      expect(await db.acquirer.count({ where: { slug: "banco-recusado" } })).toBe(0);
    },
  );

  test("when a bank is configured with its receiving account, then Pix Automático's cobr will name it, in the standard's words", async () => {
    const out = await configure("banco-automatico", { account: "0001/1234567", "account-type": "savings" });

    expect(out.exitCode).toBe(0);
    const row = await db.acquirer.findUniqueOrThrow({ where: { slug: "banco-automatico" } });
    expect(row).toMatchObject({ account_branch: "0001", account_number: "1234567", account_type: "POUPANCA" });
  });

  test("when the sandbox or an acquirer without a bank connection is configured or activated, then exit 2", async () => {
    await ops("acquirer:create", "assinante");

    expect((await configure("sandbox")).stderr).toMatch(/sandbox is not a bank/);
    expect((await ops("acquirer:activate", "assinante", "--mode", "live")).stderr).toMatch(/not a configured bank/);
    expect((await ops("acquirer:activate", "ninguem", "--mode", "live")).exitCode).toBe(2);
    expect(await db.activeAcquirer.count()).toBe(0);
  });

  test("when a bank is activated for live, then it serves live; it cannot then serve test, and another bank can take live over", async () => {
    await configure("banco-a");
    await configure("banco-b");

    const first = await ops("acquirer:activate", "banco-a", "--mode", "live");
    const otherMode = await ops("acquirer:activate", "banco-a", "--mode", "test");
    const takeover = await ops("acquirer:activate", "banco-b", "--mode", "live");
    const badMode = await ops("acquirer:activate", "banco-b", "--mode", "prod");

    expect([first.exitCode, otherMode.exitCode, takeover.exitCode, badMode.exitCode]).toEqual([0, 2, 0, 2]);
    expect(otherMode.stderr).toMatch(/serves live mode/);
    const active = await db.activeAcquirer.findMany({ include: { acquirer: true } });
    expect(active.map((row) => [row.mode, row.acquirer.slug])).toEqual([["live", "banco-b"]]);
    // The replaced bank is still reconciled: its charges stay payable there.
    expect((await listServingBankAcquirers(db.pool)).map((bank) => bank.slug)).toEqual(["banco-a", "banco-b"]);
  });

  test("when acquirer:reconcile gets a bad --since, then exit 2 before anything is asked", async () => {
    await configure("banco-c");

    const out = await ops("acquirer:reconcile", "banco-c", "--since", "yesterday");

    expect(out.exitCode).toBe(2);
    expect(out.stderr).toMatch(/--since must be an ISO 8601 time/);
  });
});
