import {
  chainRows,
  checkSignature,
  closedPort,
  createDeliveryRow,
  createEndpointRow,
  createEventRow,
  createStoreRow,
  createTransactionRow,
  enqueueDelivery,
  useWebhookReceiver,
  waitForChainEnd,
  waitUntil,
  type WebhookReceiver,
} from "@lm/testing";
import { useE2eTestContext } from "./support/e2e-harness";

const RETRY_SECONDS = 0.3;

jest.setTimeout(40_000);

describe("webhook delivery", () => {
  const ctx = useE2eTestContext({ RETRY_SCHEDULE_SECONDS: Array(5).fill(RETRY_SECONDS).join(",") });
  const receiverHolder = useWebhookReceiver();
  let receiver: WebhookReceiver;
  beforeAll(() => {
    receiver = receiverHolder.current;
  });

  /** A store, an endpoint at `path` of the receiver, an event and its first delivery, enqueued. */
  async function deliverToEndpoint(path: string) {
    const { store } = await createStoreRow(ctx.db, ctx.config.encryptionKey);
    const { endpoint, secret } = await createEndpointRow(ctx.db, ctx.config.encryptionKey, {
      storeId: store.id,
      url: `${receiver.url}${path}`,
    });
    const event = await createEventRow(ctx.db, { storeId: store.id });
    const delivery = await createDeliveryRow(ctx.db, { event, destination: { endpoint } });
    await enqueueDelivery(ctx.worker, delivery);
    return { store, endpoint, secret, event, delivery };
  }

  test("when an event is delivered to an endpoint, then headers, envelope and signature are exactly as specified", async () => {
    receiver.script("/ok", [{ status: 200, body: "thanks" }]);
    const before = Math.floor(Date.now() / 1000);

    const { endpoint, secret, event, delivery } = await deliverToEndpoint("/ok");

    const [request] = await receiver.waitForRequests(1, { path: "/ok" });
    expect(request?.method).toBe("POST");
    expect(request?.headers).toMatchObject({
      "content-type": "application/json",
      "user-agent": "Service-Webhooks/1.0",
      "x-event-id": event.id,
      "x-event-type": "transaction.paid",
      "x-delivery-id": delivery.id,
      "x-attempt": "1",
      "idempotency-key": event.id,
    });
    expect(JSON.parse(request!.rawBody.toString("utf8"))).toEqual({
      id: event.id,
      object: "event",
      type: "transaction.paid",
      mode: "test",
      created_at: event.created_at.toISOString(),
      data: { object: event.data },
    });
    const signature = request!.headers["x-signature"] as string;
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const { t, matches } = checkSignature(signature, request!.rawBody, secret);
    expect(matches).toEqual([true]);
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));

    const [row] = await waitForChainEnd(ctx.db, delivery.chain_id);
    expect(row).toMatchObject({
      status: "succeeded",
      error: null,
      response_status: 200,
      response_body_excerpt: "thanks",
      next_attempt_at: null,
    });
    expect(row?.attempted_at).toBeInstanceOf(Date);
    expect(row?.duration_ms).toBeGreaterThanOrEqual(0);
    const refreshed = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(refreshed.last_succeeded_at).toBeInstanceOf(Date);
  });

  test("when a charge has a postback_url, then the same envelope is signed with the store's postback secret", async () => {
    receiver.script("/postback", [{ status: 202 }]);
    const { store, postbackSecret } = await createStoreRow(ctx.db, ctx.config.encryptionKey);
    const charge = await createTransactionRow(ctx.db, { storeId: store.id, postbackUrl: `${receiver.url}/postback` });
    const event = await createEventRow(ctx.db, { storeId: store.id });
    const delivery = await createDeliveryRow(ctx.db, {
      event,
      destination: { transaction: charge },
    });

    await enqueueDelivery(ctx.worker, delivery);

    const [request] = await receiver.waitForRequests(1, { path: "/postback" });
    expect(JSON.parse(request!.rawBody.toString("utf8")).id).toBe(event.id);
    expect(
      checkSignature(request!.headers["x-signature"] as string, request!.rawBody, postbackSecret!).matches,
    ).toEqual([true]);
    const [row] = await waitForChainEnd(ctx.db, delivery.chain_id);
    expect(row).toMatchObject({ status: "succeeded", response_status: 202 });
  });

  test("when the receiver answers 500, 500, 200, then three rows with attempts 1-3 are spaced per the schedule", async () => {
    receiver.script("/flaky", [{ status: 500 }, { status: 500 }, { status: 200 }]);

    const { event, delivery, secret } = await deliverToEndpoint("/flaky");

    const rows = await waitForChainEnd(ctx.db, delivery.chain_id);
    expect(rows.map((r) => [r.attempt, r.status, r.error])).toEqual([
      [1, "failed", "http_500"],
      [2, "failed", "http_500"],
      [3, "succeeded", null],
    ]);
    expect(new Set(rows.map((r) => r.id)).size).toBe(3);
    expect(rows.every((r) => r.event_id === event.id && r.url === delivery.url)).toBe(true);
    expect(rows[0]?.next_attempt_at).toEqual(rows[1]?.scheduled_at);
    expect(rows[1]?.next_attempt_at).toEqual(rows[2]?.scheduled_at);

    const requests = receiver.requestsTo("/flaky");
    expect(requests.map((r) => r.headers["x-delivery-id"])).toEqual(rows.map((r) => r.id));
    expect(requests.map((r) => r.headers["x-attempt"])).toEqual(["1", "2", "3"]);
    expect(new Set(requests.map((r) => r.headers["x-event-id"]))).toEqual(new Set([event.id]));
    for (const request of requests) {
      expect(checkSignature(request.headers["x-signature"] as string, request.rawBody, secret).matches).toEqual([true]);
    }
    for (let i = 1; i < requests.length; i++) {
      const gapMs = requests[i]!.receivedAt.getTime() - requests[i - 1]!.receivedAt.getTime();
      expect(gapMs).toBeGreaterThanOrEqual(RETRY_SECONDS * 1000 - 20);
    }
  });

  test("when the receiver always answers 500, then six rows are written and the last is dead", async () => {
    receiver.script("/broken", [{ status: 500, body: "boom" }]);

    const { delivery } = await deliverToEndpoint("/broken");

    const rows = await waitForChainEnd(ctx.db, delivery.chain_id);
    expect(rows.map((r) => r.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rows.map((r) => r.status)).toEqual(["failed", "failed", "failed", "failed", "failed", "dead"]);
    expect(rows.every((r) => r.error === "http_500" && r.response_body_excerpt === "boom")).toBe(true);
    expect(rows[5]?.next_attempt_at).toBeNull();
    expect(receiver.requestsTo("/broken")).toHaveLength(6);
  });

  test("when the receiver redirects, then the attempt fails redirect_not_followed and the Location is never requested", async () => {
    receiver.script("/redirect", [
      { status: 302, headers: { location: `${receiver.url}/redirect-target` } },
      { status: 200 },
    ]);

    const { delivery } = await deliverToEndpoint("/redirect");

    const rows = await waitForChainEnd(ctx.db, delivery.chain_id);
    expect(rows.map((r) => [r.status, r.error, r.response_status])).toEqual([
      ["failed", "redirect_not_followed", 302],
      ["succeeded", null, 200],
    ]);
    expect(receiver.requestsTo("/redirect-target")).toHaveLength(0);
  });

  test("when nothing listens on the endpoint's port, then the attempts fail with connection_error", async () => {
    const port = await closedPort();
    const { store } = await createStoreRow(ctx.db, ctx.config.encryptionKey);
    const { endpoint } = await createEndpointRow(ctx.db, ctx.config.encryptionKey, {
      storeId: store.id,
      url: `http://127.0.0.1:${port}/hook`,
    });
    const event = await createEventRow(ctx.db, { storeId: store.id });
    const delivery = await createDeliveryRow(ctx.db, { event, destination: { endpoint } });

    await enqueueDelivery(ctx.worker, delivery);

    const rows = await waitForChainEnd(ctx.db, delivery.chain_id);
    expect(rows.map((r) => r.error)).toEqual(Array(6).fill("connection_error"));
    expect(rows[5]?.status).toBe("dead");
    expect(rows[0]?.response_status).toBeNull();
  });

  test("when the receiver never answers, then the attempt ends as timeout after 10 s", async () => {
    receiver.script("/silent", [{ hang: true }, { status: 200 }]);

    const { delivery } = await deliverToEndpoint("/silent");

    const rows = await waitForChainEnd(ctx.db, delivery.chain_id, 40_000);
    expect(rows.map((r) => [r.status, r.error])).toEqual([
      ["failed", "timeout"],
      ["succeeded", null],
    ]);
    expect(rows[0]?.duration_ms).toBeGreaterThanOrEqual(9_900);
    expect(rows[0]?.duration_ms).toBeLessThan(15_000);
  }, 60_000);

  test("when one endpoint is slow, then deliveries to another endpoint are not held up", async () => {
    receiver.script("/slow", [{ status: 200, delayMs: 6_000 }]);
    receiver.script("/fast", [{ status: 200 }]);
    const slow = await Promise.all([1, 2, 3].map(() => deliverToEndpoint("/slow")));

    const fast = await Promise.all([1, 2, 3].map(() => deliverToEndpoint("/fast")));

    await Promise.all(fast.map(({ delivery }) => waitForChainEnd(ctx.db, delivery.chain_id, 5_000)));
    const slowRows = await Promise.all(slow.map(({ delivery }) => chainRows(ctx.db, delivery.chain_id)));
    expect(slowRows.flat().map((r) => r.status)).toEqual(["pending", "pending", "pending"]);
    await waitUntil("slow deliveries to finish", async () => {
      const rows = await Promise.all(slow.map(({ delivery }) => chainRows(ctx.db, delivery.chain_id)));
      return rows.flat().every((r) => r.status === "succeeded");
    });
  }, 30_000);
});
