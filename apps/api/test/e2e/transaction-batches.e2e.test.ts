/**
 * DESIGN §13 "Batches", §1: a batch's charges made by the worker as a real process (the bundle `npm start` runs), one
 * of them killed (SIGKILL) in the middle of a batch, between making a page's charges and recording them. BullMQ hands
 * the stalled job to the next worker, which resumes at the first pending item and finds the charges already made:
 * every charge is made exactly once, the batch completes, and its endpoint receives
 * `transaction_batch.completed` and each charge's `transaction.created`.
 */
import { createEndpointRow, startWebhookReceiver, waitUntil, type WebhookReceiver } from "@lm/testing";
import { buildServices } from "../../../../scripts/build";
import { batchItem } from "../support/batches";
import { useApiTestContext } from "../support/harness";
import { useTestMerchant } from "../support/merchant-client";
import { useWorkerProcesses } from "./support/worker-processes";

jest.setTimeout(120_000);

/** Items of the batch: enough that the first worker is still at it when it is killed. */
const ITEMS = 600;

describe("a batch run by worker processes, one killed mid-batch", () => {
  const ctx = useApiTestContext();
  const merchant = useTestMerchant(ctx);
  const workers = useWorkerProcesses(ctx);
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    await buildServices();
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
  });

  /** How many charges the store has. */
  function chargesMade(): Promise<number> {
    return ctx.db.transaction.count({ where: { store_id: merchant.storeId } });
  }

  /** How many of the batch's items are in each status. */
  async function itemCounts(batchId: string): Promise<Record<string, number>> {
    const groups = await ctx.db.transactionBatchItem.groupBy({
      by: ["status"],
      where: { batch_id: batchId },
      _count: true,
    });
    return Object.fromEntries(groups.map((group) => [group.status, group._count]));
  }

  test("when the worker is killed mid-batch, then the next one finishes it, no charge is made twice, and the endpoint gets transaction_batch.completed", async () => {
    await createEndpointRow(ctx.db, ctx.config.encryptionKey, {
      storeId: merchant.storeId,
      url: `${receiver.url}/batches`,
      events: ["transaction_batch.completed"],
    });
    await createEndpointRow(ctx.db, ctx.config.encryptionKey, {
      storeId: merchant.storeId,
      url: `${receiver.url}/charges`,
      events: ["transaction.created"],
    });
    const transactions = Array.from({ length: ITEMS }, (_, i) => batchItem({ external_id: `killed-${i}` }));
    const posted = await merchant.client.post("/v1/transaction-batches", { transactions }).expect(202);
    const batchId = posted.body.id as string;

    const first = await workers.start();
    // Killed while a page is half done: some of its charges are made, none of its items recorded yet.
    await waitUntil(
      "the first worker to be between making charges and recording them",
      async () => {
        const { succeeded = 0 } = await itemCounts(batchId);
        return succeeded >= 40 && (await chargesMade()) > succeeded;
      },
      { timeoutMs: 30_000, intervalMs: 5 },
    );
    first.child.kill("SIGKILL");
    await first.exited;
    const whenKilled = await itemCounts(batchId);
    expect(whenKilled.pending).toBeGreaterThan(0);
    expect(await chargesMade()).toBeGreaterThan(whenKilled.succeeded ?? 0);

    await workers.start();
    const batch = await waitUntil(
      "the batch to complete",
      async () => {
        const res = await merchant.client.get(`/v1/transaction-batches/${batchId}`).expect(200);
        return res.body.status === "completed" ? res.body : null;
      },
      { timeoutMs: 60_000, intervalMs: 200 },
    );

    expect(batch).toMatchObject({ total: ITEMS, succeeded: ITEMS, failed: 0 });
    expect(await chargesMade()).toBe(ITEMS);
    const externalIds = await ctx.db.transaction.findMany({ select: { external_id: true } });
    expect(new Set(externalIds.map((row) => row.external_id)).size).toBe(ITEMS);
    const [completed] = await receiver.waitForRequests(1, { path: "/batches", timeoutMs: 30_000 });
    expect(JSON.parse(completed?.rawBody.toString() ?? "{}")).toMatchObject({
      type: "transaction_batch.completed",
      data: { object: batch },
    });
    // Each charge's transaction.created at least once (a delivery the killed worker was sending is sent again).
    const chargeIds = () =>
      new Set(receiver.requestsTo("/charges").map((request) => JSON.parse(request.rawBody.toString()).data.object.id));
    await waitUntil("every charge's transaction.created", () => chargeIds().size === ITEMS, { timeoutMs: 60_000 });
  });
});
