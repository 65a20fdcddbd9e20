import { generateCnpj, generateCpf } from "@brazilian-utils/brazilian-utils";
import { readSellerDocument } from "@lm/domain";
import { useApiTestContext } from "../support/harness";
import { mailsTo, signUpOwner } from "../support/panel";
import { endpointOwner, panelClient } from "../support/webhook-endpoints";

const EVP = "71c7d9be-4b85-4e43-9f1c-1f3b8b4e9a2d";

describe("payout keys", () => {
  const ctx = useApiTestContext();

  test("when a stepped-up owner adds one key of each kind, then 201 each, masked, listed newest first, mailed and in the feed", async () => {
    const owner = await endpointOwner(ctx);
    const cpf = readSellerDocument(ctx.config.encryptionKey, owner.seller).digits;
    const bodies = [
      { type: "cpf", key: `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}` },
      { type: "email", key: "Financeiro@Example.com" },
      { type: "phone", key: "+5511987654321" },
      { type: "evp", key: EVP.toUpperCase() },
    ];

    const replies = [];
    for (const body of bodies) replies.push(await owner.panel.post("/v1/me/payout-keys", body));

    expect(replies.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(replies.map((r) => r.body.key_masked)).toEqual([
      `***.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-**`,
      "f***@example.com",
      "+5511*****4321",
      "71c7d9be-****-****-****-********9a2d",
    ]);
    expect(replies[0]?.body).toEqual({
      id: expect.stringMatching(/^pk_[0-9A-Z]{26}$/),
      object: "payout_key",
      type: "cpf",
      key_masked: expect.any(String),
      created_at: expect.any(String),
    });
    const listed = (await owner.panel.get("/v1/me/payout-keys")).body;
    expect(listed.data.map((k: { id: string }) => k.id)).toEqual(replies.map((r) => r.body.id).reverse());
    expect(JSON.stringify(listed)).not.toContain(cpf);
    expect(await mailsTo(ctx, owner.email, /^Payout key added/)).toHaveLength(4);
    const feed = (await owner.panel.get("/v1/me/notifications")).body.data;
    expect(feed.filter((n: { type: string }) => n.type === "payout_key.added")).toHaveLength(4);
  });

  test.each([
    ["a CPF that is not the seller's", () => ({ type: "cpf", key: generateCpf() })],
    ["a CNPJ that is not the seller's", () => ({ type: "cnpj", key: generateCnpj() })],
    ["a CPF with wrong check digits", () => ({ type: "cpf", key: "52998224724" })],
    ["an email without a domain", () => ({ type: "email", key: "ana@" })],
    ["a phone without +55", () => ({ type: "phone", key: "11987654321" })],
    ["a landline", () => ({ type: "phone", key: "+551133334444" })],
    ["an EVP that is not a UUID", () => ({ type: "evp", key: "71c7d9be-4b85-4e43-9f1c" })],
    ["an email given as type evp", () => ({ type: "evp", key: "ana@example.com" })],
  ])("when the key is %s, then 400 validation_failed with param key and nothing is stored", async (_label, body) => {
    const owner = await endpointOwner(ctx);

    const res = await owner.panel.post("/v1/me/payout-keys", body());

    expect([res.status, res.body.error.code, res.body.error.param]).toEqual([400, "validation_failed", "key"]);
    expect(await ctx.db.payoutKey.count({ where: { seller_id: owner.seller.id } })).toBe(0);
  });

  test("when a key is added twice, or a sixth key, then 409 invalid_state", async () => {
    const owner = await endpointOwner(ctx);
    for (const n of [1, 2, 3, 4, 5])
      await owner.panel.post("/v1/me/payout-keys", { type: "email", key: `k${n}@example.com` }).expect(201);

    const duplicate = await owner.panel.post("/v1/me/payout-keys", { type: "email", key: "K1@example.com" });
    const sixth = await owner.panel.post("/v1/me/payout-keys", { type: "email", key: "k6@example.com" });

    expect([duplicate.status, duplicate.body.error.code]).toEqual([409, "invalid_state"]);
    expect([sixth.status, sixth.body.error.code]).toEqual([409, "invalid_state"]);
    expect(await ctx.db.payoutKey.count({ where: { seller_id: owner.seller.id } })).toBe(5);
  });

  test("when 10 adds race for the last free places, then at most 5 keys exist", async () => {
    const owner = await endpointOwner(ctx);
    await owner.panel.post("/v1/me/payout-keys", { type: "email", key: "first@example.com" }).expect(201);

    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        owner.panel.post("/v1/me/payout-keys", { type: "email", key: `race${n}@example.com` }),
      ),
    );

    expect(replies.filter((r) => r.status === 201)).toHaveLength(4);
    expect(await ctx.db.payoutKey.count({ where: { seller_id: owner.seller.id, deleted_at: null } })).toBe(5);
  });

  test("when a key is deleted, then 204, it leaves the list, the owners are mailed, and a second delete is 404", async () => {
    const owner = await endpointOwner(ctx);
    const key = (await owner.panel.post("/v1/me/payout-keys", { type: "evp", key: EVP }).expect(201)).body;

    const res = await owner.panel.delete(`/v1/me/payout-keys/${key.id}`);

    expect(res.status).toBe(204);
    expect((await owner.panel.get("/v1/me/payout-keys")).body.data).toEqual([]);
    expect(await mailsTo(ctx, owner.email, /^Payout key deleted/)).toHaveLength(1);
    expect((await owner.panel.delete(`/v1/me/payout-keys/${key.id}`)).status).toBe(404);
    // Deleted, the same key can be added again.
    expect((await owner.panel.post("/v1/me/payout-keys", { type: "evp", key: EVP })).status).toBe(201);
  });

  test("when the session has no step-up, then adding or deleting is 403 mfa_required; another seller's key is 404", async () => {
    const owner = await signUpOwner(ctx);
    const other = await endpointOwner(ctx);
    const otherKey = (await other.panel.post("/v1/me/payout-keys", { type: "evp", key: EVP }).expect(201)).body;

    const added = await panelClient(ctx, owner.cookie).post("/v1/me/payout-keys", { type: "evp", key: EVP });
    const deleted = await panelClient(ctx, owner.cookie).delete(`/v1/me/payout-keys/${otherKey.id}`);
    const foreign = await (await endpointOwner(ctx)).panel.delete(`/v1/me/payout-keys/${otherKey.id}`);

    expect([added.status, added.body.error.code]).toEqual([403, "mfa_required"]);
    expect([deleted.status, deleted.body.error.code]).toEqual([403, "mfa_required"]);
    expect([foreign.status, foreign.body.error.code]).toEqual([404, "resource_not_found"]);
    expect((await panelClient(ctx, owner.cookie).get("/v1/me/payout-keys")).status).toBe(200);
  });
});
