import { createHmac } from "node:crypto";
import {
  generateWebhookSecret,
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
});

describe("isSignatureScheme", () => {
  test.each([
    ["stripe", true],
    ["standard_webhooks", true],
    ["Stripe", false],
    ["standard-webhooks", false],
    ["", false],
    [null, false],
  ])("when given %p, then it is %p", (value, expected) => {
    expect(isSignatureScheme(value)).toBe(expected);
  });
});
