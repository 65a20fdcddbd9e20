import { createTestMerchant } from "@lm/testing";
import { batchItem, runBatch } from "../support/batches";
import { useApiTestContext } from "../support/harness";
import { merchantClient, useTestMerchant } from "../support/merchant-client";

/**
 * DESIGN §13 "Batches", §2 "Lists", "Modes": reading batches and their items, paged, within the key's store and mode.
 */
describe("reading batches", () => {
  const ctx = useApiTestContext();
  const merchant = useTestMerchant(ctx);
  let batchId: string;
  beforeAll(async () => {
    const transactions = Array.from({ length: 7 }, (_, i) =>
      i % 3 === 2 ? batchItem({ due_date: undefined }) : batchItem({ external_id: `read-${i}` }),
    );
    batchId = (await merchant.client.post("/v1/transaction-batches", { transactions }).expect(202)).body.id;
    await runBatch(ctx, batchId);
  });

  /** The indexes and `has_more` of the items page at `query`. */
  async function itemsPage(query: string): Promise<{ indexes: number[]; hasMore: boolean }> {
    const res = await merchant.client.get(`/v1/transaction-batches/${batchId}/items${query}`).expect(200);
    return { indexes: res.body.data.map((item: { index: number }) => item.index), hasMore: res.body.has_more };
  }

  test("when a batch's items are paged, then they come in the request's order, after or before an index, and filtered by status", async () => {
    expect(await itemsPage("?limit=3")).toEqual({ indexes: [0, 1, 2], hasMore: true });
    expect(await itemsPage("?limit=3&starting_after=2")).toEqual({ indexes: [3, 4, 5], hasMore: true });
    expect(await itemsPage("?limit=3&starting_after=5")).toEqual({ indexes: [6], hasMore: false });
    expect(await itemsPage("?limit=2&ending_before=5")).toEqual({ indexes: [3, 4], hasMore: true });
    expect(await itemsPage("?status=failed")).toEqual({ indexes: [2, 5], hasMore: false });
    expect(await itemsPage("?status=succeeded&limit=100")).toEqual({ indexes: [0, 1, 3, 4, 6], hasMore: false });
  });

  test.each([
    ["both cursors", "?starting_after=1&ending_before=4", "ending_before"],
    ["an index past the last", "?starting_after=1000", "starting_after"],
    ["an unknown status", "?status=paid", "status"],
    ["an unknown parameter", "?colour=blue", "colour"],
  ])("when the items are asked with %s, then 400 naming it", async (_case, query, param) => {
    const res = await merchant.client.get(`/v1/transaction-batches/${batchId}/items${query}`).expect(400);

    expect(res.body.error).toMatchObject({ code: "validation_failed", param });
  });

  test("when the batches are listed, then the newest comes first", async () => {
    const newer = (await merchant.client.post("/v1/transaction-batches", { transactions: [batchItem()] }).expect(202))
      .body;

    const list = (await merchant.client.get("/v1/transaction-batches?limit=2").expect(200)).body;

    expect(list.data.map((batch: { id: string }) => batch.id)).toEqual([newer.id, batchId]);
    expect(list.data[0]).toEqual(newer);
  });

  test("when another mode's key or another store's key asks for a batch, then it reads as unknown (404) and is not listed", async () => {
    const live = merchantClient(ctx.app, merchant.liveKey);
    const stranger = merchantClient(ctx.app, (await createTestMerchant(ctx.db)).testKey);

    for (const client of [live, stranger]) {
      expect((await client.get(`/v1/transaction-batches/${batchId}`).expect(404)).body.error.code).toBe(
        "resource_not_found",
      );
      await client.get(`/v1/transaction-batches/${batchId}/items`).expect(404);
      expect((await client.get("/v1/transaction-batches").expect(200)).body.data).toEqual([]);
    }
    await merchant.client.get("/v1/transaction-batches/txn_01M8CKV86YK2RNMDWWD2CR24MZ").expect(404);
  });

  test("when a live key posts a batch and live mode has no acquirer, then 503 acquirer_not_configured and nothing is written", async () => {
    const before = await ctx.db.transactionBatch.count();

    const res = await merchantClient(ctx.app, merchant.liveKey)
      .post("/v1/transaction-batches", { transactions: [batchItem()] })
      .expect(503);

    expect(res.body.error.code).toBe("acquirer_not_configured");
    expect(await ctx.db.transactionBatch.count()).toBe(before);
  });
});
