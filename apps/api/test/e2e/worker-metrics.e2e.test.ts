/**
 * The worker's Prometheus metrics, scraped over HTTP from its `METRICS_PORT` listener while the real BullMQ
 * workers run: delivery attempts by outcome and error, event → first attempt latency, reconciler revivals, inbox
 * outcomes, queue depth and ledger drift.
 */
import { deliveryJob } from "@lm/domain";
import { serveMetrics, setLedgerDrift, type MetricsServer } from "@lm/metrics";
import { PARK_AFTER_MS } from "@lm/queue";
import {
  createDeliveryRow,
  createEndpointRow,
  createEventRow,
  createStoreRow,
  enqueueDelivery,
  useWebhookReceiver,
  waitForChainEnd,
  waitUntil,
  type WebhookReceiver,
} from "@lm/testing";
import { reconcile } from "../../../worker/src/sweepers/reconciler";
import { useE2eTestContext } from "./support/e2e-harness";

jest.setTimeout(40_000);

/** Every metric the worker defines, by the name of its `# TYPE` line. */
const WORKER_METRICS = [
  "lm_queue_jobs gauge",
  "lm_webhook_delivery_attempts_total counter",
  "lm_webhook_event_to_first_attempt_seconds histogram",
  "lm_reconciler_revivals_total counter",
  "lm_inbox_items_processed_total counter",
  "lm_ledger_drift_centavos gauge",
];

/** The value of the sample `series` (name and labels exactly as exposed), or undefined when it is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("worker metrics", () => {
  const ctx = useE2eTestContext();
  const receiverHolder = useWebhookReceiver();
  let receiver: WebhookReceiver;
  let server: MetricsServer;
  beforeAll(async () => {
    receiver = receiverHolder.current;
    server = await serveMetrics(ctx.worker.metrics.registry, 0);
  });
  afterAll(async () => {
    await server?.close();
  });

  const scrape = async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    expect(res.status).toBe(200);
    return res.text();
  };

  async function firstDelivery(path: string) {
    const { store } = await createStoreRow(ctx.db, ctx.config.encryptionKey);
    const { endpoint } = await createEndpointRow(ctx.db, ctx.config.encryptionKey, {
      storeId: store.id,
      url: `${receiver.url}${path}`,
    });
    const event = await createEventRow(ctx.db, { storeId: store.id });
    return createDeliveryRow(ctx.db, { event, destination: { endpoint } });
  }

  test("when the listener is scraped, then every worker metric is named, with the process metrics", async () => {
    const text = await scrape();

    for (const metric of WORKER_METRICS) expect(text).toContain(`# TYPE ${metric}\n`);
    expect(text).toContain("# TYPE process_cpu_seconds_total counter\n");
  });

  test("when one chain succeeds and another fails until dead, then attempts are counted by outcome and error and both first attempts are timed", async () => {
    const before = await scrape();
    receiver.script("/metrics-down", [{ status: 500 }]);
    const good = await firstDelivery("/metrics-ok");
    const bad = await firstDelivery("/metrics-down");

    for (const delivery of [good, bad]) await enqueueDelivery(ctx.worker, delivery);
    await waitForChainEnd(ctx.db, good.chain_id);
    await waitForChainEnd(ctx.db, bad.chain_id);
    const after = await scrape();

    const delta = (series: string) => (sample(after, series) ?? 0) - (sample(before, series) ?? 0);
    expect(delta('lm_webhook_delivery_attempts_total{outcome="succeeded",error="none"}')).toBe(1);
    expect(delta('lm_webhook_delivery_attempts_total{outcome="failed",error="http_500"}')).toBe(5);
    expect(delta('lm_webhook_delivery_attempts_total{outcome="dead",error="http_500"}')).toBe(1);
    expect(delta("lm_webhook_event_to_first_attempt_seconds_count")).toBe(2);
    expect(delta('lm_webhook_event_to_first_attempt_seconds_bucket{le="+Inf"}')).toBe(2);
  });

  test("when the reconciler finds a due row without a job and one whose job waits, then only the first counts as a revival", async () => {
    const before = await scrape();
    const lost = await firstDelivery("/metrics-lost");
    const held = await firstDelivery("/metrics-held");
    await ctx.worker.producer.enqueueBulk("webhook-delivery", [deliveryJob(held, PARK_AFTER_MS)]);

    await reconcile(ctx.worker);
    await waitForChainEnd(ctx.db, lost.chain_id);
    const after = await scrape();

    const revivals = 'lm_reconciler_revivals_total{queue="webhook-delivery"}';
    expect((sample(after, revivals) ?? 0) - (sample(before, revivals) ?? 0)).toBe(1);
    expect(sample(after, 'lm_queue_jobs{queue="webhook-delivery",state="delayed"}')).toBe(1);
    for (const state of ["waiting", "active", "failed"]) {
      expect(sample(after, `lm_queue_jobs{queue="inbox-processing",state="${state}"}`)).toBe(0);
    }
  });

  test("when an inbox job finds nothing to do, then it is counted under the skipped outcome", async () => {
    const before = await scrape();

    const inboxItemId = "inb_01J00000000000000000000000";
    await ctx.worker.producer.enqueue("inbox-processing", { data: { inboxItemId }, jobId: inboxItemId });
    const series = 'lm_inbox_items_processed_total{outcome="skipped"}';
    const counted = (text: string) => sample(text, series) ?? 0;
    const after = await waitUntil("the inbox job to be counted", async () => {
      const text = await scrape();
      return counted(text) > counted(before) ? text : null;
    });

    expect(counted(after) - counted(before)).toBe(1);
  });

  test("when a ledger check records its drift, then the scrape shows it per mode", async () => {
    setLedgerDrift(ctx.worker.metrics, "live", 0);
    setLedgerDrift(ctx.worker.metrics, "test", 1250);

    const text = await scrape();

    expect(sample(text, 'lm_ledger_drift_centavos{mode="live"}')).toBe(0);
    expect(sample(text, 'lm_ledger_drift_centavos{mode="test"}')).toBe(1250);
  });
});
