import { batchItemDocumentContext, createTransaction, decryptDocument, type DueDateChargeInput } from "@lm/domain";
import { createLogger } from "@lm/logging";
import { batchItem, plusDays, runBatch, TODAY } from "../support/batches";
import { useApiTestContext } from "../support/harness";
import { useTestMerchant } from "../support/merchant-client";
import { closeWorkerDeps, createWorkerDeps } from "../../../worker/src/deps";
import { processTransactionBatch } from "../../../worker/src/processors/transaction-batch.processor";
import { enqueueProcessingBatches } from "../../../worker/src/sweepers/processing-batches";

jest.setTimeout(60_000);

/**
 * DESIGN §13 "Batches": the worker's run of a batch (`continueTransactionBatch`, here in-process as its job runs it)
 * makes each pending item's charge through the one creation, records each outcome, and completes the batch with
 * `transaction_batch.completed`; a run cut short and run again makes no charge twice.
 */
describe("a batch's charges made by the worker", () => {
  const ctx = useApiTestContext();
  const merchant = useTestMerchant(ctx);

  /** Posts a batch of `transactions`; returns its id. */
  async function postBatch(transactions: unknown[]): Promise<string> {
    return (await merchant.client.post("/v1/transaction-batches", { transactions }).expect(202)).body.id as string;
  }

  /** How many `type` events the store has about `objectId`. */
  async function eventsAbout(type: string, objectId: string): Promise<number> {
    const events = await ctx.db.event.findMany({ where: { store_id: merchant.storeId, type } });
    return events.filter((event) => (event.data as { id?: string }).id === objectId).length;
  }

  test("when a batch is run, then each item's charge is made as POST /v1/transactions makes one, the batch is completed with its counts, and transaction_batch.completed carries it", async () => {
    const id = await postBatch([batchItem({ external_id: "run-1" }), batchItem({ external_id: "run-2", amount: 500 })]);

    const progress = await runBatch(ctx, id);

    expect(progress).toEqual({ succeeded: 2, failed: 0, completed: true });
    const batch = (await merchant.client.get(`/v1/transaction-batches/${id}`).expect(200)).body;
    expect(batch).toMatchObject({ status: "completed", total: 2, succeeded: 2, failed: 0 });
    expect(batch.completed_at).not.toBeNull();
    const items = (await merchant.client.get(`/v1/transaction-batches/${id}/items`).expect(200)).body;
    expect(items).toMatchObject({ object: "list", has_more: false });
    expect(items.data.map((item: { index: number; status: string }) => [item.index, item.status])).toEqual([
      [0, "succeeded"],
      [1, "succeeded"],
    ]);
    const rows = await ctx.db.transactionBatchItem.findMany({ where: { batch_id: id }, orderBy: { index: "asc" } });
    for (const [i, item] of items.data.entries()) {
      const charge = (await merchant.client.get(`/v1/transactions/${item.transaction.id}`).expect(200)).body;
      expect(item.transaction).toEqual(charge);
      expect(charge).toMatchObject({
        id: rows[i]?.transaction_id,
        txid: rows[i]?.txid,
        type: "due_date",
        status: "pending",
        external_id: `run-${i + 1}`,
        customer: { name: "Maria da Silva", document_masked: "***.982.247-**" },
      });
      expect(item.error).toBeNull();
      expect(await eventsAbout("transaction.created", charge.id)).toBe(1);
    }
    const completed = await merchant.client.get("/v1/events?type=transaction_batch.completed").expect(200);
    expect(
      completed.body.data.filter((event: { data: { object: { id: string } } }) => event.data.object.id === id),
    ).toEqual([expect.objectContaining({ type: "transaction_batch.completed", data: { object: batch } })]);
  });

  test("when the worker's creation refuses some items, then they fail with its envelope and the others are made", async () => {
    await merchant.client.post("/v1/transactions", batchItem({ external_id: "dup" })).expect(201);
    const id = await postBatch([
      batchItem(),
      batchItem({ external_id: "dup" }),
      batchItem({ postback_url: "https://user:secret@lojadaana.com.br/pix" }),
      batchItem({ due_date: plusDays(TODAY, -1) }),
      batchItem(),
    ]);

    const progress = await runBatch(ctx, id);

    expect(progress).toEqual({ succeeded: 2, failed: 3, completed: true });
    const items = (await merchant.client.get(`/v1/transaction-batches/${id}/items`).expect(200)).body.data;
    expect(items.map((item: { status: string }) => item.status)).toEqual([
      "succeeded",
      "failed",
      "failed",
      "failed",
      "succeeded",
    ]);
    const batch = await ctx.db.transactionBatch.findUniqueOrThrow({ where: { id } });
    const errorOf = (index: number) => items[index].error.error;
    expect(errorOf(1)).toMatchObject({ code: "invalid_state", param: "external_id", request_id: batch.request_id });
    expect(errorOf(2)).toMatchObject({ code: "invalid_url", param: "postback_url" });
    expect(errorOf(3)).toMatchObject({ code: "validation_failed", param: "due_date" });
    expect(items[1].transaction).toBeNull();
    expect(await merchant.client.get(`/v1/transaction-batches/${id}`).expect(200)).toMatchObject({
      body: { status: "completed", succeeded: 2, failed: 3 },
    });
  });

  test("when the worker dies mid-batch, one charge written but its item not recorded, then the next run finds that charge, makes the rest, and makes no charge twice", async () => {
    const id = await postBatch(Array.from({ length: 45 }, (_, i) => batchItem({ external_id: `crash-${i}` })));

    // The first run records 25 items, then the process dies...
    expect(await runBatch(ctx, id, { maxItems: 25 })).toEqual({ succeeded: 25, failed: 0, completed: false });
    // ... having already written item 30's charge, under its pre-assigned id and txid, without recording the item.
    const item30 = await ctx.db.transactionBatchItem.findUniqueOrThrow({
      where: { batch_id_index: { batch_id: id, index: 30 } },
    });
    const request = item30.request as unknown as Required<Pick<DueDateChargeInput, "customer">> & DueDateChargeInput;
    const document = decryptDocument(
      ctx.config.encryptionKey,
      request.customer.document,
      batchItemDocumentContext(id, 30),
    );
    const merchantScope = { storeId: merchant.storeId, mode: "test" as const, storeName: "Loja de Teste" };
    const early = await createTransaction(
      ctx.deps,
      merchantScope,
      { ...request, customer: { ...request.customer, document } },
      { preassigned: { id: item30.transaction_id!, txid: item30.txid! } },
    );
    expect(await merchant.client.get(`/v1/transaction-batches/${id}`).expect(200)).toMatchObject({
      body: { status: "processing", succeeded: 25, failed: 0 },
    });

    const progress = await runBatch(ctx, id);

    expect(progress).toEqual({ succeeded: 20, failed: 0, completed: true });
    const rows = await ctx.db.transactionBatchItem.findMany({ where: { batch_id: id } });
    const chargeIds = rows.map((row) => row.transaction_id!);
    expect(await ctx.db.transaction.count({ where: { id: { in: chargeIds } } })).toBe(45);
    expect(await ctx.db.transaction.count({ where: { external_id: { startsWith: "crash-" } } })).toBe(45);
    expect(await ctx.db.transaction.findUniqueOrThrow({ where: { id: early.id } })).toMatchObject({
      created_at: early.created_at,
    });
    expect(await eventsAbout("transaction.created", early.id)).toBe(1);
    expect(await eventsAbout("transaction_batch.completed", id)).toBe(1);
    expect(await ctx.db.transactionBatch.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: "completed",
      succeeded: 45,
      failed: 0,
    });
  });

  test("when two runs of one batch meet (a stalled job run again beside the first), then each charge is made once and the batch completed once", async () => {
    const id = await postBatch(Array.from({ length: 30 }, (_, i) => batchItem({ external_id: `twice-${i}` })));

    const [a, b] = await Promise.all([runBatch(ctx, id), runBatch(ctx, id)]);

    expect(a.completed && b.completed).toBe(true);
    expect(a.succeeded + b.succeeded).toBe(30);
    expect(await ctx.db.transaction.count({ where: { external_id: { startsWith: "twice-" } } })).toBe(30);
    expect(await eventsAbout("transaction_batch.completed", id)).toBe(1);
    expect(await ctx.db.transactionBatch.findUniqueOrThrow({ where: { id } })).toMatchObject({
      succeeded: 30,
      failed: 0,
    });
  });

  test("when the batch's job is lost (Redis flushed), then the reconciler offers the batch again once it is a minute old, and its job runs it to the end", async () => {
    const worker = createWorkerDeps(ctx.config, {
      logger: createLogger({ level: "error", service: "worker", silent: true }),
    });
    try {
      const id = await postBatch([batchItem(), batchItem()]);
      const queue = worker.producer.queue("transaction-batch");
      await (await queue.getJob(id))?.remove();

      const early = await enqueueProcessingBatches(worker);
      expect(await queue.getJob(id)).toBeUndefined();
      const offered = await enqueueProcessingBatches({ ...worker, now: () => new Date(Date.now() + 61_000) });
      const job = await queue.getJob(id);
      await processTransactionBatch(worker, job!.data, { id, defer: () => Promise.reject(new Error("not deferred")) });

      expect({ early, offered, data: job?.data }).toEqual({ early: 0, offered: 1, data: { batchId: id } });
      expect(await ctx.db.transactionBatch.findUniqueOrThrow({ where: { id } })).toMatchObject({
        status: "completed",
        succeeded: 2,
      });
      await queue.obliterate({ force: true });
    } finally {
      await closeWorkerDeps(worker);
    }
  });

  test("when a completed batch is run again, then nothing more is written", async () => {
    const id = await postBatch([batchItem()]);
    await runBatch(ctx, id);
    const charges = await ctx.db.transaction.count();

    expect(await runBatch(ctx, id)).toEqual({ succeeded: 0, failed: 0, completed: true });
    expect(await ctx.db.transaction.count()).toBe(charges);
    expect(await eventsAbout("transaction_batch.completed", id)).toBe(1);
  });
});
