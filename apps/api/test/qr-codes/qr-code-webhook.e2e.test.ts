import { createEndpointRow, startWebhookReceiver, type WebhookReceiver } from "@lm/testing";
import { useTestMerchant } from "../support/merchant-client";
import { useE2eTestContext } from "../e2e/support/e2e-harness";
import { signedBy } from "../support/receiver-signature";

describe("a payment to a reusable QR code is told to its integrator by a signed webhook", () => {
  const ctx = useE2eTestContext();
  const merchant = useTestMerchant(ctx);
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  test("when a test code is paid by simulation, then the worker makes its charge and a subscribed endpoint gets transaction.paid with it", async () => {
    const { secret } = await createEndpointRow(ctx.db, ctx.config.encryptionKey, {
      storeId: merchant.storeId,
      url: `${receiver.url}/endpoint`,
      events: ["transaction.paid"],
    });
    const code = (await merchant.client.post("/v1/qr-codes", { description: "Gorjeta" }).expect(201)).body;

    await merchant.client.post(`/v1/qr-codes/${code.id}/simulate-payment`, { amount: 1234 }).expect(202);

    const [request] = await receiver.waitForRequests(1, { path: "/endpoint", timeoutMs: 20_000 });
    expect(signedBy(secret, request!)).toBe(true);
    const envelope = JSON.parse(request!.rawBody.toString("utf8"));
    const paid = (await merchant.client.get(`/v1/transactions/${envelope.data.object.id}`).expect(200)).body;
    expect(envelope).toMatchObject({ type: "transaction.paid", mode: "test", data: { object: paid } });
    expect(paid).toMatchObject({
      type: "qr_code",
      qr_code_id: code.id,
      status: "paid",
      amount: 1234,
      description: "Gorjeta",
    });
    expect((await merchant.client.get(`/v1/qr-codes/${code.id}`)).body).toMatchObject({
      payments_count: 1,
      amount_received: 1234,
    });
  });
});
