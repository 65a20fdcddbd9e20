import { waitUntil } from "@lm/testing";
import { withoutChargeFields } from "@lm/wire";
import { chargeBody, merchantClient, useTestMerchant } from "../support/merchant-client";
import { useE2eTestContext } from "./support/e2e-harness";

describe("charge lifecycle with the worker running", () => {
  const ctx = useE2eTestContext();
  const merchant = useTestMerchant(ctx);
  const read = (id: string) => async () => (await merchant.client.get(`/v1/transactions/${id}`)).body;

  test("when a test charge's payment is simulated, then the sandbox notification is stored and the worker marks it paid", async () => {
    const txn = (await merchant.client.post("/v1/transactions", chargeBody()).expect(201)).body;

    const res = await merchant.client.post(`/v1/transactions/${txn.id}/simulate-payment`);

    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ id: txn.id, status: "pending" });
    const paid = await waitUntil("the charge is paid", async () => {
      const current = await read(txn.id)();
      return current.status === "paid" && current;
    });
    expect(paid).toMatchObject({
      status: "paid",
      paid_at: expect.any(String),
      payment: {
        end_to_end_id: expect.stringMatching(/^E00000000\d{12}[0-9a-f]{11}$/),
        amount: txn.amount,
        payer: { name: "Maria da Silva", document_masked: "***.982.247-**" },
      },
    });
    const item = await ctx.db.inboxItem.findFirstOrThrow({
      where: { transaction_id: txn.id },
      include: { acquirer: true },
    });
    expect(item).toMatchObject({ signature_valid: true, error: null, processed_at: expect.any(Date) });
    expect(item.acquirer.slug).toBe("sandbox");
    const event = await ctx.db.event.findFirstOrThrow({
      where: { type: "transaction.paid", data: { path: ["id"], equals: txn.id } },
    });
    expect(event.data).toEqual(withoutChargeFields(paid));
  });

  test("when the charge is no longer pending, then simulate-payment is 409 invalid_state", async () => {
    const txn = (await merchant.client.post("/v1/transactions", chargeBody()).expect(201)).body;
    await merchant.client.post(`/v1/transactions/${txn.id}/cancel`).expect(200);

    const res = await merchant.client.post(`/v1/transactions/${txn.id}/simulate-payment`);

    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("invalid_state");
  });

  test("when a live key asks to simulate a payment, then 403 test_mode_only", async () => {
    const live = merchantClient(ctx.app, merchant.liveKey);

    // Refused before any lookup: a live charge (which needs a bank) is not needed to show it.
    const res = await live.post("/v1/transactions/txn_01JD3Z0000000000000000000/simulate-payment");

    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ type: "permission_error", code: "test_mode_only" });
  });

  test("when a pending charge passes its expires_at, then the worker's sweep expires it within seconds", async () => {
    const txn = (await merchant.client.post("/v1/transactions", chargeBody()).expect(201)).body;
    const notDue = (await merchant.client.post("/v1/transactions", chargeBody()).expect(201)).body;
    await ctx.db.transaction.update({ where: { id: txn.id }, data: { expires_at: new Date(Date.now() - 1_000) } });

    await waitUntil("the charge is expired", async () => {
      const row = await ctx.db.transaction.findUniqueOrThrow({ where: { id: txn.id } });
      return row.status === "expired";
    });
    expect(
      await ctx.db.event.count({ where: { type: "transaction.expired", data: { path: ["id"], equals: txn.id } } }),
    ).toBe(1);
    expect((await ctx.db.transaction.findUniqueOrThrow({ where: { id: notDue.id } })).status).toBe("pending");
  });
});
