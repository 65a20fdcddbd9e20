import { createApiKey, readSellerDocument, setSellerKyc } from "@lm/domain";
import { useApiTestContext } from "../support/harness";
import { merchantClient } from "../support/merchant-client";
import { signUpOwner } from "../support/panel";
import { endpointOwner, panelClient } from "../support/webhook-endpoints";

describe("the seller profile", () => {
  const ctx = useApiTestContext();

  test("when an owner reads their seller, then the profile comes with the document masked and the KYC status", async () => {
    const owner = await signUpOwner(ctx);

    const res = await panelClient(ctx, owner.cookie).get("/v1/me/seller");

    expect(res.status).toBe(200);
    const digits = readSellerDocument(ctx.config.encryptionKey, owner.seller).digits;
    expect(res.body).toEqual({
      id: owner.seller.id,
      object: "seller",
      status: "pending",
      legal_name: owner.seller.legal_name,
      trade_name: null,
      document_type: "cpf",
      document_masked: `***.${digits.slice(3, 6)}.${digits.slice(6, 9)}-**`,
      email: null,
      withdrawals_locked_until: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(JSON.stringify(res.body)).not.toContain(digits);
  });

  test("when an owner without a step-up changes the profile while the account toggle is on, then 403 mfa_required and nothing changes", async () => {
    const owner = await signUpOwner(ctx);

    const res = await panelClient(ctx, owner.cookie).patch("/v1/me/seller", { trade_name: "Loja Nova" });

    expect([res.status, res.body.error.code]).toEqual([403, "mfa_required"]);
    expect((await ctx.db.seller.findUniqueOrThrow({ where: { id: owner.seller.id } })).trade_name).toBeNull();
  });

  test("when a stepped-up owner changes trade name and email, then 200, seller.updated for both modes and a feed item", async () => {
    const owner = await endpointOwner(ctx);

    const res = await owner.panel.patch("/v1/me/seller", { trade_name: "Loja Nova", email: "Financeiro@Example.com" });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ trade_name: "Loja Nova", email: "financeiro@example.com" });
    const events = await ctx.db.event.findMany({
      where: { store_id: owner.storeId, type: "seller.updated" },
      orderBy: { mode: "asc" },
    });
    expect(events.map((e) => [e.mode, e.data])).toEqual([
      ["live", res.body],
      ["test", res.body],
    ]);
    const feed = (await owner.panel.get("/v1/me/notifications")).body.data;
    expect(feed[0]).toMatchObject({ type: "seller.updated", title: "Seller profile updated" });
  });

  test.each([
    ["legal_name", { legal_name: "Outra" }, "legal_name"],
    ["an empty body", {}, undefined],
    ["a bad email", { email: "not-an-email" }, "email"],
  ])("when the change names %s, then 400 validation_failed", async (_label, body, param) => {
    const owner = await endpointOwner(ctx);

    const res = await owner.panel.patch("/v1/me/seller", body);

    expect([res.status, res.body.error.code, res.body.error.param]).toEqual([400, "validation_failed", param]);
  });

  test("when an operator decides KYC, then the seller reads the new status and gets seller.updated and a feed item", async () => {
    const owner = await signUpOwner(ctx);
    const store = await ctx.db.store.findFirstOrThrow({ where: { seller_id: owner.seller.id } });

    await setSellerKyc(ctx.deps.repos, owner.seller.id, "approved");

    const read = (await panelClient(ctx, owner.cookie).get("/v1/me/seller")).body;
    expect(read.status).toBe("approved");
    const events = await ctx.db.event.findMany({ where: { store_id: store.id, type: "seller.updated" } });
    expect(events.map((e) => e.data)).toEqual([read, read]);
    const feed = (await panelClient(ctx, owner.cookie).get("/v1/me/notifications")).body.data;
    expect(feed[0]).toMatchObject({ type: "seller.updated", data: { kyc_status: "approved" } });
  });

  test("when an API key reads /v1/seller, then it gets its store's seller", async () => {
    const owner = await signUpOwner(ctx);
    const store = await ctx.db.store.findFirstOrThrow({ where: { seller_id: owner.seller.id } });
    const { key } = await createApiKey(ctx.deps.repos, { storeId: store.id, name: "k", mode: "test", now: new Date() });

    const res = await merchantClient(ctx.app, key).get("/v1/seller");

    expect(res.status).toBe(200);
    expect(res.body).toEqual((await panelClient(ctx, owner.cookie).get("/v1/me/seller")).body);
  });
});
