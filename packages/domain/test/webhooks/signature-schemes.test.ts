import { createHmac, createPublicKey, verify } from "node:crypto";
import {
  ed25519PublicKey,
  ed25519SignatureHeader,
  generateSigningKey,
  generateWebhookSecret,
  isSecretScheme,
  isSignatureScheme,
  signatureHeader,
  signedDeliveryHeaders,
  standardWebhooksKey,
  standardWebhooksSignatureHeader,
  webhookSecretPrefix,
} from "../../src";

// The Standard Webhooks project's own vector (libraries/javascript/src/webhook.test.ts, "sign function works").
const SW_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const SW_MSG_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
const SW_TIMESTAMP = 1614265330;
const SW_PAYLOAD = '{"test": 2432232314}';
const SW_SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

// The Standard Webhooks Go library's asymmetric vector (libraries/go/webhook_asymmetric_test.go,
// TestAsymmetricWebhookSign).
const SW_ED25519_KEY = "whsk_VEVTVFNJR05JTkdLRVlET05PVFVTRVRISVNGT1JBTlk=";
const SW_ED25519_SIGNATURE =
  "v1a,tQ9V2XOqn7jL/DQenEFpqIugdBVtiMmER5mhSkXBNwM0mkATuDe6KYYUuxqtaiHeYGb7KaaBRdM5WqyeFiL8Ag==";

/** RFC 8410 header of an Ed25519 public key, before its raw 32 bytes. */
const SPKI_ED25519_HEADER = Buffer.from("302a300506032b6570032100", "hex");

/** Whether `signature` (base64) verifies `content` under `publicKey` (`whpk_…`), with node:crypto alone. */
function verifiesEd25519(publicKey: string, content: string, signature: string): boolean {
  const raw = Buffer.from(publicKey.slice("whpk_".length), "base64");
  const key = createPublicKey({ key: Buffer.concat([SPKI_ED25519_HEADER, raw]), format: "der", type: "spki" });
  return verify(null, Buffer.from(content), key, Buffer.from(signature, "base64"));
}

const FIELDS = {
  eventId: "evt_01JD3Z8W1Q2R3S4T5V6W7X8Y9Z",
  eventType: "transaction.paid",
  deliveryId: "whd_01JD3Z8W1Q2R3S4T5V6W7X8Y9Z",
  attempt: 3,
  body: '{"id":"evt_01JD3Z8W1Q2R3S4T5V6W7X8Y9Z","object":"event"}',
  timestampSeconds: 1_700_000_000,
};
const COMMON_HEADERS = {
  "content-type": "application/json",
  "user-agent": "Service-Webhooks/1.0",
  "x-event-id": FIELDS.eventId,
  "x-event-type": FIELDS.eventType,
  "x-delivery-id": FIELDS.deliveryId,
  "x-attempt": "3",
  "idempotency-key": FIELDS.eventId,
};

describe("standardWebhooksSignatureHeader", () => {
  test("when the specification's vector is signed, then the signature is the specification's", () => {
    expect(standardWebhooksSignatureHeader([SW_SECRET], SW_MSG_ID, SW_TIMESTAMP, SW_PAYLOAD)).toBe(SW_SIGNATURE);
  });

  test("when the secret comes without its whsec_ prefix, or the body as bytes, then the signature is the same", () => {
    const bare = SW_SECRET.slice("whsec_".length);
    expect(standardWebhooksSignatureHeader([bare], SW_MSG_ID, SW_TIMESTAMP, Buffer.from(SW_PAYLOAD))).toBe(
      SW_SIGNATURE,
    );
  });

  test("when two secrets sign (rotation grace), then the header holds both entries, the first secret's first", () => {
    const other = generateWebhookSecret("standard_webhooks");
    const header = standardWebhooksSignatureHeader([other, SW_SECRET], SW_MSG_ID, SW_TIMESTAMP, SW_PAYLOAD);
    const entries = header.split(" ");

    expect(entries).toHaveLength(2);
    expect(entries[0]).toBe(standardWebhooksSignatureHeader([other], SW_MSG_ID, SW_TIMESTAMP, SW_PAYLOAD));
    expect(entries[1]).toBe(SW_SIGNATURE);
  });

  test("when nothing can sign or the id or timestamp is unusable, then it refuses", () => {
    expect(() => standardWebhooksSignatureHeader([], SW_MSG_ID, SW_TIMESTAMP, SW_PAYLOAD)).toThrow(/secret/);
    expect(() => standardWebhooksSignatureHeader(["whsec_"], SW_MSG_ID, SW_TIMESTAMP, SW_PAYLOAD)).toThrow(/decode/);
    expect(() => standardWebhooksSignatureHeader([SW_SECRET], SW_MSG_ID, 1.5, SW_PAYLOAD)).toThrow(/timestamp/);
    expect(() => standardWebhooksSignatureHeader([SW_SECRET], "a.b", SW_TIMESTAMP, SW_PAYLOAD)).toThrow(/id/);
  });
});

describe("ed25519SignatureHeader", () => {
  test("when the specification library's vector is signed, then the signature is the library's", () => {
    expect(ed25519SignatureHeader([SW_ED25519_KEY], SW_MSG_ID, SW_TIMESTAMP, SW_PAYLOAD)).toBe(SW_ED25519_SIGNATURE);
    expect(ed25519SignatureHeader([SW_ED25519_KEY.slice(5)], SW_MSG_ID, SW_TIMESTAMP, Buffer.from(SW_PAYLOAD))).toBe(
      SW_ED25519_SIGNATURE,
    );
  });

  test("when two keys sign (rotation grace), then each entry verifies under its own public key only", () => {
    const [current, previous] = [
      generateSigningKey("standard_webhooks_ed25519"),
      generateSigningKey("standard_webhooks_ed25519"),
    ];
    const header = ed25519SignatureHeader([current.secret, previous.secret], SW_MSG_ID, SW_TIMESTAMP, SW_PAYLOAD);
    const signatures = header.split(" ").map((entry) => entry.slice("v1a,".length));
    const content = `${SW_MSG_ID}.${SW_TIMESTAMP}.${SW_PAYLOAD}`;

    expect(header).toMatch(/^v1a,[A-Za-z0-9+/]{86}== v1a,[A-Za-z0-9+/]{86}==$/);
    expect(signatures.map((signature) => verifiesEd25519(current.publicKey!, content, signature))).toEqual([
      true,
      false,
    ]);
    expect(signatures.map((signature) => verifiesEd25519(previous.publicKey!, content, signature))).toEqual([
      false,
      true,
    ]);
    expect(verifiesEd25519(current.publicKey!, `${content} `, signatures[0]!)).toBe(false);
  });

  test("when nothing can sign, a key is not 32 bytes, or the id is unusable, then it refuses", () => {
    expect(() => ed25519SignatureHeader([], SW_MSG_ID, SW_TIMESTAMP, SW_PAYLOAD)).toThrow(/secret/);
    expect(() => ed25519SignatureHeader(["whsk_AAAA"], SW_MSG_ID, SW_TIMESTAMP, SW_PAYLOAD)).toThrow(/32 bytes/);
    expect(() => ed25519SignatureHeader([SW_ED25519_KEY], "a.b", SW_TIMESTAMP, SW_PAYLOAD)).toThrow(/id/);
  });
});

describe("generateSigningKey", () => {
  test("when an Ed25519 key is made, then its private key is never shown and its public key is whpk_ + base64 of 32 bytes", () => {
    const key = generateSigningKey("standard_webhooks_ed25519");

    expect(key.shown).toBeNull();
    expect(key.secret).toMatch(/^whsk_[A-Za-z0-9+/]{43}=$/);
    expect(key.publicKey).toMatch(/^whpk_[A-Za-z0-9+/]{43}=$/);
    expect(ed25519PublicKey(key.secret)).toBe(key.publicKey);
    expect(key.prefix).toBe(key.publicKey!.slice(5, 11));
  });

  test("when RFC 8032's first test key is given, then its public key is the RFC's", () => {
    const seed = Buffer.from("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "hex");
    const expected = Buffer.from("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "hex");

    expect(ed25519PublicKey(`whsk_${seed.toString("base64")}`)).toBe(`whpk_${expected.toString("base64")}`);
  });

  test.each(["stripe", "standard_webhooks"] as const)(
    "when a %s key is made, then it is its secret, shown once, with the secret's prefix and no public key",
    (scheme) => {
      const key = generateSigningKey(scheme);

      expect(key).toEqual({
        secret: key.shown,
        shown: expect.stringMatching(/^whsec_/),
        prefix: key.secret.slice(6, 12),
        publicKey: null,
      });
    },
  );
});

describe("generateWebhookSecret", () => {
  test("when a standard_webhooks secret is made, then it is whsec_ + 43 unpadded standard base64 of 32 bytes", () => {
    for (let i = 0; i < 200; i += 1) {
      const secret = generateWebhookSecret("standard_webhooks");
      const encoded = secret.slice("whsec_".length);

      expect(secret.startsWith("whsec_")).toBe(true);
      expect(encoded).toMatch(/^[A-Za-z0-9+/]{43}$/);
      expect(standardWebhooksKey(secret)).toHaveLength(32);
      expect(Buffer.from(standardWebhooksKey(secret)).toString("base64")).toBe(`${encoded}=`);
      expect(webhookSecretPrefix(secret)).toBe(encoded.slice(0, 6));
    }
  });

  test("when a stripe secret is made (the default), then it stays whsec_ + 43 base64url characters", () => {
    for (const secret of [generateWebhookSecret(), generateWebhookSecret("stripe")]) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(secret.slice("whsec_".length), "base64url")).toHaveLength(32);
    }
  });
});

describe("signedDeliveryHeaders", () => {
  test("when the scheme is stripe, then the SPEC headers carry X-Signature and no webhook-* header", () => {
    const secrets = [generateWebhookSecret(), generateWebhookSecret()];

    const headers = signedDeliveryHeaders({ ...FIELDS, scheme: "stripe", secrets });

    expect(headers).toEqual({
      ...COMMON_HEADERS,
      "x-signature": signatureHeader(secrets, FIELDS.timestampSeconds, FIELDS.body),
    });
  });

  test("when the scheme is standard_webhooks, then the SPEC headers carry webhook-id, -timestamp and -signature", () => {
    const secrets = [generateWebhookSecret("standard_webhooks"), generateWebhookSecret("standard_webhooks")];

    const headers = signedDeliveryHeaders({ ...FIELDS, scheme: "standard_webhooks", secrets });

    const expectedEntries = secrets.map(
      (secret) =>
        `v1,${createHmac("sha256", Buffer.from(secret.slice(6), "base64"))
          .update(`${FIELDS.eventId}.${FIELDS.timestampSeconds}.${FIELDS.body}`)
          .digest("base64")}`,
    );
    expect(headers).toEqual({
      ...COMMON_HEADERS,
      "webhook-id": FIELDS.eventId,
      "webhook-timestamp": String(FIELDS.timestampSeconds),
      "webhook-signature": expectedEntries.join(" "),
    });
    expect(headers["x-signature"]).toBeUndefined();
  });

  test("when the scheme is standard_webhooks_ed25519, then webhook-signature holds v1a entries and custom headers come first", () => {
    const key = generateSigningKey("standard_webhooks_ed25519");
    const custom = { "X-Store": "ana", Authorization: "Bearer t" };

    const headers = signedDeliveryHeaders({
      ...FIELDS,
      scheme: "standard_webhooks_ed25519",
      secrets: [key.secret],
      custom,
    });

    expect(headers).toEqual({
      ...custom,
      ...COMMON_HEADERS,
      "webhook-id": FIELDS.eventId,
      "webhook-timestamp": String(FIELDS.timestampSeconds),
      "webhook-signature": ed25519SignatureHeader([key.secret], FIELDS.eventId, FIELDS.timestampSeconds, FIELDS.body),
    });
    expect(Object.keys(headers).slice(0, 2)).toEqual(["X-Store", "Authorization"]);
  });
});

describe("isSignatureScheme", () => {
  test.each([
    ["stripe", true],
    ["standard_webhooks", true],
    ["standard_webhooks_ed25519", true],
    ["Stripe", false],
    ["standard-webhooks", false],
    ["", false],
    [null, false],
  ])("when given %p, then it is %p", (value, expected) => {
    expect(isSignatureScheme(value)).toBe(expected);
  });
});

describe("isSecretScheme", () => {
  test.each([
    ["stripe", true],
    ["standard_webhooks", true],
    ["standard_webhooks_ed25519", false],
  ])("when given %p, then it is %p (lm listen signs with a shared secret only)", (value, expected) => {
    expect(isSecretScheme(value)).toBe(expected);
  });
});
