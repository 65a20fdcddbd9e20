import { deliveryJob } from "@lm/domain";
import {
  createDeliveryRow,
  createEndpointRow,
  createEventRow,
  createStoreRow,
  deleteQueueKeys,
  enqueueDelivery,
  useWebhookReceiver,
  waitForChainEnd,
  waitUntil,
  type WebhookReceiver,
} from "@lm/testing";
import { PARK_AFTER_MS } from "@lm/queue";
import { reconcile } from "../../../worker/src/sweepers/reconciler";
import { useE2eTestContext } from "./support/e2e-harness";

jest.setTimeout(40_000);

describe("reconciler sweep of due deliveries", () => {
  const ctx = useE2eTestContext();
  const receiverHolder = useWebhookReceiver();
  let receiver: WebhookReceiver;
  beforeAll(() => {
    receiver = receiverHolder.current;
  });

  test("when Redis lost every key of the queue prefix, then the next sweep gets every pending delivery attempted", async () => {
    // The worker reconciles once as it starts (its Redis has no schedule yet): let that run end first, or it may offer
    // a row below before its job is held back, and the row is sent.
    const reconciler = ctx.worker.producer.queue("reconciler");
    await waitUntil("the worker's start-up reconciliation to end", async () => {
      const counts = await reconciler.getJobCounts("waiting", "active", "prioritized");
      return Object.values(counts).every((count) => count === 0);
    });
    const { store } = await createStoreRow(ctx.db, ctx.config.encryptionKey);
    const url = `${receiver.url}/lost`;
    const { endpoint } = await createEndpointRow(ctx.db, ctx.config.encryptionKey, { storeId: store.id, url });
    const deliveries = [];
    for (let i = 0; i < 5; i++) {
      const event = await createEventRow(ctx.db, { storeId: store.id });
      deliveries.push(await createDeliveryRow(ctx.db, { event, destination: { endpoint } }));
    }
    // Their jobs exist but are held back (as delayed jobs: the longest delay that is not parked), so only the flush
    // below can lose them.
    await ctx.worker.producer.enqueueBulk(
      "webhook-delivery",
      deliveries.map((delivery) => deliveryJob(delivery, PARK_AFTER_MS)),
    );
    expect(await reconcile(ctx.worker)).toBe(5);
    expect(receiver.requestsTo("/lost")).toHaveLength(0);

    await deleteQueueKeys(ctx.config.redisUrl, ctx.config.queuePrefix);
    await reconcile(ctx.worker);

    for (const delivery of deliveries) {
      const [row] = await waitForChainEnd(ctx.db, delivery.chain_id);
      expect(row?.status).toBe("succeeded");
    }
    const attempted = new Set(receiver.requestsTo("/lost").map((r) => r.headers["x-delivery-id"]));
    expect(attempted).toEqual(new Set(deliveries.map((d) => d.id)));
  });

  test("when a pending delivery is not yet due, then the sweep leaves it alone", async () => {
    const { store } = await createStoreRow(ctx.db, ctx.config.encryptionKey);
    const url = `${receiver.url}/later`;
    const { endpoint } = await createEndpointRow(ctx.db, ctx.config.encryptionKey, { storeId: store.id, url });
    const event = await createEventRow(ctx.db, { storeId: store.id });
    const scheduledAt = new Date(Date.now() + 3_600_000);
    const delivery = await createDeliveryRow(ctx.db, { event, destination: { endpoint }, scheduledAt });

    await reconcile(ctx.worker);

    const { jobId, destination } = deliveryJob(delivery);
    expect(await ctx.worker.producer.queueFor("webhook-delivery", destination).getJob(jobId)).toBeUndefined();
  });

  test("when a delivery's secret does not decrypt, then the chain stops as missing_secret on its row and nothing is sent", async () => {
    const { store } = await createStoreRow(ctx.db, ctx.config.encryptionKey);
    const url = `${receiver.url}/undecryptable`;
    const { endpoint } = await createEndpointRow(ctx.db, ctx.config.encryptionKey, { storeId: store.id, url });
    const event = await createEventRow(ctx.db, { storeId: store.id });
    const delivery = await createDeliveryRow(ctx.db, { event, destination: { endpoint } });
    // As a wrong ENCRYPTION_KEY would: the stored envelope fails authentication.
    const broken = `${endpoint.secret_ciphertext.slice(0, -4)}AAAA`;
    await ctx.db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { secret_ciphertext: broken } });

    await enqueueDelivery(ctx.worker, delivery);

    const rows = await waitForChainEnd(ctx.db, delivery.chain_id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "failed", error: "missing_secret", next_attempt_at: null });
    expect(receiver.requestsTo("/undecryptable")).toHaveLength(0);
    await reconcile(ctx.worker);
    expect(await ctx.db.webhookDelivery.count({ where: { chain_id: delivery.chain_id } })).toBe(1);
  });
});
