import { getPixPayloadInfo } from "@brazilian-utils/brazilian-utils";
import request from "supertest";
import { createAcquirer, findBalanceDrift, sandboxAcquirerSecret, signatureHeader } from "@lm/domain";
import { valorFromCentavos } from "@lm/pix-api";
import { createTestMerchant } from "@lm/testing";
import { useApiTestContext } from "../support/harness";
import { LIVE_BANK_SLUG, useLiveBank } from "../support/live-bank";
import { merchantClient, type MerchantClient } from "../support/merchant-client";
import { processInbox } from "../support/money";
import { paymentOf } from "../support/pix-payments";

/**
 * A live reusable QR code carries the live bank's Pix key and names that bank (DESIGN §9, §13): the bank's payments
 * to it, read back from the bank, make its charges; another acquirer's report of a payment to it, or the sandbox's,
 * moves nothing.
 */
describe("live reusable QR codes and their acquirer", () => {
  const ctx = useApiTestContext();
  const bank = useLiveBank(ctx);
  let live: MerchantClient;
  let intruder: { slug: string; secret: string };
  beforeAll(async () => {
    live = merchantClient(ctx.app, (await createTestMerchant(ctx.db)).liveKey);
    const { acquirer, secret } = await createAcquirer(ctx.deps.repos, ctx.config, "intruso");
    intruder = { slug: acquirer.slug, secret };
  });

  /** Posts `{pix: items}` as acquirer `slug` (signed with `secret`, else as a bank to the standard's `/pix` path). */
  const postPix = (slug: string, items: object[], secret?: string) => {
    const body = JSON.stringify({ pix: items });
    const req = request(ctx.app).post(`/v1/acquirers/${slug}/notifications${secret ? "" : "/pix"}`);
    if (secret) req.set("X-Acquirer-Signature", signatureHeader([secret], Math.floor(Date.now() / 1000), body));
    return req.set("Content-Type", "application/json").send(body).expect(200);
  };
  const liveCode = async (amount: number) =>
    (await live.post("/v1/qr-codes", { amount }).expect(201)).body as { id: string; txid: string; pix: object };
  const balance = async () => (await live.get("/v1/balance").expect(200)).body.available as number;

  afterEach(async () => {
    expect(await findBalanceDrift(ctx.deps.repos)).toEqual([]);
  });

  test("when a live code is created, then its BR Code carries the bank's Pix key and the code names the bank", async () => {
    const code = await liveCode(1500);

    const row = await ctx.db.qrCode.findUniqueOrThrow({ where: { id: code.id } });
    const acquirer = await ctx.db.acquirer.findUniqueOrThrow({ where: { slug: LIVE_BANK_SLUG } });
    expect(row).toMatchObject({ mode: "live", acquirer_id: acquirer.id });
    expect(getPixPayloadInfo((code.pix as { copy_paste: string }).copy_paste)).toMatchObject({
      key: bank.current.pixKey,
      amount: 15,
      txid: code.txid,
      pointOfInitiation: "static",
    });
  });

  test("when the bank notifies a payment to a live code, then the payment it confirms becomes a live charge of the bank", async () => {
    const code = await liveCode(2000);
    const before = await balance();
    const { endToEndId } = await bank.current.payCharge(code.txid, { amount: 2000, force: true, callback: "drop" });

    await postPix(LIVE_BANK_SLUG, [
      { endToEndId, txid: code.txid, valor: valorFromCentavos(2000), horario: new Date().toISOString() },
    ]);
    expect(await processInbox(ctx)).toEqual(["paid"]);

    const [charge] = await ctx.db.transaction.findMany({ where: { qr_code_id: code.id } });
    const acquirer = await ctx.db.acquirer.findUniqueOrThrow({ where: { slug: LIVE_BANK_SLUG } });
    expect(charge).toMatchObject({ mode: "live", type: "qr_code", status: "paid", acquirer_id: acquirer.id });
    expect(await balance()).toBe(before + 2000);
  });

  test("when another acquirer reports a payment to a live code, then acquirer_mismatch and nothing moves", async () => {
    const code = await liveCode(3000);
    const before = await balance();
    const forged = paymentOf({ txid: code.txid, amount: 3000 });

    await postPix(intruder.slug, [forged], intruder.secret);
    expect(await processInbox(ctx)).toEqual(["acquirer_mismatch"]);

    const items = await ctx.db.inboxItem.findMany({ where: { end_to_end_id: forged.endToEndId } });
    expect(items.map((item) => item.error)).toEqual(["acquirer_mismatch: the QR code is another acquirer's"]);
    expect(await ctx.db.transaction.count({ where: { qr_code_id: code.id } })).toBe(0);
    expect((await live.get(`/v1/qr-codes/${code.id}`)).body.payments_count).toBe(0);
    expect(await balance()).toBe(before);
  });

  test("when the sandbox reports a payment to a live code, then mode_mismatch and nothing moves", async () => {
    const code = await liveCode(4000);
    const forged = paymentOf({ txid: code.txid, amount: 4000 });

    await postPix("sandbox", [forged], sandboxAcquirerSecret(ctx.config.encryptionKey));
    expect(await processInbox(ctx)).toEqual(["mode_mismatch"]);

    expect(await ctx.db.transaction.count({ where: { qr_code_id: code.id } })).toBe(0);
  });
});
