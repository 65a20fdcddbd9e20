import { randomBytes } from "node:crypto";
import { encryptSecret, generateWebhookSecret, prepareAttempt, type LoadedDelivery } from "../../src";

const KEY = randomBytes(32);
const NOW = new Date("2026-11-26T12:00:00.000Z");
const ENDPOINT_ID = "we_01JD3Z8W1Q2R3S4T5V6W7X8Y9Z";
const STORE_ID = "sto_01JD3Z8W1Q2R3S4T5V6W7X8Y9Z";

/** A pending delivery of a ping to an endpoint of `scheme`, or to a postback, as the worker loads it. */
function delivery(
  destination: "endpoint" | "postback",
  scheme: "stripe" | "standard_webhooks",
  secrets: { current: string; previous?: string },
): LoadedDelivery {
  const endpoint = {
    id: ENDPOINT_ID,
    store_id: STORE_ID,
    mode: "test",
    url: "https://example.com/hooks",
    signature_scheme: scheme,
    secret_ciphertext: encryptSecret(KEY, secrets.current, ENDPOINT_ID),
    previous_secret_ciphertext: secrets.previous ? encryptSecret(KEY, secrets.previous, ENDPOINT_ID) : null,
    previous_secret_expires_at: secrets.previous ? new Date(NOW.getTime() + 60_000) : null,
    enabled: true,
    headers_ciphertext: null,
    deleted_at: null,
  };
  return {
    id: "whd_01JD3Z8W1Q2R3S4T5V6W7X8Y9Z",
    destination_type: destination,
    store_id: STORE_ID,
    url: "https://example.com/postback",
    manual: false,
    event: {
      id: "evt_01JD3Z8W1Q2R3S4T5V6W7X8Y9Z",
      store_id: STORE_ID,
      mode: "test",
      type: "ping",
      data: { id: ENDPOINT_ID, object: "webhook_endpoint", status: "enabled" },
      created_at: NOW,
    },
    endpoint: destination === "endpoint" ? endpoint : null,
    postbackSecretCiphertext: destination === "postback" ? encryptSecret(KEY, secrets.current, STORE_ID) : null,
    charge: null,
  } as unknown as LoadedDelivery;
}

describe("prepareAttempt carries the signature scheme", () => {
  test("when the endpoint is standard_webhooks, then the attempt is signed that way with both secrets of a grace", () => {
    const current = generateWebhookSecret("standard_webhooks");
    const previous = generateWebhookSecret("standard_webhooks");

    const prepared = prepareAttempt(delivery("endpoint", "standard_webhooks", { current, previous }), KEY, NOW);

    expect(prepared).toMatchObject({ send: true, scheme: "standard_webhooks", secrets: [current, previous] });
  });

  test("when the endpoint is stripe, then the attempt is stripe", () => {
    const current = generateWebhookSecret();

    expect(prepareAttempt(delivery("endpoint", "stripe", { current }), KEY, NOW)).toMatchObject({
      send: true,
      scheme: "stripe",
      secrets: [current],
    });
  });

  test("when the destination is a postback, then the attempt is always stripe", () => {
    const current = generateWebhookSecret();

    expect(prepareAttempt(delivery("postback", "standard_webhooks", { current }), KEY, NOW)).toMatchObject({
      send: true,
      scheme: "stripe",
      secrets: [current],
    });
  });
});
