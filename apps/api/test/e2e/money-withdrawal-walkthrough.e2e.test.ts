import { readSellerDocument } from "@lm/domain";
import { waitUntil, useWebhookReceiver } from "@lm/testing";
import { useE2eTestContext } from "./support/e2e-harness";
import { createEndpoint, endpointOwner, ownerMerchantClient } from "../support/webhook-endpoints";
import { requestWithdrawal } from "../support/money-requests";

/**
 * The test-mode money walkthrough, second half: add a payout key → withdraw → withdrawal.completed, balance down. A
 * newcomer's first withdrawal goes to their own CPF/CNPJ: any other key added just now waits 24 h (DESIGN §11).
 */
describe("a newcomer withdraws their test balance to a payout key and is told by webhook", () => {
  const ctx = useE2eTestContext();
  const receiver = useWebhookReceiver();

  test("when a withdrawal is made in test mode, then withdrawal.processing and .completed arrive and the balance goes down", async () => {
    const owner = await endpointOwner(ctx);
    await createEndpoint(owner, {
      url: `${receiver.current.url}/hooks`,
      events: ["withdrawal.created", "withdrawal.processing", "withdrawal.completed", "withdrawal.failed"],
    });
    const api = await ownerMerchantClient(ctx, owner, "test");
    const charge = (await api.post("/v1/transactions", { amount: 20_000 }).expect(201)).body;
    await api.post(`/v1/transactions/${charge.id}/simulate-payment`).expect(202);
    await waitUntil("the balance", async () => (await owner.panel.get("/v1/me/balance")).body.available === 20_000);

    const evp = (
      await owner.panel
        .post("/v1/me/payout-keys", { type: "evp", key: "71c7d9be-4b85-4e43-9f1c-1f3b8b4e9a2d" })
        .expect(201)
    ).body;
    const coolingOff = await requestWithdrawal(owner.panel, {
      amount: 15_000,
      payout_key_id: evp.id,
      mode: "test",
    });
    const cpf = readSellerDocument(ctx.config.encryptionKey, owner.seller).digits;
    const key = (await owner.panel.post("/v1/me/payout-keys", { type: "cpf", key: cpf }).expect(201)).body;
    const withdrawal = (
      await owner.panel
        .post("/v1/me/withdrawals", { amount: 15_000, payout_key_id: key.id, mode: "test" })
        .set("Idempotency-Key", "payout-1")
        .expect(201)
    ).body;

    const completed = await waitUntil("withdrawal.completed at the endpoint", () =>
      receiver.current.requestsTo("/hooks").find((r) => r.headers["x-event-type"] === "withdrawal.completed"),
    );
    expect([coolingOff.status, coolingOff.body.error.code]).toEqual([403, "payout_key_cooling_off"]);
    const envelope = JSON.parse(completed.rawBody.toString("utf8"));
    expect(envelope).toMatchObject({
      type: "withdrawal.completed",
      mode: "test",
      data: { object: { id: withdrawal.id, status: "completed", amount: 15_000 } },
    });
    expect(envelope.data.object.payout_key).toEqual({ id: key.id, type: "cpf", key_masked: key.key_masked });
    await receiver.current.waitForRequests(3, { path: "/hooks" });
    expect(
      receiver.current
        .requestsTo("/hooks")
        .map((r) => r.headers["x-event-type"])
        .sort(),
    ).toEqual(["withdrawal.completed", "withdrawal.created", "withdrawal.processing"]);
    expect((await owner.panel.get("/v1/me/balance")).body).toMatchObject({ available: 5_000, reserved: 0 });
    expect((await api.get(`/v1/withdrawals/${withdrawal.id}`)).body).toMatchObject({
      status: "completed",
      end_to_end_id: expect.any(String),
    });
  });
});
