import request from "supertest";
import {
  processInboxItem,
  reconcileServingBankAcquirers,
  setSellerKyc,
  submitRefund,
  submitWithdrawal,
  type UseCaseDeps,
} from "@lm/domain";
import { valorFromCentavos } from "@lm/pix-api";
import { waitUntil } from "@lm/testing";
import { useApiTestContext } from "../support/harness";
import { LIVE_BANK_SLUG, useLiveBank } from "../support/live-bank";
import { merchantClient, useTestMerchant, type MerchantClient } from "../support/merchant-client";
import { processInbox } from "../support/money";
import { requestRefund } from "../support/money-requests";
import { addPayoutKeyAgo } from "../support/money-owner";
import { endpointOwner, ownerMerchantClient } from "../support/webhook-endpoints";

const MINUTE_MS = 60_000;

/**
 * A bank of the API Pix standard (DESIGN §9 "Inbound notifications", "Reconciliation"): its unsigned notifications
 * are hints read back from the bank, and what no notification said is found by the reconciliation. The emulated bank
 * has no webhook registered here, so it posts nothing: each test says what arrives.
 */
describe("a bank's notifications and its reconciliation", () => {
  const ctx = useApiTestContext();
  const bank = useLiveBank(ctx);
  const merchant = useTestMerchant(ctx);
  let live: MerchantClient;
  beforeAll(() => {
    live = merchantClient(ctx.app, merchant.liveKey);
  });

  const notify = (items: object[]) =>
    request(ctx.app)
      .post(`/v1/acquirers/${LIVE_BANK_SLUG}/notifications/pix`)
      .set("Content-Type", "application/json")
      .send(JSON.stringify({ pix: items }));
  const createCharge = async (amount: number) =>
    (await live.post("/v1/transactions", { amount }).expect(201)).body as { id: string; txid: string };
  const chargeOf = async (id: string) => (await live.get(`/v1/transactions/${id}`).expect(200)).body;
  const later = (ms: number) => ({ ...ctx.deps, now: () => new Date(Date.now() + ms) });
  /**
   * The reconciliation with `deps`, run until it finds something, and what it found: the emulator settles a refund or
   * a payout 10 ms after accepting it, on its own timer, so a sweep run at once may still read it as processing.
   */
  const reconcileOnceSettled = (deps: UseCaseDeps) =>
    waitUntil("the bank to settle and the sweep to read it back", async () => {
      const found = await reconcileServingBankAcquirers(deps);
      return found > 0 ? found : null;
    });
  const itemsOf = (endToEndId: string) =>
    ctx.db.inboxItem.findMany({ where: { end_to_end_id: endToEndId }, orderBy: { id: "asc" } });

  afterEach(() => {
    expect(bank.current.violations()).toEqual([]);
  });

  test("when a bank posts to /notifications/pix unsigned, then the payment is read back and the bank's figures settle the charge", async () => {
    const charge = await createCharge(2_500);
    const { endToEndId } = await bank.current.payCharge(charge.txid, { callback: "drop" });

    const res = await notify([{ endToEndId, txid: charge.txid, valor: "1.00", horario: new Date().toISOString() }]);

    expect(res.status).toBe(200);
    expect(await processInbox(ctx)).toEqual(["paid"]);
    expect(await chargeOf(charge.id)).toMatchObject({
      status: "paid",
      payment: { end_to_end_id: endToEndId, amount: 2_500 },
    });
    expect(await itemsOf(endToEndId)).toEqual([
      expect.objectContaining({ signature_valid: true, source: "notification", error: null }),
    ]);
  });

  test("when the bank cannot be asked back, then the item records processing_failed and a retry settles it", async () => {
    const charge = await createCharge(2_600);
    const { endToEndId } = await bank.current.payCharge(charge.txid, { callback: "drop" });
    await notify([{ endToEndId, txid: charge.txid, valor: "26.00", horario: new Date().toISOString() }]).expect(200);
    const [item] = await itemsOf(endToEndId);
    bank.current.failNext(1, 503);

    const first = await processInboxItem(ctx.deps, item!.id).catch((err: Error) => err);
    const failed = await ctx.db.inboxItem.findUniqueOrThrow({ where: { id: item!.id } });
    const second = await processInboxItem(ctx.deps, item!.id);

    expect(first).toBeInstanceOf(Error);
    expect(failed.error).toMatch(/^processing_failed: /);
    expect(failed.processed_at).toBeNull();
    expect(second).toBe("paid");
    expect((await chargeOf(charge.id)).status).toBe("paid");
  });

  test("when a notification names a payment the bank does not know, then not_confirmed_by_acquirer and nothing moves", async () => {
    const charge = await createCharge(2_700);
    const forged = "E12345678202611261200forged00001";

    await notify([{ endToEndId: forged, txid: charge.txid, valor: "27.00", horario: new Date().toISOString() }]).expect(
      200,
    );

    await notify([
      { endToEndId: "E-not-a-pix-id", txid: charge.txid, valor: "27.00", horario: new Date().toISOString() },
    ]);
    const asked = bank.current.requests().length;

    expect(await processInbox(ctx)).toEqual(["not_confirmed_by_acquirer", "not_confirmed_by_acquirer"]);
    expect(bank.current.requests().length - asked).toBe(1); // only the well-formed id was asked about
    expect((await itemsOf(forged))[0]?.error).toMatch(/^not_confirmed_by_acquirer/);
    expect((await chargeOf(charge.id)).status).toBe("pending");
    expect(await ctx.db.balanceTransaction.count({ where: { source_id: charge.id } })).toBe(0);
  });

  test("when the sweep runs, then a payment no notification reported is stored once, settles, and the watermark moves", async () => {
    const charge = await createCharge(2_800);
    const { endToEndId } = await bank.current.payCharge(charge.txid, { callback: "drop" });

    const stored = await reconcileServingBankAcquirers(ctx.deps);
    const results = await processInbox(ctx);
    const again = await reconcileServingBankAcquirers(ctx.deps);

    expect(stored).toBe(1);
    expect(results).toEqual(["paid"]);
    expect(again).toBe(0);
    expect((await chargeOf(charge.id)).status).toBe("paid");
    expect(await itemsOf(endToEndId)).toEqual([expect.objectContaining({ source: "reconciliation", error: null })]);
    const acquirer = await ctx.db.acquirer.findUniqueOrThrow({ where: { slug: LIVE_BANK_SLUG } });
    expect(acquirer.reconciled_until?.getTime()).toBeGreaterThan(Date.now() - MINUTE_MS);
  });

  test("when the bank reports a devolução nobody asked for (MED), then it is read back and recorded as a dispute", async () => {
    const charge = await createCharge(4_000);
    const { endToEndId } = await bank.current.payCharge(charge.txid, { callback: "drop" });
    await notify([{ endToEndId, txid: charge.txid, valor: "40.00", horario: new Date().toISOString() }]).expect(200);
    await processInbox(ctx);
    const med = await bank.current.med(endToEndId, 1_500, { callback: "drop" });

    await notify([
      {
        endToEndId,
        txid: charge.txid,
        valor: "40.00",
        horario: new Date().toISOString(),
        devolucoes: [{ id: med.id, rtrId: med.rtrId, valor: "15.00", status: "DEVOLVIDO", horario: {} }],
      },
    ]).expect(200);

    expect(await processInbox(ctx)).toEqual(["disputed"]);
    expect((await live.get("/v1/disputes").expect(200)).body.data).toEqual([
      expect.objectContaining({ transaction_id: charge.id, amount: 1_500, end_to_end_id: med.rtrId, status: "lost" }),
    ]);
    expect((await chargeOf(charge.id)).amount_disputed).toBe(1_500);
  });

  test("when a refund's outcome never arrives, then the sweep reads it back once it is 10 minutes old and settles it", async () => {
    const charge = await createCharge(3_000);
    await bank.current.payCharge(charge.txid, { callback: "drop" });
    await reconcileServingBankAcquirers(ctx.deps);
    await processInbox(ctx);
    const refund = (await requestRefund(live, charge.id, { amount: 1_000 }).expect(201)).body;
    expect(await submitRefund(ctx.deps, refund.id)).toBe("sent");

    const early = await reconcileServingBankAcquirers(later(MINUTE_MS));
    const late = await reconcileOnceSettled(later(11 * MINUTE_MS));
    await processInbox(ctx);

    expect(early).toBe(0);
    expect(late).toBe(1);
    expect((await live.get(`/v1/refunds/${refund.id}`)).body).toMatchObject({
      status: "succeeded",
      end_to_end_id: expect.stringMatching(/^D/),
    });
    expect((await chargeOf(charge.id)).amount_refunded).toBe(1_000);
  });

  test("when a payout's outcome never arrives, then the sweep reads it back and the withdrawal completes", async () => {
    const owner = await endpointOwner(ctx);
    const payoutEmail = `payout-${owner.seller.id.slice(-6).toLowerCase()}@example.com`;
    await setSellerKyc(ctx.deps.repos, owner.seller.id, "approved");
    const ownerLive = await ownerMerchantClient(ctx, owner, "live");
    const charge = (await ownerLive.post("/v1/transactions", { amount: 5_000 }).expect(201)).body;
    const { endToEndId } = await bank.current.payCharge(charge.txid, { callback: "drop" });
    // Paid through a notification: the sweep of the test before moved the watermark 11 minutes ahead.
    await notify([{ endToEndId, txid: charge.txid, valor: "50.00", horario: new Date().toISOString() }]).expect(200);
    await processInbox(ctx);
    const key = await addPayoutKeyAgo(ctx, owner.panel, { type: "email", key: payoutEmail });
    const withdrawal = (
      await owner.panel
        .post("/v1/me/withdrawals", { amount: 4_000, payout_key_id: key.id, mode: "live" })
        .set("Idempotency-Key", "bank-payout")
        .expect(201)
    ).body;
    expect(await submitWithdrawal(ctx.deps, withdrawal.id)).toBe("sent");

    expect(await reconcileOnceSettled(later(11 * MINUTE_MS))).toBe(1);
    await processInbox(ctx);

    expect((await owner.panel.get(`/v1/me/withdrawals/${withdrawal.id}`)).body).toMatchObject({
      status: "completed",
      amount: 4_000,
    });
    const payout = bank.current.requests().find((r) => r.method === "PUT" && r.path.startsWith("/v3/gn/pix/"));
    expect(payout?.body).toMatchObject({
      valor: valorFromCentavos(4_000),
      favorecido: { chave: payoutEmail },
    });
  });
});
