import request from "supertest";
import { inboxJobsIn } from "@lm/testing";
import { createAcquirer, encryptSecret, processInboxItem, sandboxAcquirerSecret, signatureHeader } from "@lm/domain";
import { valorFromCentavos } from "@lm/pix-api";
import { chargeBody, merchantClient, useTestMerchant } from "../support/merchant-client";
import { useApiTestContext } from "../support/harness";
import { useLiveBank } from "../support/live-bank";
import { PANEL_ORIGIN, signInOps, signUpOwner } from "../support/panel";

describe("ops inbox API", () => {
  const ctx = useApiTestContext({ TRUST_PROXY: "loopback" });
  useLiveBank(ctx);
  const merchant = useTestMerchant(ctx);
  /** Requests of a signed-in operator. */
  let opsCookie: string;
  const asOps = {
    get: (url: string) => request(ctx.app).get(url).set("Cookie", opsCookie),
    post: (url: string) => request(ctx.app).post(url).set("Cookie", opsCookie).set("Origin", PANEL_ORIGIN),
  };
  beforeAll(async () => {
    opsCookie = (await signInOps(ctx)).cookie;
  });

  let sequence = 0;
  /** Posts a payment for a new charge: a test charge for the sandbox, a live one for real acquirers. */
  async function notify(slug: string, signWith: string, amount = 1050) {
    const key = slug === "sandbox" ? merchant.testKey : merchant.liveKey;
    const txn = (await merchantClient(ctx.app, key).post("/v1/transactions", chargeBody({ amount })).expect(201)).body;
    const endToEndId = `E99999999202611211200${String(++sequence).padStart(11, "0")}`;
    const body = JSON.stringify({
      pix: [{ endToEndId, txid: txn.txid, valor: valorFromCentavos(amount), horario: new Date().toISOString() }],
    });
    await request(ctx.app)
      .post(`/v1/acquirers/${slug}/notifications`)
      .set("Content-Type", "application/json")
      .set("X-Acquirer-Signature", signatureHeader([signWith], Math.floor(Date.now() / 1000), body))
      .send(body)
      .expect(200);
    const item = await ctx.db.inboxItem.findFirstOrThrow({ where: { end_to_end_id: endToEndId } });
    return { txn, item, body };
  }

  test("when the ops inbox is called without a session, then 401 authentication_required", async () => {
    const res = await request(ctx.app).get("/v1/ops/inbox");

    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("authentication_required");
  });

  test("when a seller's owner calls the ops inbox, then 403 permission_denied", async () => {
    const owner = await signUpOwner(ctx);

    const res = await request(ctx.app).get("/v1/ops/inbox").set("Cookie", owner.cookie);

    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("permission_denied");
  });

  test("when an item is read, then the detail has the SPEC fields plus raw_body and headers as strings", async () => {
    const { item, body } = await notify("sandbox", sandboxAcquirerSecret(ctx.config.encryptionKey));

    const res = await asOps.get(`/v1/ops/inbox/${item.id}`);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: item.id,
      object: "inbox_item",
      acquirer: { id: item.acquirer_id, slug: "sandbox" },
      provider_event_id: item.end_to_end_id,
      event_type: "pix",
      signature_valid: true,
      received_at: item.received_at.toISOString(),
      processed_at: null,
      attempts: 0,
      error: null,
      note: null,
      transaction_id: null,
      withdrawal_id: null,
      end_to_end_id: item.end_to_end_id,
      reprocessed_at: null,
      raw_body: body,
      raw_body_encoding: "utf8",
      headers: expect.objectContaining({
        "content-type": "application/json",
        "x-acquirer-signature": expect.any(String),
      }),
    });
    expect(Object.values(res.body.headers).every((v) => typeof v === "string")).toBe(true);
  });

  test("when the inbox is listed by acquirer and status, then only matching items, without raw_body", async () => {
    const { secret } = await createAcquirer(ctx.deps.repos, ctx.config, "listed-bank");
    const invalid = await notify("listed-bank", "whsec_wrong");
    const valid = await notify("listed-bank", secret);

    const failed = (await asOps.get("/v1/ops/inbox?acquirer=listed-bank&status=failed").expect(200)).body;
    const pending = (await asOps.get("/v1/ops/inbox?acquirer=listed-bank&status=pending").expect(200)).body;

    expect(failed.object).toBe("list");
    expect(failed.data.map((i: { id: string }) => i.id)).toEqual([invalid.item.id]);
    expect(pending.data.map((i: { id: string }) => i.id)).toEqual([valid.item.id]);
    expect(pending.data[0].raw_body).toBeUndefined();
    expect((await asOps.get("/v1/ops/inbox?status=lost")).status).toBe(400);
  });

  test("when an item signed with a secret ops had not configured is reprocessed after the fix, then it settles the charge", async () => {
    const { acquirer } = await createAcquirer(ctx.deps.repos, ctx.config, "late-config-bank");
    const actual = "whsec_the-secret-the-bank-really-uses";
    const { txn, item } = await notify("late-config-bank", actual);
    expect(item.signature_valid).toBe(false);
    // As if that acquirer had registered the charge: only a charge's own acquirer can pay it (DESIGN §9).
    await ctx.db.transaction.update({ where: { id: txn.id }, data: { acquirer_id: acquirer.id } });
    await ctx.db.acquirer.update({
      where: { id: acquirer.id },
      data: { secret_ciphertext: encryptSecret(ctx.config.encryptionKey, actual, acquirer.id) },
    });

    const res = await asOps.post(`/v1/ops/inbox/${item.id}/reprocess`);

    expect(res.status).toBe(202);
    expect(res.body).toEqual({});
    const reprocessed = await ctx.db.inboxItem.findUniqueOrThrow({ where: { id: item.id } });
    expect(reprocessed).toMatchObject({ signature_valid: true, error: null, reprocessed_at: expect.any(Date) });
    const jobs = await inboxJobsIn(ctx.deps.producer, ["waiting"]);
    expect(jobs.some((j) => j.data.inboxItemId === item.id)).toBe(true);
    expect(await processInboxItem(ctx.deps, item.id)).toBe("paid");
    expect((await ctx.db.transaction.findUniqueOrThrow({ where: { id: txn.id } })).status).toBe("paid");
  });

  test("when a settled item is reprocessed, then processing finds the payment already applied and changes nothing", async () => {
    const { txn, item } = await notify("sandbox", sandboxAcquirerSecret(ctx.config.encryptionKey));
    expect(await processInboxItem(ctx.deps, item.id)).toBe("paid");
    const paid = await ctx.db.transaction.findUniqueOrThrow({ where: { id: txn.id } });

    await asOps.post(`/v1/ops/inbox/${item.id}/reprocess`).expect(202);

    expect(await processInboxItem(ctx.deps, item.id)).toBe("already_paid");
    expect(await ctx.db.transaction.findUniqueOrThrow({ where: { id: txn.id } })).toEqual(paid);
    expect(
      await ctx.db.event.count({ where: { type: "transaction.paid", data: { path: ["id"], equals: txn.id } } }),
    ).toBe(1);
  });

  test("when an unknown or malformed inbox id is asked for, then 404", async () => {
    expect((await asOps.get("/v1/ops/inbox/inb_01JD3Z0000000000000000000A")).status).toBe(404);
    expect((await asOps.post("/v1/ops/inbox/nope/reprocess")).status).toBe(404);
  });
});
