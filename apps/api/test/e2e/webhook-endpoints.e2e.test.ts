import { setSellerKyc } from "@lm/domain";
import { checkSignature, type ReceivedRequest, useWebhookReceiver, waitUntil, type WebhookReceiver } from "@lm/testing";
import { useE2eTestContext } from "./support/e2e-harness";
import { useLiveBank } from "../support/live-bank";
import { chargeBody } from "../support/merchant-client";
import { createEndpoint, endpointOwner, ownerMerchantClient } from "../support/webhook-endpoints";

jest.setTimeout(40_000);

/** The parsed envelope of a received delivery. */
function envelope(request: ReceivedRequest) {
  return JSON.parse(request.rawBody.toString("utf8"));
}

describe("webhook endpoints managed in the panel, delivered by the worker", () => {
  const ctx = useE2eTestContext({ TRUST_PROXY: "loopback" });
  useLiveBank(ctx);
  const receiverHolder = useWebhookReceiver();
  let receiver: WebhookReceiver;
  beforeAll(() => {
    receiver = receiverHolder.current;
  });

  /** Delivery rows written for `endpointId`, as `event_type` strings. */
  async function deliveredTypes(endpointId: string): Promise<string[]> {
    const rows = await ctx.db.webhookDelivery.findMany({ where: { endpoint_id: endpointId }, orderBy: { id: "asc" } });
    return rows.map((row) => row.event_type);
  }

  test("when an endpoint created with a step-up is pinged, then the ping reaches it alone, verifies with the returned secret, and the stats count it", async () => {
    const owner = await endpointOwner(ctx);
    const endpoint = await createEndpoint(owner, { url: `${receiver.url}/ping`, events: ["transaction.paid"] });
    const bystander = await createEndpoint(owner, { url: `${receiver.url}/bystander`, events: ["*"] });
    const statsPath = `/v1/me/webhook-endpoints/${endpoint.id}/stats`;
    const before = await owner.panel.get(statsPath);

    const res = await owner.panel.post(`/v1/me/webhook-endpoints/${endpoint.id}/ping`);

    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^whd_/),
      object: "webhook_delivery",
      event_type: "ping",
      destination: { type: "endpoint", endpoint_id: endpoint.id },
      attempt: 1,
      manual: true,
    });
    const [request] = await receiver.waitForRequests(1, { path: "/ping" });
    expect(request!.headers).toMatchObject({ "x-event-type": "ping", "x-delivery-id": res.body.id, "x-attempt": "1" });
    expect(
      checkSignature(request!.headers["x-signature"] as string, request!.rawBody, endpoint.secret).matches,
    ).toEqual([true]);
    expect(envelope(request!)).toMatchObject({
      object: "event",
      type: "ping",
      mode: "test",
      data: { object: { id: endpoint.id, object: "webhook_endpoint", status: "enabled" } },
    });
    await waitUntil(
      "the ping to succeed",
      async () => (await owner.panel.get(statsPath)).body.last_ping_succeeded === true,
    );
    const after = await owner.panel.get(statsPath);
    expect(before.body).toEqual({
      success_rate: null,
      total_deliveries: 0,
      last_ping_at: null,
      last_ping_succeeded: null,
      days: expect.any(Array),
    });
    expect(after.body).toEqual({
      success_rate: 1,
      total_deliveries: 1,
      last_ping_at: expect.any(String),
      last_ping_succeeded: true,
      days: expect.any(Array),
    });
    expect(after.body.days.at(-1)).toMatchObject({ total_deliveries: 1, success_rate: 1 });
    expect(await deliveredTypes(bystander.id)).toEqual([]);
    expect(receiver.requestsTo("/bystander")).toHaveLength(0);
  });

  test("when charges change, then a subscribed endpoint gets the event, an unsubscribed one does not, and a test endpoint never gets a live event", async () => {
    const owner = await endpointOwner(ctx);
    await setSellerKyc(ctx.deps.repos, owner.seller.id, "approved");
    const canceledOnly = await createEndpoint(owner, {
      url: `${receiver.url}/canceled`,
      events: ["transaction.canceled"],
    });
    const allTest = await createEndpoint(owner, { url: `${receiver.url}/all-test`, events: ["*"] });
    const allLive = await createEndpoint(owner, { url: `${receiver.url}/all-live`, events: ["*"], mode: "live" });
    const testApi = await ownerMerchantClient(ctx, owner, "test");
    const liveApi = await ownerMerchantClient(ctx, owner, "live");

    const testCharge = (await testApi.post("/v1/transactions", chargeBody()).expect(201)).body;
    await testApi.post(`/v1/transactions/${testCharge.id}/cancel`).expect(200);
    const liveCharge = (await liveApi.post("/v1/transactions", chargeBody()).expect(201)).body;

    const [canceled] = await receiver.waitForRequests(1, { path: "/canceled" });
    const tests = await receiver.waitForRequests(2, { path: "/all-test" });
    const [live] = await receiver.waitForRequests(1, { path: "/all-live" });
    expect(envelope(canceled!)).toMatchObject({
      type: "transaction.canceled",
      mode: "test",
      data: { object: { id: testCharge.id } },
    });
    expect(
      checkSignature(canceled!.headers["x-signature"] as string, canceled!.rawBody, canceledOnly.secret).matches,
    ).toEqual([true]);
    expect(tests.map((r) => [envelope(r).type, envelope(r).data.object.id])).toEqual([
      ["transaction.created", testCharge.id],
      ["transaction.canceled", testCharge.id],
    ]);
    expect(envelope(live!)).toMatchObject({
      type: "transaction.created",
      mode: "live",
      data: { object: { id: liveCharge.id } },
    });
    expect(checkSignature(live!.headers["x-signature"] as string, live!.rawBody, allLive.secret).matches).toEqual([
      true,
    ]);
    // The fan-out writes its rows in the event's transaction: these are final, not a snapshot of a race.
    expect(await deliveredTypes(canceledOnly.id)).toEqual(["transaction.canceled"]);
    expect(await deliveredTypes(allTest.id)).toEqual(["transaction.created", "transaction.canceled"]);
    expect(await deliveredTypes(allLive.id)).toEqual(["transaction.created"]);
  });

  test("when an endpoint is disabled or deleted, then events are not delivered to it, and after re-enabling only later events are", async () => {
    const owner = await endpointOwner(ctx);
    const api = await ownerMerchantClient(ctx, owner, "test");
    await createEndpoint(owner, { url: `${receiver.url}/control` });
    const paused = await createEndpoint(owner, { url: `${receiver.url}/paused` });
    const removed = await createEndpoint(owner, { url: `${receiver.url}/removed` });
    await owner.panel.patch(`/v1/me/webhook-endpoints/${paused.id}`, { enabled: false }).expect(200);
    await owner.panel.delete(`/v1/me/webhook-endpoints/${removed.id}`).expect(204);

    const missed = (await api.post("/v1/transactions", chargeBody()).expect(201)).body;
    await owner.panel.patch(`/v1/me/webhook-endpoints/${paused.id}`, { enabled: true }).expect(200);
    const later = (await api.post("/v1/transactions", chargeBody()).expect(201)).body;

    await receiver.waitForRequests(2, { path: "/control" });
    const resumed = await receiver.waitForRequests(1, { path: "/paused" });
    expect(resumed.map((r) => envelope(r).data.object.id)).toEqual([later.id]);
    const pausedRows = await ctx.db.webhookDelivery.findMany({ where: { endpoint_id: paused.id } });
    const pausedEvents = await ctx.db.event.findMany({ where: { id: { in: pausedRows.map((row) => row.event_id) } } });
    expect(pausedEvents.map((event) => (event.data as { id: string }).id)).toEqual([later.id]);
    expect(await deliveredTypes(removed.id)).toEqual([]);
    expect(receiver.requestsTo("/removed")).toHaveLength(0);
    expect(missed.id).not.toBe(later.id);
  });

  test("when a disabled endpoint is pinged, then the ping is delivered and says the endpoint is disabled", async () => {
    const owner = await endpointOwner(ctx);
    const endpoint = await createEndpoint(owner, { url: `${receiver.url}/off-ping` });
    await owner.panel.patch(`/v1/me/webhook-endpoints/${endpoint.id}`, { enabled: false }).expect(200);

    await owner.panel.post(`/v1/me/webhook-endpoints/${endpoint.id}/ping`).expect(202);

    const [request] = await receiver.waitForRequests(1, { path: "/off-ping" });
    expect(envelope(request!).data.object).toEqual({ id: endpoint.id, object: "webhook_endpoint", status: "disabled" });
    expect((await owner.panel.get(`/v1/me/webhook-endpoints/${endpoint.id}`)).body.enabled).toBe(false);
  });

  test("when the secret is rotated, then deliveries carry the new and the old signature until the grace ends, then only the new one", async () => {
    const owner = await endpointOwner(ctx);
    const endpoint = await createEndpoint(owner, { url: `${receiver.url}/rotate` });
    const old = endpoint.secret;
    const rotated = await owner.panel.post(`/v1/me/webhook-endpoints/${endpoint.id}/rotate-secret`).expect(200);
    const fresh: string = rotated.body.secret;

    await owner.panel.post(`/v1/me/webhook-endpoints/${endpoint.id}/ping`).expect(202);
    const [during] = await receiver.waitForRequests(1, { path: "/rotate" });
    await ctx.db.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { previous_secret_expires_at: new Date(Date.now() - 1000) },
    });
    await owner.panel.post(`/v1/me/webhook-endpoints/${endpoint.id}/ping`).expect(202);
    const [, after] = await receiver.waitForRequests(2, { path: "/rotate" });

    const duringHeader = during!.headers["x-signature"] as string;
    expect(duringHeader).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(checkSignature(duringHeader, during!.rawBody, fresh).matches).toEqual([true, false]);
    expect(checkSignature(duringHeader, during!.rawBody, old).matches).toEqual([false, true]);
    const afterHeader = after!.headers["x-signature"] as string;
    expect(checkSignature(afterHeader, after!.rawBody, fresh).matches).toEqual([true]);
    expect(checkSignature(afterHeader, after!.rawBody, old).matches).toEqual([false]);
  });
});
