import {
  applyRetention,
  claimIdempotencyKey,
  cancelTransaction,
  createTransaction,
  IDEMPOTENCY_CLAIM_TIMEOUT_MS,
  idempotentReply,
} from "@lm/domain";
import { requestFingerprint } from "../../src/http/idempotency";
import { chargeBody, merchantClient, useTestMerchant } from "../support/merchant-client";
import { useApiTestContext } from "../support/harness";
import { useLiveBank } from "../support/live-bank";
import { processInbox } from "../support/money";

describe("Idempotency-Key on POST /v1/transactions", () => {
  const ctx = useApiTestContext();
  useLiveBank(ctx);
  const merchant = useTestMerchant(ctx);
  const countByExternalId = (external_id: string) => ctx.db.transaction.count({ where: { external_id } });

  test("when the same key is sent again with the same body, then the first reply is replayed and nothing new is made", async () => {
    const body = chargeBody({ external_id: "idem-replay" });
    const first = await merchant.client.post("/v1/transactions", body).set("Idempotency-Key", "key-replay-1");

    const second = await merchant.client.post("/v1/transactions", body).set("Idempotency-Key", "key-replay-1");

    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers["idempotent-replayed"]).toBe("true");
    expect(await countByExternalId("idem-replay")).toBe(1);
  });

  test("when a reply is replayed, then its bytes are exactly the first reply's bytes", async () => {
    const body = chargeBody({ external_id: "idem-bytes", description: "Café ção ü" });
    const first = await merchant.client.post("/v1/transactions", body).set("Idempotency-Key", "key-bytes-1");

    const second = await merchant.client.post("/v1/transactions", body).set("Idempotency-Key", "key-bytes-1");

    expect(second.headers["idempotent-replayed"]).toBe("true");
    expect(second.status).toBe(first.status);
    expect(second.headers["content-type"]).toBe(first.headers["content-type"]);
    expect(Buffer.from(second.text, "utf8").equals(Buffer.from(first.text, "utf8"))).toBe(true);
    // jsonb would have sorted the keys (shortest first: id, pix, mode, ...); the text keeps the serializer's order.
    expect(Object.keys(JSON.parse(second.text)).slice(0, 3)).toEqual(["id", "object", "status"]);
  });

  test("when a charge's reply is kept, then what the charge keeps for good (QR image, BR Code, customer, metadata) is not copied into the key's record, and a replay after the charge was paid is the first reply byte for byte", async () => {
    const body = chargeBody({ external_id: "idem-image", metadata: { qr_code_png_base64: "a metadata value" } });
    const first = await merchant.client.post("/v1/transactions", body).set("Idempotency-Key", "key-image-1");
    const image = first.body.pix.qr_code_png_base64 as string;
    await merchant.client.post(`/v1/transactions/${first.body.id}/simulate-payment`, {}).expect(202);
    await processInbox(ctx);

    const [record] = await ctx.db.idempotencyKey.findMany({ where: { key: "key-image-1" } });
    const second = await merchant.client.post("/v1/transactions", body).set("Idempotency-Key", "key-image-1");

    expect(image).toMatch(/^iVBOR/);
    expect(record?.response_body).not.toContain(image);
    const kept = Object.keys(JSON.parse(record!.response_body!) as object);
    expect(kept.filter((key) => ["pix", "customer", "metadata", "amount", "txid"].includes(key))).toEqual([]);
    expect(record!.response_body!.length).toBeLessThan(first.text.length / 2);
    expect((await merchant.client.get(`/v1/transactions/${first.body.id}`)).body.status).toBe("paid");
    expect(second.text).toBe(first.text);
    expect(second.body.metadata).toEqual({ qr_code_png_base64: "a metadata value" });
  });

  test("when the same key comes with another body, then 400 idempotency_key_reused", async () => {
    await merchant.client.post("/v1/transactions", chargeBody({ amount: 100 })).set("Idempotency-Key", "key-reused-1");

    const res = await merchant.client
      .post("/v1/transactions", chargeBody({ amount: 200 }))
      .set("Idempotency-Key", "key-reused-1");

    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: "idempotency_error", code: "idempotency_key_reused" });
  });

  test("when the first request with a key is still running, then 409 idempotency_key_in_progress", async () => {
    const body = chargeBody();
    await ctx.db.idempotencyKey.create({
      data: {
        id: "00000000-0000-4000-8000-000000000001",
        store_id: merchant.storeId,
        mode: "test",
        key: "key-running",
        request_hash: requestFingerprint("POST", "/v1/transactions", Buffer.from(JSON.stringify(body))),
        expires_at: new Date(Date.now() + 60_000),
      },
    });

    const res = await merchant.client.post("/v1/transactions", body).set("Idempotency-Key", "key-running");

    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ type: "idempotency_error", code: "idempotency_key_in_progress" });
  });

  test("when many identical requests with one key arrive at once, then exactly one transaction is made and all agree", async () => {
    const body = chargeBody({ external_id: "idem-concurrent" });

    const replies = await Promise.all(
      Array.from({ length: 8 }, () =>
        merchant.client.post("/v1/transactions", body).set("Idempotency-Key", "key-concurrent"),
      ),
    );

    expect(await countByExternalId("idem-concurrent")).toBe(1);
    const created = replies.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    for (const r of replies.filter((r) => r.status !== 201)) {
      expect(r.status).toBe(409);
      expect(r.body.error.code).toBe("idempotency_key_in_progress");
    }
  });

  test("when a request with a key is refused, then the key is released and the fixed request may use it", async () => {
    const refused = await merchant.client
      .post("/v1/transactions", chargeBody({ amount: 0 }))
      .set("Idempotency-Key", "key-fixable");

    const fixed = await merchant.client
      .post("/v1/transactions", chargeBody({ amount: 300 }))
      .set("Idempotency-Key", "key-fixable");

    expect(refused.status).toBe(400);
    expect(fixed.status).toBe(201);
  });

  test("when the key's record is over 24 h old, then the key starts afresh", async () => {
    const body = chargeBody({ external_id: "idem-expired-1" });
    const first = await merchant.client.post("/v1/transactions", body).set("Idempotency-Key", "key-old");
    await ctx.db.idempotencyKey.updateMany({
      where: { key: "key-old" },
      data: { expires_at: new Date(Date.now() - 1) },
    });

    const again = await merchant.client
      .post("/v1/transactions", chargeBody({ external_id: "idem-expired-2" }))
      .set("Idempotency-Key", "key-old");

    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(first.body.id);
  });

  test("when the same key is used by a live key of the same store, then it is a separate key space", async () => {
    const body = chargeBody();
    const test = await merchant.client.post("/v1/transactions", body).set("Idempotency-Key", "key-modes");

    const live = await merchantClient(ctx.app, merchant.liveKey)
      .post("/v1/transactions", body)
      .set("Idempotency-Key", "key-modes");

    expect(live.status).toBe(201);
    expect(live.body.id).not.toBe(test.body.id);
  });

  test("when the key is malformed, then 400 validation_failed naming Idempotency-Key", async () => {
    const res = await merchant.client.post("/v1/transactions", chargeBody()).set("Idempotency-Key", "x".repeat(256));

    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "validation_failed", param: "Idempotency-Key" });
  });

  test("when a claim was abandoned past the claim timeout (its process died), then a retry takes it over and runs", async () => {
    const body = chargeBody({ external_id: "idem-abandoned" });
    await ctx.db.idempotencyKey.create({
      data: {
        id: "00000000-0000-4000-8000-000000000002",
        store_id: merchant.storeId,
        mode: "test",
        key: "key-abandoned",
        request_hash: requestFingerprint("POST", "/v1/transactions", Buffer.from(JSON.stringify(body))),
        created_at: new Date(Date.now() - IDEMPOTENCY_CLAIM_TIMEOUT_MS - 1_000),
        expires_at: new Date(Date.now() + 60_000),
      },
    });

    const res = await merchant.client.post("/v1/transactions", body).set("Idempotency-Key", "key-abandoned");
    const replay = await merchant.client.post("/v1/transactions", body).set("Idempotency-Key", "key-abandoned");

    expect(res.status).toBe(201);
    expect(replay.body.id).toBe(res.body.id);
    expect(await countByExternalId("idem-abandoned")).toBe(1);
  });

  test("when a slow request's claim was taken over before it committed, then its charge rolls back with its reply", async () => {
    const scope = { storeId: merchant.storeId, mode: "test" as const };
    const now = new Date();
    const claim = await claimIdempotencyKey(ctx.deps.repos, scope, { key: "key-slow", requestHash: "h", now });
    if (claim.kind !== "claimed") throw new Error("expected a claim");
    // Another request took the claim over while this one was still running.
    await ctx.db.idempotencyKey.update({
      where: { id: claim.claimId },
      data: { created_at: new Date(now.getTime() + 1) },
    });

    const attempt = createTransaction(
      ctx.deps,
      { ...scope, storeName: "Loja" },
      { amount: 500, expires_in: 3600, external_id: "idem-slow" },
      { reply: (written) => idempotentReply(claim, 201, JSON.stringify({ id: written.id })) },
    );

    await expect(attempt).rejects.toMatchObject({ code: "idempotency_key_in_progress" });
    expect(await countByExternalId("idem-slow")).toBe(0);
    expect(
      await ctx.db.event.count({
        where: { store_id: merchant.storeId, data: { path: ["external_id"], equals: "idem-slow" } },
      }),
    ).toBe(0);
  });

  test("when a slow cancel's claim was taken over before it committed, then the charge stays pending", async () => {
    const scope = { storeId: merchant.storeId, mode: "test" as const };
    const created = await merchant.client.post("/v1/transactions", chargeBody()).expect(201);
    const now = new Date();
    const claim = await claimIdempotencyKey(ctx.deps.repos, scope, { key: "key-slow-cancel", requestHash: "h", now });
    if (claim.kind !== "claimed") throw new Error("expected a claim");
    await ctx.db.idempotencyKey.update({
      where: { id: claim.claimId },
      data: { created_at: new Date(now.getTime() + 1) },
    });

    const attempt = cancelTransaction(ctx.deps, scope, created.body.id, {
      reply: (written) => idempotentReply(claim, 200, JSON.stringify({ id: written.id })),
    });

    await expect(attempt).rejects.toMatchObject({ code: "idempotency_key_in_progress" });
    expect((await ctx.db.transaction.findUniqueOrThrow({ where: { id: created.body.id } })).status).toBe("pending");
  });

  test("when records are past their 24 h, then retention deletes them and keeps the others", async () => {
    await merchant.client.post("/v1/transactions", chargeBody()).set("Idempotency-Key", "key-purge-old").expect(201);
    await merchant.client.post("/v1/transactions", chargeBody()).set("Idempotency-Key", "key-purge-new").expect(201);
    await ctx.db.idempotencyKey.updateMany({
      where: { key: "key-purge-old" },
      data: { expires_at: new Date(Date.now() - 1) },
    });

    const { removed } = await applyRetention(ctx.deps, new Date());

    expect(removed.idempotency_keys).toBeGreaterThanOrEqual(1);
    const left = await ctx.db.idempotencyKey.findMany({
      where: { key: { startsWith: "key-purge-" } },
      select: { key: true },
    });
    expect(left.map((r) => r.key)).toEqual(["key-purge-new"]);
  });
});
