import { waitUntil, useWebhookReceiver } from "@lm/testing";
import { useE2eTestContext } from "./support/e2e-harness";
import { createEndpoint, endpointOwner, ownerMerchantClient } from "../support/webhook-endpoints";
import { requestRefund } from "../support/money-requests";

/** The test-mode money walkthrough, first half: charge → simulate payment → balance → refund half → refund.succeeded. */
describe("a newcomer refunds half of a paid test charge and is told by webhook", () => {
  const ctx = useE2eTestContext();
  const receiver = useWebhookReceiver();

  test("when half of a paid charge is refunded in test mode, then refund.succeeded arrives and the balance shows the other half", async () => {
    const owner = await endpointOwner(ctx);
    await createEndpoint(owner, { url: `${receiver.current.url}/hooks`, events: ["*"] });
    const api = await ownerMerchantClient(ctx, owner, "test");

    const charge = (await api.post("/v1/transactions", { amount: 10_000, description: "Pedido 42" }).expect(201)).body;
    await api.post(`/v1/transactions/${charge.id}/simulate-payment`).expect(202);
    await waitUntil(
      "the charge is paid",
      async () => (await api.get(`/v1/transactions/${charge.id}`)).body.status === "paid",
    );
    expect((await api.get("/v1/balance")).body).toMatchObject({ available: 10_000, reserved: 0 });

    const refund = (await requestRefund(api, charge.id, { amount: 5_000 }).expect(201)).body;
    expect(refund.status).toBe("pending");

    const succeeded = await waitUntil("refund.succeeded at the endpoint", () =>
      receiver.current.requestsTo("/hooks").find((r) => r.headers["x-event-type"] === "refund.succeeded"),
    );
    const envelope = JSON.parse(succeeded.rawBody.toString("utf8"));
    expect(envelope).toMatchObject({
      type: "refund.succeeded",
      mode: "test",
      data: { object: { id: refund.id, status: "succeeded", amount: 5_000 } },
    });
    expect((await api.get(`/v1/refunds/${refund.id}`)).body.status).toBe("succeeded");
    expect((await api.get("/v1/balance")).body).toMatchObject({ available: 5_000, reserved: 0 });
    expect((await api.get(`/v1/transactions/${charge.id}`)).body).toMatchObject({
      status: "paid",
      amount_refunded: 5_000,
    });
    const types = receiver.current.requestsTo("/hooks").map((r) => r.headers["x-event-type"]);
    expect(types).toEqual(
      expect.arrayContaining(["transaction.created", "transaction.paid", "refund.created", "refund.succeeded"]),
    );
    const ledger = (await api.get("/v1/balance/transactions")).body.data.map((e: { type: string; amount: number }) => [
      e.type,
      e.amount,
    ]);
    expect(ledger).toEqual([
      ["refund", -5_000],
      ["payment", 10_000],
    ]);
  });
});
