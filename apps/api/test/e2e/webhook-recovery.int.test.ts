import { createLogger } from "@lm/logging";
import { deliveryIdOfJob, newId, recoverWebhookEndpoint } from "@lm/domain";
import { createEndpointRow, createStoreRow } from "@lm/testing";
import { useApiTestContext } from "../support/harness";
import { closeWorkerDeps, createWorkerDeps, type WorkerDeps } from "../../../worker/src/deps";
import { processWebhookRecovery } from "../../../worker/src/processors/webhook-recovery.processor";
import { reconcile } from "../../../worker/src/sweepers/reconciler";

jest.setTimeout(60_000);

/**
 * DESIGN §8 "Recover": the API writes the recovered chains and one `webhook-recovery` job; the worker enqueues the
 * delivery jobs in pages. No consumers run here: the test runs the recovery job's processor itself.
 */
describe("recovery paging by the worker", () => {
  const ctx = useApiTestContext();
  let worker: WorkerDeps;
  beforeAll(() => {
    worker = createWorkerDeps(ctx.config, {
      logger: createLogger({ level: "error", service: "worker", silent: true }),
    });
  });
  afterAll(async () => {
    await closeWorkerDeps(worker);
  });

  /** An endpoint of a new store with `count` missed events (no delivery rows), an hour old. */
  async function endpointThatMissed(count: number) {
    const { store } = await createStoreRow(ctx.db, ctx.config.encryptionKey);
    const { endpoint } = await createEndpointRow(ctx.db, ctx.config.encryptionKey, {
      storeId: store.id,
      url: "http://127.0.0.1:9/recovered",
    });
    const createdAt = new Date(Date.now() - 3_600_000);
    await ctx.db.event.createMany({
      data: Array.from({ length: count }, () => ({
        id: newId("event", createdAt.getTime()),
        store_id: store.id,
        mode: "test" as const,
        type: "transaction.paid",
        data: { object: "transaction" },
        created_at: createdAt,
      })),
    });
    return { sellerId: store.seller_id, endpoint, since: new Date(createdAt.getTime() - 1000) };
  }

  /** The delivery ids of the jobs of the `webhook-delivery` queue, in any state. */
  async function queuedDeliveryIds(): Promise<Set<string>> {
    const jobs = await worker.producer.queue("webhook-delivery").getJobs(["waiting", "delayed", "prioritized"]);
    return new Set(jobs.map((job) => deliveryIdOfJob(String(job.id))));
  }

  test("when 1,500 events are recovered, then the API enqueues one recovery job and the worker enqueues every chain's job in pages", async () => {
    const { sellerId, endpoint, since } = await endpointThatMissed(1_500);

    const recovery = await recoverWebhookEndpoint(ctx.deps, sellerId, endpoint.id, { since });

    expect(recovery.events).toBe(1_500);
    const rows = await ctx.db.webhookDelivery.findMany({ where: { endpoint_id: endpoint.id }, select: { id: true } });
    const firstDeliveryId = rows.map((r) => r.id).sort()[0];
    expect(await queuedDeliveryIds()).toEqual(new Set());
    const [job, ...others] = await worker.producer.queue("webhook-recovery").getWaiting();
    expect(others).toHaveLength(0);
    expect(job).toMatchObject({ id: firstDeliveryId, data: { firstDeliveryId } });

    await processWebhookRecovery(worker, job!.data, { id: String(job!.id), defer: () => Promise.reject(new Error()) });
    await processWebhookRecovery(worker, job!.data, { id: String(job!.id), defer: () => Promise.reject(new Error()) });

    expect(await queuedDeliveryIds()).toEqual(new Set(rows.map((r) => r.id)));
    await worker.producer.queue("webhook-delivery").obliterate({ force: true });
  });

  test("when the recovery job is lost after commit, then the reconciler enqueues the recovered chains", async () => {
    const { sellerId, endpoint, since } = await endpointThatMissed(3);
    await recoverWebhookEndpoint(ctx.deps, sellerId, endpoint.id, { since });
    await worker.producer.queue("webhook-recovery").obliterate({ force: true });

    await reconcile(worker);

    const rows = await ctx.db.webhookDelivery.findMany({ where: { endpoint_id: endpoint.id }, select: { id: true } });
    expect(rows).toHaveLength(3);
    const queued = await queuedDeliveryIds();
    for (const row of rows) expect(queued.has(row.id)).toBe(true);
  });
});
