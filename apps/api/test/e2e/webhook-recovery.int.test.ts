import {
  continueWebhookRecovery,
  deliveryIdsOfJob,
  newId,
  recoverWebhookEndpoint,
  RECOVERY_PAGE_SIZE,
} from "@lm/domain";
import type { JobPayloads } from "@lm/queue";
import { createEndpointRow, createStoreRow } from "@lm/testing";
import { useApiTestContext } from "../support/harness";
import { useWorkerDeps } from "../support/worker-deps";
import type { WorkerDeps } from "../../../worker/src/deps";
import { processWebhookRecovery } from "../../../worker/src/processors/webhook-recovery.processor";
import { reconcile } from "../../../worker/src/sweepers/reconciler";

jest.setTimeout(60_000);

/**
 * DESIGN §8 "Recover", §10 "Sweeps": the API counts the missed events, records the recovery and enqueues one
 * `webhook-recovery` job; the worker walks the window in pages, each its own transaction that writes the page's chains
 * and moves the recovery's cursor, and enqueues the page's delivery jobs. No consumers run here: the tests run the
 * recovery itself, with a producer that records what it is given.
 */
describe("recovery in pages by the worker", () => {
  const ctx = useApiTestContext();
  const worker = useWorkerDeps(ctx);

  /** An endpoint of a new store with `count` missed events (no delivery rows), an hour old, a millisecond apart. */
  async function endpointThatMissed(count: number) {
    const { store } = await createStoreRow(ctx.db, ctx.config.encryptionKey);
    const { endpoint } = await createEndpointRow(ctx.db, ctx.config.encryptionKey, {
      storeId: store.id,
      url: "http://127.0.0.1:9/recovered",
    });
    const start = Date.now() - 3_600_000;
    await ctx.db.event.createMany({
      data: Array.from({ length: count }, (_, i) => ({
        id: newId("event", start + i),
        store_id: store.id,
        mode: "test" as const,
        type: "transaction.paid",
        data: { object: "transaction" },
        created_at: new Date(start + i),
      })),
    });
    return { sellerId: store.seller_id, endpoint, since: new Date(start - 1000) };
  }

  /** The worker's dependencies with a producer that records the delivery ids it is asked to enqueue. */
  function recordingDeps(): { deps: WorkerDeps; enqueued: string[] } {
    const enqueued: string[] = [];
    const producer = {
      enqueue: () => Promise.resolve(),
      enqueueBulk: (_name: string, jobs: Array<{ jobId?: string; data: JobPayloads["webhook-delivery"] }>) => {
        for (const job of jobs) enqueued.push(...deliveryIdsOfJob(String(job.jobId), job.data));
        return Promise.resolve();
      },
    } as unknown as WorkerDeps["producer"];
    return { deps: { ...worker.current, producer }, enqueued };
  }

  async function chainsPerEvent(endpointId: string): Promise<Map<string, number>> {
    const rows = await ctx.db.webhookDelivery.findMany({
      where: { endpoint_id: endpointId },
      select: { event_id: true },
    });
    const counts = new Map<string, number>();
    for (const row of rows) counts.set(row.event_id, (counts.get(row.event_id) ?? 0) + 1);
    return counts;
  }

  test("when 5,000 events are recovered, then the API writes no chain and enqueues one recovery job, and the worker writes and enqueues every chain in pages", async () => {
    const { sellerId, endpoint, since } = await endpointThatMissed(5_000);

    const recovery = await recoverWebhookEndpoint(ctx.deps, sellerId, endpoint.id, { since });

    expect(recovery.events).toBe(5_000);
    expect(await chainsPerEvent(endpoint.id)).toEqual(new Map());
    const [job, ...others] = await worker.current.producer.queue("webhook-recovery").getWaiting();
    expect(others).toHaveLength(0);
    const recoveryId = String(job?.id);
    expect(job?.data).toEqual({ recoveryId });

    const { deps, enqueued } = recordingDeps();
    const control = { id: recoveryId, defer: () => Promise.reject(new Error("not deferred")) };
    await processWebhookRecovery(deps, { recoveryId }, control);

    const chains = await chainsPerEvent(endpoint.id);
    expect(chains.size).toBe(5_000);
    expect([...chains.values()].every((n) => n === 1)).toBe(true);
    expect(new Set(enqueued).size).toBe(5_000);
    const row = await ctx.db.webhookRecovery.findUniqueOrThrow({ where: { id: recoveryId } });
    expect(row).toMatchObject({ events: 5_000, pages: Math.ceil(5_000 / RECOVERY_PAGE_SIZE) });
    expect(row.completed_at).not.toBeNull();
    await worker.current.producer.queue("webhook-recovery").obliterate({ force: true });
  });

  test("when the worker stops after two pages, then the next run resumes at the cursor and every missed event gets exactly one chain", async () => {
    const { sellerId, endpoint, since } = await endpointThatMissed(RECOVERY_PAGE_SIZE * 3 + 10);
    await recoverWebhookEndpoint(ctx.deps, sellerId, endpoint.id, { since });
    const { id } = await ctx.db.webhookRecovery.findFirstOrThrow({ where: { endpoint_id: endpoint.id } });
    const { deps, enqueued } = recordingDeps();

    // The worker dies after its second page: what it committed stays, with the cursor past it.
    expect(await continueWebhookRecovery(deps, id, { maxPages: 2 })).toEqual({
      pages: 2,
      events: RECOVERY_PAGE_SIZE * 2,
      completed: false,
    });
    expect(await ctx.db.webhookRecovery.findUniqueOrThrow({ where: { id } })).toMatchObject({
      pages: 2,
      events: RECOVERY_PAGE_SIZE * 2,
      completed_at: null,
    });
    // Its job is run again, twice at once (a stalled job and the reconciler's offer): each page is written once.
    const runs = await Promise.all([continueWebhookRecovery(deps, id), continueWebhookRecovery(deps, id)]);

    expect(runs.reduce((pages, run) => pages + run.pages, 0)).toBe(2);
    const chains = await chainsPerEvent(endpoint.id);
    expect(chains.size).toBe(RECOVERY_PAGE_SIZE * 3 + 10);
    expect([...chains.values()].every((n) => n === 1)).toBe(true);
    expect(new Set(enqueued).size).toBe(RECOVERY_PAGE_SIZE * 3 + 10);
    expect(await ctx.db.webhookRecovery.findUniqueOrThrow({ where: { id } })).toMatchObject({
      pages: 4,
      events: RECOVERY_PAGE_SIZE * 3 + 10,
    });
  });

  test("when the recovery job is lost, then the reconciler offers the recovery again once it is a minute old", async () => {
    const { sellerId, endpoint, since } = await endpointThatMissed(3);
    await recoverWebhookEndpoint(ctx.deps, sellerId, endpoint.id, { since });
    const queue = worker.current.producer.queue("webhook-recovery");
    await queue.obliterate({ force: true });
    const { id } = await ctx.db.webhookRecovery.findFirstOrThrow({ where: { endpoint_id: endpoint.id } });

    await reconcile(worker.current);
    expect(await queue.getJob(id)).toBeUndefined();
    await reconcile({ ...worker.current, now: () => new Date(Date.now() + 61_000) });

    expect((await queue.getJob(id))?.data).toEqual({ recoveryId: id });
    await queue.obliterate({ force: true });
  });
});
