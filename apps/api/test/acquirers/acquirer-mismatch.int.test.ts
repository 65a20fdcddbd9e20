import request from "supertest";
import {
  createAcquirer,
  findBalanceDrift,
  setSellerKyc,
  signatureHeader,
  submitRefund,
  submitWithdrawal,
} from "@lm/domain";
import { valorFromCentavos } from "@lm/pix-api";
import { useApiTestContext } from "../support/harness";
import { LIVE_BANK_SLUG, useLiveBank } from "../support/live-bank";
import { processInbox } from "../support/money";
import { addPayoutKeyAgo } from "../support/money-owner";
import { requestRefund, requestWithdrawal } from "../support/money-requests";
import { newEndToEndId, paymentOf } from "../support/pix-payments";
import { endpointOwner, ownerMerchantClient, type EndpointOwner } from "../support/webhook-endpoints";
import type { MerchantClient } from "../support/merchant-client";

/**
 * Only the acquirer that holds a charge's money reports on it (DESIGN §9): a validly signed notification from another
 * acquirer (one made with `acquirer:create`) that names a live charge registered at the bank, its refund, its dispute
 * or a payout the bank was asked to send is kept on its item as `acquirer_mismatch` and moves nothing.
 */
describe("a notification from an acquirer that does not hold the money", () => {
  const ctx = useApiTestContext();
  const bank = useLiveBank(ctx);
  let intruder: { slug: string; secret: string };
  let owner: EndpointOwner;
  let live: MerchantClient;
  beforeAll(async () => {
    const { acquirer, secret } = await createAcquirer(ctx.deps.repos, ctx.config, "intruso");
    intruder = { slug: acquirer.slug, secret };
    owner = await endpointOwner(ctx);
    await setSellerKyc(ctx.deps.repos, owner.seller.id, "approved");
    live = await ownerMerchantClient(ctx, owner, "live");
  });

  const postPix = (slug: string, items: object[], secret?: string) => {
    const body = JSON.stringify({ pix: items });
    const req = request(ctx.app).post(`/v1/acquirers/${slug}/notifications${secret ? "" : "/pix"}`);
    if (secret) req.set("X-Acquirer-Signature", signatureHeader([secret], Math.floor(Date.now() / 1000), body));
    return req.set("Content-Type", "application/json").send(body).expect(200);
  };
  const fromIntruder = (items: object[]) => postPix(intruder.slug, items, intruder.secret);
  const fromBank = (items: object[]) => postPix(LIVE_BANK_SLUG, items);
  const balance = async () => (await live.get("/v1/balance").expect(200)).body;
  const errorsOf = async (endToEndId: string) =>
    (await ctx.db.inboxItem.findMany({ where: { end_to_end_id: endToEndId } })).map((item) => item.error);
  /** A live charge of `amount`, registered at the bank and paid there, settled by the bank's own notification. */
  const paidAtBank = async (amount: number) => {
    const charge = (await live.post("/v1/transactions", { amount }).expect(201)).body as { id: string; txid: string };
    const { endToEndId } = await bank.current.payCharge(charge.txid, { callback: "drop" });
    await fromBank([{ endToEndId, txid: charge.txid, valor: valorFromCentavos(amount), horario: new Date() }]);
    expect(await processInbox(ctx)).toEqual(["paid"]);
    return { ...charge, endToEndId };
  };

  afterEach(async () => {
    expect(await findBalanceDrift(ctx.deps.repos)).toEqual([]);
  });

  test("when it reports a payment of a live charge registered at the bank, then acquirer_mismatch; the bank's own settles it", async () => {
    const charge = (await live.post("/v1/transactions", { amount: 1_000 }).expect(201)).body;
    const forged = paymentOf(charge);
    const before = await balance();

    await fromIntruder([forged]);

    expect(await processInbox(ctx)).toEqual(["acquirer_mismatch"]);
    expect(await errorsOf(forged.endToEndId)).toEqual(["acquirer_mismatch: the charge is another acquirer's"]);
    expect((await live.get(`/v1/transactions/${charge.id}`)).body.status).toBe("pending");
    expect(await balance()).toEqual(before);
    expect(
      await ctx.db.event.count({ where: { type: "transaction.paid", data: { path: ["id"], equals: charge.id } } }),
    ).toBe(0);

    const { endToEndId } = await bank.current.payCharge(charge.txid, { callback: "drop" });
    await fromBank([{ endToEndId, txid: charge.txid, valor: "10.00", horario: new Date() }]);
    expect(await processInbox(ctx)).toEqual(["paid"]);
  });

  test("when it reports a refund, a dispute or a payout of the bank's, then acquirer_mismatch each time and nothing moves", async () => {
    const charge = await paidAtBank(6_000);
    const refund = (await requestRefund(live, charge.id, { amount: 1_000 }).expect(201)).body;
    expect(await submitRefund(ctx.deps, refund.id)).toBe("sent");
    const key = await addPayoutKeyAgo(ctx, owner.panel, {
      type: "email",
      key: `payout-${owner.seller.id.slice(-6).toLowerCase()}@example.com`,
    });
    const withdrawal = (
      await requestWithdrawal(owner.panel, { amount: 2_000, payout_key_id: key.id, mode: "live" }).expect(201)
    ).body;
    expect(await submitWithdrawal(ctx.deps, withdrawal.id)).toBe("sent");
    const before = await balance();
    const now = new Date();
    const returned = { horario: { solicitacao: now, liquidacao: now }, status: "DEVOLVIDO" };
    const [refundReturn, medReturn, sent] = [newEndToEndId(), newEndToEndId(), newEndToEndId()];

    await fromIntruder([
      {
        endToEndId: charge.endToEndId,
        txid: charge.txid,
        valor: "60.00",
        horario: now,
        devolucoes: [
          { id: refund.id, rtrId: refundReturn, valor: "10.00", ...returned },
          { id: "MED1", rtrId: medReturn, valor: "30.00", natureza: "MED_FRAUDE", ...returned },
        ],
      },
      { endToEndId: sent, idEnvio: withdrawal.id, valor: "20.00", horario: now, status: "REALIZADO" },
    ]);

    expect((await processInbox(ctx)).sort()).toEqual(["acquirer_mismatch", "acquirer_mismatch", "acquirer_mismatch"]);
    expect(await errorsOf(refundReturn)).toEqual(["acquirer_mismatch: the refund is another acquirer's"]);
    expect(await errorsOf(medReturn)).toEqual(["acquirer_mismatch: the charge is another acquirer's"]);
    expect(await errorsOf(sent)).toEqual(["acquirer_mismatch: the withdrawal is another acquirer's"]);
    expect((await live.get(`/v1/refunds/${refund.id}`)).body.status).toBe("processing");
    expect((await owner.panel.get(`/v1/me/withdrawals/${withdrawal.id}`)).body.status).toBe("processing");
    expect((await live.get(`/v1/transactions/${charge.id}`)).body).toMatchObject({ amount_disputed: 0 });
    expect(await ctx.db.dispute.count({ where: { transaction_id: charge.id } })).toBe(0);
    expect(await balance()).toEqual(before);
  });
});
