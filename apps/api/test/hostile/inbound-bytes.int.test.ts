/**
 * An inbound notification is stored byte-exact before anything else, whatever its body; text read
 * from it is made storable; every processing failure is recorded on the item; reprocess verifies the stored bytes.
 */
import request from "supertest";
import { processInboxItem, sandboxAcquirerSecret, signatureHeader } from "@lm/domain";
import { valorFromCentavos } from "@lm/pix-api";
import { useApiTestContext } from "../support/harness";
import { chargeBody, useTestMerchant } from "../support/merchant-client";
import { PANEL_ORIGIN, signInOps } from "../support/panel";

let sequence = 0;
const e2e = () => `E87654321202611231000${String(++sequence).padStart(11, "0")}`;

describe("inbound notifications with hostile bodies", () => {
  const ctx = useApiTestContext({ TRUST_PROXY: "loopback" });
  const merchant = useTestMerchant(ctx);
  let secret: string;
  let opsCookie: string;
  beforeAll(async () => {
    secret = sandboxAcquirerSecret(ctx.config.encryptionKey);
    opsCookie = (await signInOps(ctx)).cookie;
  });

  const post = (body: Buffer) =>
    request(ctx.app)
      .post("/v1/acquirers/sandbox/notifications")
      .set("Content-Type", "application/json")
      .set("X-Acquirer-Signature", signatureHeader([secret], Math.floor(Date.now() / 1000), body))
      // The bytes as they are: superagent would otherwise write a Buffer as JSON.
      .serialize((bytes: Buffer) => bytes as unknown as string)
      .send(body);
  const newestItem = () => ctx.db.inboxItem.findFirstOrThrow({ orderBy: { id: "desc" } });
  const charge = async () => (await merchant.client.post("/v1/transactions", chargeBody()).expect(201)).body;
  const paymentBody = (txn: { txid: string; amount: number }, payerName: string) =>
    Buffer.from(
      JSON.stringify({
        pix: [
          {
            endToEndId: e2e(),
            txid: txn.txid,
            valor: valorFromCentavos(txn.amount),
            horario: new Date().toISOString(),
            pagador: { nome: payerName },
          },
        ],
      }),
    );

  test("when a signed body holds a NUL byte, then 200 and the exact bytes are stored as a malformed item", async () => {
    const body = Buffer.from('{"pix":[\u0000]}', "utf8");

    const res = await post(body);

    expect(res.status).toBe(200);
    const item = await newestItem();
    expect(Buffer.from(item.raw_body).equals(body)).toBe(true);
    expect(item).toMatchObject({ signature_valid: true, error: "malformed_notification" });
  });

  test("when a signed body is not UTF-8, then its bytes are kept, the detail shows them in base64 and reprocess still finds the signature valid", async () => {
    const body = Buffer.concat([Buffer.from('{"pix":"'), Buffer.from([0xff, 0xfe, 0xc0]), Buffer.from('"}')]);
    await post(body).expect(200);
    const item = await newestItem();

    const detail = await request(ctx.app).get(`/v1/ops/inbox/${item.id}`).set("Cookie", opsCookie);
    await request(ctx.app)
      .post(`/v1/ops/inbox/${item.id}/reprocess`)
      .set("Cookie", opsCookie)
      .set("Origin", PANEL_ORIGIN)
      .expect(202);

    expect(Buffer.from(item.raw_body).equals(body)).toBe(true);
    expect(detail.body).toMatchObject({ raw_body: body.toString("base64"), raw_body_encoding: "base64" });
    const reprocessed = await ctx.db.inboxItem.findUniqueOrThrow({ where: { id: item.id } });
    expect(reprocessed.signature_valid).toBe(true);
    expect(reprocessed.reprocessed_at).not.toBeNull();
  });

  test.each([
    ["an escaped NUL", "Jo\\u0000ão", "Jo\ufffdão"],
    ["a lone surrogate", "Jo\\ud800ão", "Jo\ufffdão"],
  ])(
    "when a signed payment's payer name holds %s, then the charge is paid and the name kept with U+FFFD",
    async (_label, escaped, stored) => {
      const txn = await charge();
      const body = Buffer.from(paymentBody(txn, "PLACEHOLDER").toString("utf8").replace("PLACEHOLDER", escaped));
      await post(body).expect(200);
      const item = await newestItem();

      const outcome = await processInboxItem(ctx.deps, item.id);

      expect(outcome).toBe("paid");
      const row = await ctx.db.transaction.findUniqueOrThrow({ where: { id: txn.id } });
      expect(row).toMatchObject({ status: "paid", payer_name: stored });
    },
  );

  test("when processing throws, then the failure is on the item and a later success clears it", async () => {
    const txn = await charge();
    await post(paymentBody(txn, "Ana")).expect(200);
    const item = await newestItem();
    // A real refusal by PostgreSQL, in this file's own database: the charge's row cannot be updated for now.
    await ctx.db.$executeRawUnsafe(`CREATE FUNCTION refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'charge rows are frozen'; END $$`);
    await ctx.db.$executeRawUnsafe(
      `CREATE TRIGGER frozen BEFORE UPDATE ON transactions FOR EACH ROW EXECUTE FUNCTION refuse_update()`,
    );

    await expect(processInboxItem(ctx.deps, item.id)).rejects.toThrow();
    const failed = await ctx.db.inboxItem.findUniqueOrThrow({ where: { id: item.id } });
    await ctx.db.$executeRawUnsafe(`DROP TRIGGER frozen ON transactions`);
    const outcome = await processInboxItem(ctx.deps, item.id);

    expect(failed.error).toBe("processing_failed: charge rows are frozen");
    expect(failed.attempts).toBe(1);
    expect(outcome).toBe("paid");
    expect(await ctx.db.inboxItem.findUniqueOrThrow({ where: { id: item.id } })).toMatchObject({
      error: null,
      transaction_id: txn.id,
    });
  });
});
