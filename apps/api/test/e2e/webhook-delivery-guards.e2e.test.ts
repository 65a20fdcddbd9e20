import { writeDeliveryAttempts, type WebhookEndpoint } from "@lm/db";
import { checkDestination, deliveryJobId, generateWebhookSecret, resolveHostname } from "@lm/domain";
import {
  checkSignature,
  createDeliveryRow,
  createEndpointRow,
  createEventRow,
  createStoreRow,
  createTransactionRow,
  enqueueDelivery,
  useWebhookReceiver,
  waitForChainEnd,
  type WebhookReceiver,
} from "@lm/testing";
import { processWebhookDelivery } from "../../../worker/src/processors/webhook-delivery.processor";
import { useE2eTestContext } from "./support/e2e-harness";

const HOUR_MS = 3_600_000;

jest.setTimeout(40_000);

describe("webhook delivery guards", () => {
  const ctx = useE2eTestContext();
  const receiverHolder = useWebhookReceiver();
  let receiver: WebhookReceiver;
  beforeAll(() => {
    receiver = receiverHolder.current;
  });

  async function endpointAt(path: string, options: Partial<Parameters<typeof createEndpointRow>[2]> = {}) {
    const { store } = await createStoreRow(ctx.db, ctx.config.encryptionKey);
    return createEndpointRow(ctx.db, ctx.config.encryptionKey, {
      storeId: store.id,
      url: `${receiver.url}${path}`,
      ...options,
    });
  }

  async function deliverTo(endpoint: WebhookEndpoint, mode: "live" | "test" = "test") {
    const event = await createEventRow(ctx.db, { storeId: endpoint.store_id, mode });
    const delivery = await createDeliveryRow(ctx.db, { event, destination: { endpoint } });
    await enqueueDelivery(ctx.worker, delivery);
    return waitForChainEnd(ctx.db, delivery.chain_id);
  }

  test("when the name resolved public at creation but private at send time, then blocked_destination and no connection", async () => {
    const url = `http://rebind.example:${receiver.port}/rebind`;
    const atCreation = await checkDestination(url, { allowLocal: true, resolve: async () => ["127.0.0.1"] });
    expect(atCreation.ok).toBe(true);
    const { endpoint } = await endpointAt("/unused", { url });
    const connectionsBefore = receiver.connections();
    ctx.worker.resolveHost = async (hostname) =>
      hostname === "rebind.example" ? ["127.0.0.1", "10.0.0.9"] : resolveHostname(hostname);
    try {
      const rows = await deliverTo(endpoint);

      expect(rows.map((r) => [r.status, r.error, r.next_attempt_at])).toEqual([
        ["failed", "blocked_destination", null],
      ]);
      expect(receiver.connections()).toBe(connectionsBefore);
      expect(receiver.requestsTo("/rebind")).toHaveLength(0);
    } finally {
      ctx.worker.resolveHost = resolveHostname;
    }
  });

  test.each([
    ["disabled", { enabled: false }, "test"],
    ["deleted", { deletedAt: new Date() }, "test"],
    ["of the other mode", {}, "live"],
  ] as const)(
    "when the endpoint is %s, then endpoint_disabled without retry or request",
    async (_case, options, mode) => {
      const { endpoint } = await endpointAt("/disabled", options);

      const rows = await deliverTo(endpoint, mode);

      expect(rows.map((r) => [r.status, r.error, r.next_attempt_at])).toEqual([["failed", "endpoint_disabled", null]]);
      expect(receiver.requestsTo("/disabled")).toHaveLength(0);
    },
  );

  test("when the store has no postback secret, then the postback ends missing_secret without retry or request", async () => {
    const { store } = await createStoreRow(ctx.db, ctx.config.encryptionKey, { postbackSecret: null });
    const charge = await createTransactionRow(ctx.db, { storeId: store.id, postbackUrl: `${receiver.url}/nosecret` });
    const event = await createEventRow(ctx.db, { storeId: store.id });
    const delivery = await createDeliveryRow(ctx.db, { event, destination: { transaction: charge } });

    await enqueueDelivery(ctx.worker, delivery);

    const rows = await waitForChainEnd(ctx.db, delivery.chain_id);
    expect(rows.map((r) => [r.status, r.error, r.next_attempt_at])).toEqual([["failed", "missing_secret", null]]);
    expect(receiver.requestsTo("/nosecret")).toHaveLength(0);
  });

  test("when the endpoint's previous secret is in its grace window, then two v1 entries each verify with their secret", async () => {
    const previous = generateWebhookSecret();
    const { endpoint, secret } = await endpointAt("/rotating", {
      previousSecret: previous,
      previousSecretExpiresAt: new Date(Date.now() + 24 * HOUR_MS),
    });

    await deliverTo(endpoint);

    const [request] = receiver.requestsTo("/rotating");
    const header = request!.headers["x-signature"] as string;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(checkSignature(header, request!.rawBody, secret).matches).toEqual([true, false]);
    expect(checkSignature(header, request!.rawBody, previous).matches).toEqual([false, true]);
  });

  test("when the grace window is over, then only the new secret signs", async () => {
    const previous = generateWebhookSecret();
    const { endpoint, secret } = await endpointAt("/rotated", {
      previousSecret: previous,
      previousSecretExpiresAt: new Date(Date.now() - 1000),
    });

    await deliverTo(endpoint);

    const [request] = receiver.requestsTo("/rotated");
    expect(checkSignature(request!.headers["x-signature"] as string, request!.rawBody, secret).matches).toEqual([true]);
  });

  test("when the 50th consecutive chain dies with no success in 7 days, then the endpoint is disabled automatically", async () => {
    receiver.script("/dying", [{ status: 500 }]);
    const { endpoint } = await endpointAt("/dying", {
      consecutiveDeadChains: 49,
      lastSucceededAt: new Date(Date.now() - 8 * 24 * HOUR_MS),
    });

    const rows = await deliverTo(endpoint);

    expect(rows.at(-1)?.status).toBe("dead");
    const after = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(after).toMatchObject({ enabled: false, disabled_reason: "auto", consecutive_dead_chains: 50 });
    expect(after.auto_disabled_at).toBeInstanceOf(Date);
  });

  test("when the 49th consecutive chain dies, then the endpoint stays enabled", async () => {
    receiver.script("/ailing", [{ status: 500 }]);
    const { endpoint } = await endpointAt("/ailing", { consecutiveDeadChains: 48, lastSucceededAt: null });

    await deliverTo(endpoint);

    const after = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(after).toMatchObject({
      enabled: true,
      disabled_reason: null,
      auto_disabled_at: null,
      consecutive_dead_chains: 49,
    });
  });

  test("when 50 chains died but there was a success within 7 days, then the endpoint stays enabled", async () => {
    receiver.script("/recovering", [{ status: 500 }]);
    const { endpoint } = await endpointAt("/recovering", {
      consecutiveDeadChains: 49,
      lastSucceededAt: new Date(Date.now() - 6 * 24 * HOUR_MS),
    });

    await deliverTo(endpoint);

    const after = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(after).toMatchObject({ enabled: true, consecutive_dead_chains: 50 });
  });

  test("when a delivery succeeds after dead chains, then the counter is reset", async () => {
    const { endpoint } = await endpointAt("/healed", { consecutiveDeadChains: 12 });

    await deliverTo(endpoint);

    const after = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(after.consecutive_dead_chains).toBe(0);
    expect(after.last_succeeded_at).toBeInstanceOf(Date);
  });

  test("when a delivery succeeds less than a minute after the endpoint's last success, then the endpoint's row is left alone", async () => {
    const lastSucceededAt = new Date(Date.now() - 30_000);
    const { endpoint } = await endpointAt("/fresh", { consecutiveDeadChains: 0, lastSucceededAt });

    const rows = await deliverTo(endpoint);

    expect(rows.at(-1)?.status).toBe("succeeded");
    const after = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(after.last_succeeded_at).toEqual(lastSucceededAt);
    expect(after.updated_at).toEqual(endpoint.updated_at);
  });

  test("when a delivery succeeds more than a minute after the endpoint's last success, then last_succeeded_at is the attempt's time", async () => {
    const { endpoint } = await endpointAt("/stale", { lastSucceededAt: new Date(Date.now() - 120_000) });

    const rows = await deliverTo(endpoint);

    const after = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(after.last_succeeded_at).toEqual(rows.at(-1)?.attempted_at);
  });

  test("when batches of successes reset the same endpoints in every order at once, then each batch is written and both runs end", async () => {
    const endpoints = [
      (await endpointAt("/pair-a", { consecutiveDeadChains: 7 })).endpoint,
      (await endpointAt("/pair-b", { consecutiveDeadChains: 9 })).endpoint,
    ];
    const batches = await Promise.all(
      Array.from({ length: 20 }, async (_, n) => {
        const order = n % 2 === 0 ? endpoints : [...endpoints].reverse();
        return Promise.all(
          order.map(async (endpoint) => {
            const event = await createEventRow(ctx.db, { storeId: endpoint.store_id });
            return createDeliveryRow(ctx.db, { event, destination: { endpoint } });
          }),
        );
      }),
    );

    const written = await Promise.all(
      batches.map((deliveries) =>
        writeDeliveryAttempts(
          ctx.db.pool,
          deliveries.map((delivery) => ({
            id: delivery.id,
            status: "succeeded",
            url: delivery.url,
            error: null,
            responseStatus: 200,
            responseBodyExcerpt: "",
            durationMs: 1,
            attemptedAt: new Date(),
            nextAttemptAt: null,
          })),
        ),
      ),
    );

    expect(written.map((ids) => ids.size)).toEqual(batches.map(() => 2));
    const after = await ctx.db.webhookEndpoint.findMany({ where: { id: { in: endpoints.map((e) => e.id) } } });
    expect(after.map((endpoint) => endpoint.consecutive_dead_chains)).toEqual([0, 0]);
    expect(after.every((endpoint) => endpoint.last_succeeded_at instanceof Date)).toBe(true);
  });

  test("when an attempt's outcome is recorded, then its destination's slot is already free for the next attempt", async () => {
    const { endpoint } = await endpointAt("/freed");
    const event = await createEventRow(ctx.db, { storeId: endpoint.store_id });
    const delivery = await createDeliveryRow(ctx.db, { event, destination: { endpoint } });
    const rows = ctx.worker.deliveryRows;
    const runningWhenRecorded: number[] = [];
    ctx.worker.deliveryRows = {
      ...rows,
      write: (row) => {
        runningWhenRecorded.push(ctx.worker.destinationSlots.running(endpoint.id));
        return rows.write(row);
      },
    };
    try {
      await processWebhookDelivery(ctx.worker, {}, jobOf(delivery));
    } finally {
      ctx.worker.deliveryRows = rows;
    }

    expect(runningWhenRecorded).toEqual([0]);
    expect((await waitForChainEnd(ctx.db, delivery.chain_id)).map((r) => r.status)).toEqual(["succeeded"]);
  });

  test("when the same attempt is processed twice at once, then it is recorded once and the chain does not fork", async () => {
    receiver.script("/twice", [{ status: 500 }]);
    const { endpoint } = await endpointAt("/twice");
    const event = await createEventRow(ctx.db, { storeId: endpoint.store_id });
    const delivery = await createDeliveryRow(ctx.db, { event, destination: { endpoint } });

    await Promise.all([
      processWebhookDelivery(ctx.worker, {}, jobOf(delivery)),
      processWebhookDelivery(ctx.worker, {}, jobOf(delivery)),
    ]);

    const rows = await waitForChainEnd(ctx.db, delivery.chain_id);
    expect(rows.map((r) => r.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rows.at(-1)?.status).toBe("dead");
  });
});

/** The job of `delivery` for a direct call: these attempts never exceed a destination's limit. */
function jobOf(delivery: { id: string }) {
  return { id: deliveryJobId(delivery.id), defer: () => Promise.reject(new Error("unexpected deferral")) };
}
