import { useApiTestContext } from "../support/harness";
import { merchantClient, useTestMerchant } from "../support/merchant-client";
import { paidCharge } from "../support/money";
import { requestRefund, requestWithdrawal } from "../support/money-requests";
import { useDocumentedReplies } from "../support/schema-conformance";
import { moneyOwner } from "../support/money-owner";
import { signInOps } from "../support/panel";
import { endpointOwner, panelClient } from "../support/webhook-endpoints";

describe("openapi.json reply schemas of the money routes (DESIGN §7)", () => {
  const ctx = useApiTestContext();
  const merchant = useTestMerchant(ctx);
  const expectDocumented = useDocumentedReplies(ctx);

  test("when an owner reads and changes the seller, balance and ledger, then each reply matches its schema", async () => {
    const owner = await endpointOwner(ctx);

    expectDocumented("GET /v1/me/seller", await owner.panel.get("/v1/me/seller"), 200);
    expectDocumented("PATCH /v1/me/seller", await owner.panel.patch("/v1/me/seller", { trade_name: "Loja" }), 200);
    expectDocumented("PATCH /v1/me/seller", await owner.panel.patch("/v1/me/seller", { legal_name: "X" }), 400);
    expectDocumented("GET /v1/me/balance", await owner.panel.get("/v1/me/balance?mode=live"), 200);
    expectDocumented("GET /v1/me/balance", await owner.panel.get("/v1/me/balance?mode=prod"), 400);
    expectDocumented("GET /v1/me/balance/transactions", await owner.panel.get("/v1/me/balance/transactions"), 200);
  });

  test("when a merchant pays, refunds and reads, then each reply matches its schema", async () => {
    const charge = await paidCharge(ctx, merchant.client, 1000);

    expectDocumented("GET /v1/seller", await merchant.client.get("/v1/seller"), 200);
    expectDocumented("GET /v1/balance", await merchant.client.get("/v1/balance"), 200);
    expectDocumented("GET /v1/balance/transactions", await merchant.client.get("/v1/balance/transactions"), 200);
    const created = await requestRefund(merchant.client, charge.id, { amount: 400 });
    expectDocumented("POST /v1/transactions/{id}/refunds", created, 201);
    expectDocumented(
      "POST /v1/transactions/{id}/refunds",
      await requestRefund(merchant.client, charge.id, { amount: 601 }),
      409,
    );
    expectDocumented(
      "GET /v1/transactions/{id}/refunds",
      await merchant.client.get(`/v1/transactions/${charge.id}/refunds`),
      200,
    );
    expectDocumented("GET /v1/refunds/{id}", await merchant.client.get(`/v1/refunds/${created.body.id}`), 200);
    expectDocumented("GET /v1/refunds/{id}", await merchant.client.get("/v1/refunds/rfd_nope"), 404);
    expectDocumented("GET /v1/transactions/{id}", await merchant.client.get(`/v1/transactions/${charge.id}`), 200);
    const live = merchantClient(ctx.app, merchant.liveKey);
    expectDocumented("POST /v1/transactions", await live.post("/v1/transactions", { amount: 100 }), 503);
  });

  test("when an owner manages payout keys and withdraws, then each reply matches its schema", async () => {
    const owner = await moneyOwner(ctx, 2_000);

    expectDocumented("GET /v1/me/payout-keys", await owner.panel.get("/v1/me/payout-keys"), 200);
    expectDocumented(
      "POST /v1/me/payout-keys",
      await owner.panel.post("/v1/me/payout-keys", { type: "phone", key: "+5511987654321" }),
      201,
    );
    expectDocumented(
      "POST /v1/me/payout-keys",
      await owner.panel.post("/v1/me/payout-keys", { type: "phone", key: "+5511987654321" }),
      409,
    );
    expectDocumented(
      "POST /v1/me/payout-keys",
      await owner.panel.post("/v1/me/payout-keys", { type: "cpf", key: "52998224725" }),
      400,
    );
    const created = await requestWithdrawal(owner.panel, { amount: 500, payout_key_id: owner.payoutKeyId });
    expectDocumented("POST /v1/me/withdrawals", created, 201);
    expectDocumented(
      "POST /v1/me/withdrawals",
      await requestWithdrawal(owner.panel, { amount: 5_000, payout_key_id: owner.payoutKeyId }),
      409,
    );
    expectDocumented(
      "POST /v1/me/withdrawals",
      await requestWithdrawal(owner.panel, { amount: 5, payout_key_id: owner.payoutKeyId, mode: "live" }),
      403,
    );
    expectDocumented("GET /v1/me/withdrawals", await owner.panel.get("/v1/me/withdrawals?status=pending"), 200);
    expectDocumented(
      "GET /v1/me/withdrawals/{id}",
      await owner.panel.get(`/v1/me/withdrawals/${created.body.id}`),
      200,
    );
    expectDocumented("GET /v1/withdrawals", await owner.api.get("/v1/withdrawals"), 200);
    expectDocumented("GET /v1/withdrawals/{id}", await owner.api.get(`/v1/withdrawals/${created.body.id}`), 200);
    expectDocumented("GET /v1/withdrawals/{id}", await owner.api.get("/v1/withdrawals/wd_nope"), 404);
    const ops = await signInOps(ctx);
    expectDocumented(
      "GET /v1/ops/withdrawals",
      await panelClient(ctx, ops.cookie).get("/v1/ops/withdrawals?stuck=true"),
      200,
    );
    expectDocumented(
      "DELETE /v1/me/payout-keys/{id}",
      await owner.panel.delete(`/v1/me/payout-keys/${owner.payoutKeyId}`),
      204,
    );
  });
});
