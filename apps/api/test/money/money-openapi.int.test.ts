import request from "supertest";
import { useApiTestContext } from "../support/harness";
import { merchantClient, useTestMerchant } from "../support/merchant-client";
import { paidCharge } from "../support/money";
import type { Json, JsonObject } from "../support/openapi-document";
import { replyProblems } from "../support/schema-conformance";
import { endpointOwner } from "../support/webhook-endpoints";

describe("openapi.json reply schemas of the money routes (DESIGN §7)", () => {
  const ctx = useApiTestContext();
  const merchant = useTestMerchant(ctx);
  let document: JsonObject;

  beforeAll(async () => {
    document = (await request(ctx.app).get("/openapi.json").expect(200)).body as JsonObject;
  });

  const expectDocumented = (operation: string, res: request.Response, status: number) => {
    expect({ operation, status: res.status }).toEqual({ operation, status });
    expect(replyProblems(document, operation, res.status, res.body as Json)).toEqual([]);
  };

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
    const created = await merchant.client.post(`/v1/transactions/${charge.id}/refunds`, { amount: 400 });
    expectDocumented("POST /v1/transactions/{id}/refunds", created, 201);
    expectDocumented("POST /v1/transactions/{id}/refunds", await merchant.client.post(`/v1/transactions/${charge.id}/refunds`, { amount: 601 }), 409);
    expectDocumented("GET /v1/transactions/{id}/refunds", await merchant.client.get(`/v1/transactions/${charge.id}/refunds`), 200);
    expectDocumented("GET /v1/refunds/{id}", await merchant.client.get(`/v1/refunds/${created.body.id}`), 200);
    expectDocumented("GET /v1/refunds/{id}", await merchant.client.get("/v1/refunds/rfd_nope"), 404);
    expectDocumented("GET /v1/transactions/{id}", await merchant.client.get(`/v1/transactions/${charge.id}`), 200);
    const live = merchantClient(ctx.app, merchant.liveKey);
    const liveCharge = (await live.post("/v1/transactions", { amount: 100 })).body;
    expectDocumented("POST /v1/transactions/{id}/refunds", await live.post(`/v1/transactions/${liveCharge.id}/refunds`, {}), 503);
  });
});
