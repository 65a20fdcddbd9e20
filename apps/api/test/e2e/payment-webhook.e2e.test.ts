import { encryptSecret, generateWebhookSecret } from "@lm/domain";
import { createEndpointRow, startWebhookReceiver, type ReceivedRequest, type WebhookReceiver } from "@lm/testing";
import { chargeBody, useTestMerchant } from "../support/merchant-client";
import { useE2eTestContext } from "./support/e2e-harness";
import { signedBy } from "../support/receiver-signature";

describe("a paid charge is told to its integrator by signed webhooks", () => {
  const ctx = useE2eTestContext();
  const merchant = useTestMerchant(ctx);
  let receiver: WebhookReceiver;
  const postbackSecret = generateWebhookSecret();
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    await ctx.db.store.update({
      where: { id: merchant.storeId },
      data: {
        postback_secret_ciphertext: encryptSecret(ctx.config.encryptionKey, postbackSecret, merchant.storeId),
        postback_secret_prefix: postbackSecret.slice(6, 12),
      },
    });
  });
  afterAll(async () => {
    await receiver?.close();
  });

  test("when a charge with postback_url is paid by simulation, then the postback and a subscribed endpoint get transaction.paid", async () => {
    const { secret: endpointSecret } = await createEndpointRow(ctx.db, ctx.config.encryptionKey, {
      storeId: merchant.storeId,
      url: `${receiver.url}/endpoint`,
      events: ["transaction.paid"],
    });
    const txn = (
      await merchant.client
        .post("/v1/transactions", chargeBody({ postback_url: `${receiver.url}/postback` }))
        .expect(201)
    ).body;

    await merchant.client.post(`/v1/transactions/${txn.id}/simulate-payment`).expect(202);

    const paidAt = (requests: ReceivedRequest[]) =>
      requests.find((r) => r.headers["x-event-type"] === "transaction.paid");
    await receiver.waitForRequests(2, { path: "/postback", timeoutMs: 20_000 });
    await receiver.waitForRequests(1, { path: "/endpoint", timeoutMs: 20_000 });
    const postback = paidAt(receiver.requestsTo("/postback"));
    const endpoint = paidAt(receiver.requestsTo("/endpoint"));
    const paid = (await merchant.client.get(`/v1/transactions/${txn.id}`)).body;
    expect(paid.status).toBe("paid");

    for (const [request, secret] of [
      [postback, postbackSecret],
      [endpoint, endpointSecret],
    ] as const) {
      expect(request).toBeDefined();
      const envelope = JSON.parse(request!.rawBody.toString("utf8"));
      expect(request!.method).toBe("POST");
      expect(request!.headers).toMatchObject({
        "content-type": "application/json",
        "user-agent": "Service-Webhooks/1.0",
        "x-event-id": envelope.id,
        "x-event-type": "transaction.paid",
        "x-delivery-id": expect.stringMatching(/^whd_[0-9A-Z]{26}$/),
        "x-attempt": "1",
        "idempotency-key": envelope.id,
        "x-signature": expect.stringMatching(/^t=\d+,v1=[0-9a-f]{64}$/),
      });
      expect(signedBy(secret, request!)).toBe(true);
      expect(envelope).toEqual({
        id: expect.stringMatching(/^evt_[0-9A-Z]{26}$/),
        object: "event",
        type: "transaction.paid",
        mode: "test",
        created_at: expect.any(String),
        data: { object: paid },
      });
      // The event's row keeps only what changes; the charge's fixed fields are put back where GET writes them.
      expect(Object.keys(envelope.data.object)).toEqual(Object.keys(paid));
    }
    expect(postback!.headers["x-event-id"]).toBe(endpoint!.headers["x-event-id"]);
    expect(postback!.headers["x-delivery-id"]).not.toBe(endpoint!.headers["x-delivery-id"]);
    expect(signedBy(endpointSecret, postback!)).toBe(false);
    expect(receiver.requestsTo("/endpoint").map((r) => r.headers["x-event-type"])).toEqual(["transaction.paid"]);
  });
});
