import { type BankEmulator } from "@lm/bank-emulator";
import { PixApiError, type PixApiClient } from "../src";
import { clientOf, newTxid, pemCredentials, startBank } from "./support/bank";

describe("the channel to an emulated bank: mutual TLS, OAuth2 tokens, failures", () => {
  let bank: BankEmulator;
  const clients: PixApiClient[] = [];
  /** A client of the shared bank, closed after all tests. */
  const client = (...args: Parameters<typeof clientOf>) => {
    const created = clientOf(...args);
    clients.push(created);
    return created;
  };

  beforeAll(async () => {
    bank = await startBank();
  });
  afterEach(() => {
    expect(bank.violations()).toEqual([]);
  });
  afterAll(async () => {
    for (const created of clients) created.close();
    await bank.close();
  });

  test("when many calls are made, then one token serves them all", async () => {
    const fresh = client(bank);
    const before = bank.tokensIssued();

    await Promise.all(Array.from({ length: 20 }, () => fresh.getCharge(newTxid())));
    await fresh.getCharge(newTxid());

    expect(bank.tokensIssued() - before).toBe(1);
  });

  test("when the bank has expired our token, then one refresh and the call succeeds", async () => {
    const fresh = client(bank);
    await fresh.getCharge(newTxid());
    const before = bank.tokensIssued();
    bank.expireTokens();

    const txid = newTxid();
    const cob = await fresh.registerCharge({ txid, amount: 100, expiresIn: 600 });

    expect(cob.txid).toBe(txid);
    expect(bank.tokensIssued() - before).toBe(1);
  });

  test("when a fresh bank expires the first token, then tokensIssued is 2 after the retried call", async () => {
    const own = await startBank();
    const fresh = clientOf(own);
    try {
      await fresh.getWebhook();
      own.expireTokens();

      await fresh.getWebhook();

      expect(own.tokensIssued()).toBe(2);
      expect(own.violations()).toEqual([]);
    } finally {
      fresh.close();
      await own.close();
    }
  });

  test("when 20 concurrent calls all meet an expired token, then a single refresh serves them", async () => {
    const fresh = client(bank);
    await fresh.getCharge(newTxid());
    const before = bank.tokensIssued();
    bank.expireTokens();

    await Promise.all(Array.from({ length: 20 }, () => fresh.getCharge(newTxid())));

    expect(bank.tokensIssued() - before).toBe(1);
  });

  test("when the bank answers 5xx, then unavailable with the status", async () => {
    const fresh = client(bank);
    await fresh.getCharge(newTxid()); // a token first: the failure is the API call's
    bank.failNext(1, 503);

    const error = await fresh.getCharge(newTxid()).catch((err: unknown) => err);

    expect(error).toBeInstanceOf(PixApiError);
    expect(error).toMatchObject({ kind: "unavailable", status: 503 });
  });

  test("when the token endpoint answers 5xx, then unavailable, and the next call gets a token", async () => {
    const fresh = client(bank);
    bank.failNext(1, 500, { includeToken: true });

    await expect(fresh.getCharge(newTxid())).rejects.toMatchObject({ kind: "unavailable", status: 500 });
    expect(await fresh.getCharge(newTxid())).toBeNull();
  });

  test("when the bank never answers, then unavailable after the timeout", async () => {
    const fresh = client(bank, { timeoutMs: 300 });
    await fresh.getCharge(newTxid());
    bank.hangNext(1);
    const started = Date.now();

    const error = await fresh.getCharge(newTxid()).catch((err: unknown) => err);

    expect(error).toBeInstanceOf(PixApiError);
    expect(error).toMatchObject({ kind: "unavailable", status: null, reason: "no reply within 300 ms" });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  test("when the client secret is wrong, then rejected 401 with the bank's OAuth2 error and no secret in it", async () => {
    const wrong = client(bank, {
      credentials: { ...pemCredentials(bank), clientSecret: "not-the-secret-0123456789" },
    });

    const error = await wrong.getCharge(newTxid()).catch((err: unknown) => err);

    expect(error).toMatchObject({ kind: "rejected", status: 401 });
    expect((error as PixApiError).reason).toMatch(/invalid_client/);
    expect(JSON.stringify(error) + String(error)).not.toContain("not-the-secret");
  });

  test("when the client certificate is from another CA, then the bank refuses the handshake: unavailable", async () => {
    const foreign = client(bank, {
      credentials: { ...pemCredentials(bank), certPem: bank.foreignClient.certPem, keyPem: bank.foreignClient.keyPem },
    });
    const before = bank.tokensIssued();

    const error = await foreign.getCharge(newTxid()).catch((err: unknown) => err);

    expect(error).toBeInstanceOf(PixApiError);
    expect(error).toMatchObject({ kind: "unavailable", status: null });
    expect(bank.tokensIssued()).toBe(before);
    expect((error as PixApiError).reason).not.toContain("PRIVATE KEY");
  });

  test("when the bank's certificate is not from the CA we trust, then unavailable", async () => {
    const other = await startBank();
    try {
      const untrusting = client(bank, { credentials: { ...pemCredentials(bank), caPem: other.client.caPem } });

      await expect(untrusting.getCharge(newTxid())).rejects.toMatchObject({ kind: "unavailable", status: null });
    } finally {
      await other.close();
    }
  });

  test("when the credentials are a PFX bundle, then calls work as with PEM files", async () => {
    const { clientId, clientSecret, pfx, caPem } = bank.client;
    const withPfx = client(bank, { credentials: { clientId, clientSecret, pfx, caPem } });

    const txid = newTxid();
    const cob = await withPfx.registerCharge({ txid, amount: 1500, expiresIn: 600 });

    expect(cob).toMatchObject({ txid, valor: { original: "15.00" } });
  });

  test("when the credentials hold no certificate, then TypeError at creation", () => {
    const { clientId, clientSecret } = bank.client;

    expect(() => clientOf(bank, { credentials: { clientId, clientSecret } })).toThrow(TypeError);
  });

  test("when nothing listens at the bank's address, then unavailable", async () => {
    const closed = await startBank();
    const { apiUrl, tokenUrl } = closed;
    const unreachable = client(closed, { apiUrl, tokenUrl });
    await closed.close();

    await expect(unreachable.getCharge(newTxid())).rejects.toMatchObject({ kind: "unavailable", status: null });
  });
});
