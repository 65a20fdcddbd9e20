import { createDb, type Db, createRepositories } from "@lm/db";
import { createTestDatabase, TEST_ENCRYPTION_KEY, testConfig, type TestDatabase } from "@lm/testing";
import { createHash } from "node:crypto";
import { decryptSecret, documentLookupHash, readSellerDocument, sandboxAcquirerSecret } from "@lm/domain";
import { runOps } from "../src/run";

describe("ops command line", () => {
  let database: TestDatabase;
  let db: Db;
  const ops = (...argv: string[]) =>
    runOps(argv, { config: testConfig(database.url), repos: createRepositories(db), now: () => new Date() });

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb(database.url, { maxConnections: 2 });
  });
  afterAll(async () => {
    await db.$disconnect();
    await database.drop();
  });

  test("when seller:create gets a valid CNPJ, then the seller and its store exist and --json prints their ids", async () => {
    const out = await ops(
      "seller:create",
      "--name",
      "Padaria Pão Quente LTDA",
      "--document",
      "11.222.333/0001-81",
      "--json",
    );

    expect(out.exitCode).toBe(0);
    const created = JSON.parse(out.stdout);
    expect(created).toEqual({
      seller_id: expect.stringMatching(/^sel_/),
      store_id: expect.stringMatching(/^sto_/),
      kyc_status: "pending",
    });
    const seller = await db.seller.findUniqueOrThrow({ where: { id: created.seller_id }, include: { stores: true } });
    expect(seller.document).not.toContain("11222333");
    expect(readSellerDocument(TEST_ENCRYPTION_KEY, seller)).toEqual({ kind: "cnpj", digits: "11222333000181" });
    expect(seller.document_hash).toBe(documentLookupHash(TEST_ENCRYPTION_KEY, "11222333000181"));
    expect(seller.stores.map((s) => s.id)).toEqual([created.store_id]);
  });

  test("when the document's check digits are wrong, then exit 2 with a clear reason and nothing is written", async () => {
    const before = await db.seller.count();

    const out = await ops("seller:create", "--name", "X", "--document", "111.444.777-34");

    expect(out.exitCode).toBe(2);
    expect(out.stderr).toMatch(/valid CPF or CNPJ/);
    expect(await db.seller.count()).toBe(before);
  });

  test("when the same document is registered twice, then the second is refused", async () => {
    await ops("seller:create", "--name", "A", "--document", "52998224725");

    const out = await ops("seller:create", "--name", "B", "--document", "529.982.247-25");

    expect(out.exitCode).toBe(2);
    expect(out.stderr).toMatch(/already exists/);
  });

  test("when an option is missing, unknown, or the command is unknown, then exit 2 with usage", async () => {
    expect((await ops("seller:create", "--name", "A")).stderr).toMatch(/--document is required/);
    expect((await ops("seller:create", "--nme", "A")).exitCode).toBe(2);
    const unknown = await ops("seller:destroy");
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown command[\s\S]*api-key:create/);
  });

  test("when api-key:create runs for a test key, then the key is printed once and only its SHA-256 is stored", async () => {
    const seller = JSON.parse(
      (await ops("seller:create", "--name", "K", "--document", "39053344705", "--json")).stdout,
    );

    const out = await ops("api-key:create", "--seller", seller.seller_id, "--mode", "test", "--json");

    expect(out.exitCode).toBe(0);
    const { key, id } = JSON.parse(out.stdout);
    expect(key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    const stored = await db.apiKey.findUniqueOrThrow({ where: { id } });
    expect(stored.key_hash).toBe(createHash("sha256").update(key).digest("hex"));
    expect(stored.key_prefix).toBe(key.slice(0, 12));
    expect(JSON.stringify(stored)).not.toContain(key);
  });

  test("when a live key is asked for before KYC approval, then it is refused; after seller:kyc approved it is issued", async () => {
    const seller = JSON.parse(
      (await ops("seller:create", "--name", "L", "--document", "71428793860", "--json")).stdout,
    );

    const refused = await ops("api-key:create", "--seller", seller.seller_id, "--mode", "live");
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/KYC/);

    expect((await ops("seller:kyc", seller.seller_id, "approved")).exitCode).toBe(0);
    const issued = await ops("api-key:create", "--seller", seller.seller_id, "--mode", "live", "--json");
    expect(JSON.parse(issued.stdout).key).toMatch(/^sk_live_/);
  });

  test("when the mode or seller is wrong, then exit 2", async () => {
    expect((await ops("api-key:create", "--seller", "sel_nope", "--mode", "test")).stderr).toMatch(/No such seller/);
    expect(
      (await ops("api-key:create", "--seller", "sel_01J00000000000000000000000", "--mode", "prod")).stderr,
    ).toMatch(/--mode must be test or live/);
    expect((await ops("seller:kyc", "sel_01J00000000000000000000000", "maybe")).exitCode).toBe(2);
  });

  test("when acquirer:create runs, then the secret is printed once and stored only encrypted", async () => {
    const out = await ops("acquirer:create", "banco-exemplo", "--json");

    expect(out.exitCode).toBe(0);
    const { id, slug, secret } = JSON.parse(out.stdout);
    expect(slug).toBe("banco-exemplo");
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const stored = await db.acquirer.findUniqueOrThrow({ where: { id } });
    expect(stored.secret_ciphertext).not.toContain(secret);
    expect(decryptSecret(testConfig(database.url).encryptionKey, stored.secret_ciphertext, id)).toBe(secret);
  });

  test("when acquirer:create repeats a slug or gets a bad one, then exit 2", async () => {
    await ops("acquirer:create", "banco-repetido");

    expect((await ops("acquirer:create", "banco-repetido")).stderr).toMatch(/already exists/);
    expect((await ops("acquirer:create", "Banco Com Espaço")).stderr).toMatch(/Slug must be/);
    expect((await ops("acquirer:create")).exitCode).toBe(2);
  });

  test("when acquirer:create names sandbox, then its secret is the one derived from ENCRYPTION_KEY", async () => {
    const out = await ops("acquirer:create", "sandbox", "--json");

    expect(JSON.parse(out.stdout).secret).toBe(sandboxAcquirerSecret(testConfig(database.url).encryptionKey));
  });
});
