/**
 * The emulator's transport: mutual TLS refused at the handshake to a client without a certificate from its CA,
 * OAuth2 client credentials (RFC 6749 §4.4), bearer checks, and the switches that make it fail, hang or lag.
 */
import { startBankEmulator, type BankEmulator } from "../src";
import {
  basicAuth,
  callerOf,
  clientIdentity,
  cobBody,
  httpsRequest,
  newTxid,
  requestToken,
} from "./support/bank-requests";

let bank: BankEmulator;

beforeAll(async () => {
  bank = await startBankEmulator();
});

afterAll(async () => {
  await bank.close();
});

describe("tokens", () => {
  it("when the registered client asks with HTTP Basic and a form body, then a Bearer token with its lifetime", async () => {
    const before = bank.tokensIssued();

    const reply = await requestToken(bank);

    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    expect(reply.json.access_token).toEqual(expect.any(String));
    expect(reply.json.scope).toContain("cob.write");
    expect(bank.tokensIssued()).toBe(before + 1);
  });

  it("when the body is JSON, as Efí takes it, then a token too", async () => {
    const reply = await httpsRequest(bank.tokenUrl, {
      method: "POST",
      identity: clientIdentity(bank),
      headers: { authorization: basicAuth(bank), "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "client_credentials" }),
    });

    expect(reply.status).toBe(200);
    expect(reply.json.token_type).toBe("Bearer");
  });

  it("when the secret is wrong, then 401 invalid_client and no token", async () => {
    const before = bank.tokensIssued();

    const reply = await requestToken(bank, basicAuth(bank, "not-the-secret"));

    expect(reply.status).toBe(401);
    expect(reply.json).toEqual({ error: "invalid_client" });
    expect(reply.text).not.toContain(bank.client.clientSecret);
    expect(bank.tokensIssued()).toBe(before);
  });

  it("when the grant type is not client_credentials, then 400 unsupported_grant_type, listed as a violation", async () => {
    const reply = await httpsRequest(bank.tokenUrl, {
      method: "POST",
      identity: clientIdentity(bank),
      headers: { authorization: basicAuth(bank), "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=password",
    });

    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({ error: "unsupported_grant_type" });
    expect(bank.violations().at(-1)).toMatchObject({ method: "POST", path: "/oauth/token" });
  });
});

describe("mutual TLS", () => {
  it("when the client certificate comes from another CA, then the connection is refused before any request is read", async () => {
    const before = bank.requests().length;

    const attempt = httpsRequest(bank.tokenUrl, {
      method: "POST",
      identity: { cert: bank.foreignClient.certPem, key: bank.foreignClient.keyPem, ca: bank.client.caPem },
      headers: { authorization: basicAuth(bank), "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
    });

    // TLS 1.3 finishes the client's side of the handshake first: the refusal arrives as an alert or a reset.
    await expect(attempt).rejects.toMatchObject({ code: expect.stringMatching(/^(ECONNRESET|ERR_SSL_)/) });
    expect(bank.requests().length).toBe(before);
  });

  it("when the client presents no certificate, then the handshake is refused", async () => {
    const attempt = httpsRequest(bank.tokenUrl, { method: "POST", identity: { ca: bank.client.caPem } });

    await expect(attempt).rejects.toMatchObject({ code: "ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED" });
  });

  it("when the client uses the PKCS#12 bundle (no passphrase) and reaches localhost, then the server's name checks out", async () => {
    const url = bank.tokenUrl.replace("127.0.0.1", "localhost");

    const reply = await httpsRequest(url, {
      method: "POST",
      identity: { pfx: bank.client.pfx, ca: bank.client.caPem },
      headers: { authorization: basicAuth(bank), "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
    });

    expect(reply.status).toBe(200);
  });
});

describe("bearer tokens", () => {
  it("when an API call has no token, then 401 problem JSON", async () => {
    const reply = await httpsRequest(`${bank.apiUrl}/cob/${newTxid()}`, { identity: clientIdentity(bank) });

    expect(reply.status).toBe(401);
    expect(reply.headers["content-type"]).toBe("application/problem+json");
    expect(reply.json).toMatchObject({ status: 401, title: expect.any(String), type: expect.any(String) });
  });

  it("when every token was expired, then the old one gets 401 and a new one works", async () => {
    const old = await callerOf(bank);
    bank.expireTokens();

    const refused = await old.call("GET", `/cob/${newTxid()}`);
    const fresh = await (await callerOf(bank)).call("GET", `/cob/${newTxid()}`);

    expect(refused.status).toBe(401);
    expect(fresh.status).toBe(404);
  });

  it("when a token outlives its lifetime, then it gets 401", async () => {
    const shortLived = await startBankEmulator({ tokenTtlSeconds: 1 });
    try {
      const caller = await callerOf(shortLived);
      await new Promise((resolve) => setTimeout(resolve, 1100));

      const reply = await caller.call("GET", `/cob/${newTxid()}`);

      expect(reply.status).toBe(401);
    } finally {
      await shortLived.close();
    }
  });
});

describe("fault switches", () => {
  it("when failNext(2) is set, then the next two API calls get 503 problem JSON, token requests are spared, and the third is served", async () => {
    bank.failNext(2);

    const caller = await callerOf(bank);
    const first = await caller.call("GET", `/cob/${newTxid()}`);
    const second = await caller.call("GET", `/cob/${newTxid()}`);
    const third = await caller.call("GET", `/cob/${newTxid()}`);

    expect([first.status, second.status, third.status]).toEqual([503, 503, 404]);
    expect(first.json).toMatchObject({ status: 503, type: expect.stringContaining("ServicoIndisponivel") });
  });

  it("when failNext includes token requests, then the token request fails with the status given", async () => {
    bank.failNext(1, 500, { includeToken: true });

    const failed = await requestToken(bank);
    const next = await requestToken(bank);

    expect(failed.status).toBe(500);
    expect(next.status).toBe(200);
  });

  it("when hangNext(1) is set, then that request is never answered nor acted on, and the next is served", async () => {
    const caller = await callerOf(bank);
    const txid = newTxid();
    bank.hangNext(1);

    const hung = caller.call("PUT", `/cob/${txid}`, cobBody(bank, "5.00"), { timeoutMs: 300 });

    await expect(hung).rejects.toThrow("timed out");
    expect(bank.requests().at(-1)).toMatchObject({ method: "PUT", path: `/v2/cob/${txid}` });
    expect(bank.charge(txid)).toBeUndefined();
    expect((await caller.call("PUT", `/cob/${txid}`, cobBody(bank, "5.00"))).status).toBe(201);
  });

  it("when a latency is set, then the request is acted on at once and its reply comes after the delay", async () => {
    const caller = await callerOf(bank);
    const txid = newTxid();
    bank.setLatency(300);
    try {
      const started = Date.now();
      const late = caller.call("PUT", `/cob/${txid}`, cobBody(bank, "5.00"), { timeoutMs: 100 });

      await expect(late).rejects.toThrow("timed out");
      expect(bank.charge(txid)).toMatchObject({ status: "ATIVA" });
      const reply = await caller.call("GET", `/cob/${txid}`);
      expect(reply.status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    } finally {
      bank.setLatency(0);
    }
  });
});
