import { batchItem, runBatch } from "../support/batches";
import { useApiTestContext } from "../support/harness";
import { useLiveBank } from "../support/live-bank";
import { merchantClient, useTestMerchant } from "../support/merchant-client";

jest.setTimeout(60_000);

/**
 * DESIGN §13 "Batches", live: the bank registers a batch's due-date charges in one `PUT /lotecobv/{id}` (the batch's
 * `number` as the standard's integer id); each charge it made is then read back for its BR Code, and one it refused
 * fails its item with the bank's reason. Every request the bank received conforms to the standard's schemas.
 */
describe("a live batch through an API Pix bank", () => {
  const ctx = useApiTestContext();
  const merchant = useTestMerchant(ctx);
  const bank = useLiveBank(ctx);

  afterEach(() => {
    expect(bank.current.violations()).toEqual([]);
  });

  test("when a live batch is run, then the bank registers it as one lotecobv, its charges are the bank's, and the one it refused fails with its reason", async () => {
    const live = merchantClient(ctx.app, merchant.liveKey);
    // The emulator refuses a due-date charge whose amount ends in 13 centavos.
    const items = [batchItem({ amount: 10_000 }), batchItem({ amount: 20_013 }), batchItem({ amount: 30_000 })];
    const created = (await live.post("/v1/transaction-batches", { transactions: items }).expect(202)).body;
    const { number } = await ctx.db.transactionBatch.findUniqueOrThrow({ where: { id: created.id } });

    const progress = await runBatch(ctx, created.id);

    expect(progress).toEqual({ succeeded: 2, failed: 1, completed: true });
    const requests = bank.current.requests().map((r) => `${r.method} ${r.path.split("?")[0]}`);
    expect(requests.filter((r) => r === `PUT /v2/lotecobv/${number}`)).toHaveLength(1);
    expect(requests.filter((r) => r.startsWith("PUT /v2/cobv/"))).toEqual([]);
    const listed = (await live.get(`/v1/transaction-batches/${created.id}/items`).expect(200)).body.data;
    expect(listed.map((item: { status: string }) => item.status)).toEqual(["succeeded", "failed", "succeeded"]);
    for (const item of [listed[0], listed[2]]) {
      expect(item.transaction.pix.copy_paste).toBe(bank.current.charge(item.transaction.txid)?.pixCopiaECola);
      expect(bank.current.charge(item.transaction.txid)).toMatchObject({ loc: { tipoCob: "cobv" } });
    }
    expect(listed[1].error.error).toMatchObject({ type: "acquirer_error", code: "acquirer_rejected" });
    expect(listed[1].error.error.message).toContain("amounts ending in 13");
  });

  test("when a live batch is run again, then the bank's batch stands and no charge is registered twice", async () => {
    const live = merchantClient(ctx.app, merchant.liveKey);
    const created = (await live.post("/v1/transaction-batches", { transactions: [batchItem()] }).expect(202)).body;
    const { number } = await ctx.db.transactionBatch.findUniqueOrThrow({ where: { id: created.id } });

    // A run cut short after the bank took the batch, then a full one.
    await runBatch(ctx, created.id, { maxItems: 0 });
    const progress = await runBatch(ctx, created.id);

    expect(progress).toMatchObject({ succeeded: 1, completed: true });
    const puts = bank.current.requests().filter((r) => r.method === "PUT" && r.path === `/v2/lotecobv/${number}`);
    expect(puts).toHaveLength(2);
    const [item] = (await live.get(`/v1/transaction-batches/${created.id}/items`).expect(200)).body.data;
    expect(bank.current.charge(item.transaction.txid)).toMatchObject({ revisao: 0, status: "ATIVA" });
    expect(bank.current.requests().filter((r) => r.path === `/v2/cobv/${item.transaction.txid}`)).toEqual([
      expect.objectContaining({ method: "GET" }),
    ]);
  });
});
