/**
 * DESIGN §16 "Pause", end to end: an endpoint paused with `PATCH {paused: true}` keeps every event that arrives
 * (nothing is sent, nothing dropped, nothing offered by the reconciler), and `PATCH {paused: false}` delivers them
 * all, one at a time in the order the events were made; a delivery that waited 14 days ends `dead` with
 * `paused_too_long`, logged and told to the owners. The 14 days are reached by writing an event made 15 days ago, on
 * the real clock.
 */
import { idFloor, newId, PAUSE_KEEPS_MS, sweepOrderedDeliveries } from "@lm/domain";
import {
  createDeliveryRow,
  paidTransactionObject,
  useWebhookReceiver,
  waitUntil,
  type WebhookReceiver,
} from "@lm/testing";
import { reconcile } from "../../../worker/src/sweepers/reconciler";
import { captureLogs, type MemoryTransport } from "../support/log-capture";
import { chargeBody } from "../support/merchant-client";
import { createEndpoint, endpointOwner, ownerMerchantClient, type EndpointOwner } from "../support/webhook-endpoints";
import { useE2eTestContext } from "./support/e2e-harness";

jest.setTimeout(60_000);

const DAY_MS = 24 * 60 * 60 * 1000;

describe("pausing an endpoint (DESIGN §16)", () => {
  const ctx = useE2eTestContext({ TRUST_PROXY: "loopback" });
  const receiverHolder = useWebhookReceiver();
  let receiver: WebhookReceiver;
  let logs: MemoryTransport;
  beforeAll(() => {
    receiver = receiverHolder.current;
    logs = captureLogs(ctx.worker.logger);
  });

  /** The owner's paused endpoint at `path` of the receiver, subscribed to `transaction.created`. */
  async function pausedEndpoint(owner: EndpointOwner, path: string) {
    const endpoint = await createEndpoint(owner, { url: `${receiver.url}${path}`, events: ["transaction.created"] });
    await owner.panel.patch(`/v1/me/webhook-endpoints/${endpoint.id}`, { paused: true }).expect(200);
    return endpoint;
  }

  test("when 12 charges are made while the endpoint is paused, then nothing arrives until it resumes, and then all arrive once each, in the order of their events", async () => {
    const owner = await endpointOwner(ctx);
    const endpoint = await pausedEndpoint(owner, "/paused");
    const api = await ownerMerchantClient(ctx, owner, "test");

    const charges: string[] = [];
    for (let i = 0; i < 12; i++) charges.push((await api.post("/v1/transactions", chargeBody()).expect(201)).body.id);
    const held = await waitUntil("12 held rows", async () => {
      const rows = await ctx.db.webhookDelivery.findMany({ where: { endpoint_id: endpoint.id, ordered: true } });
      return rows.length === 12 ? rows : null;
    });
    // A reconciler tick finds them, and offers none of them (the endpoint is paused).
    await reconcile(ctx.worker);
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    expect(receiver.requestsTo("/paused")).toHaveLength(0);
    expect(held.every((row) => row.status === "pending")).toBe(true);
    const read = await owner.panel.get(`/v1/me/webhook-endpoints/${endpoint.id}`).expect(200);
    expect(read.body.paused).toBe(true);

    await owner.panel.patch(`/v1/me/webhook-endpoints/${endpoint.id}`, { paused: false }).expect(200);

    const arrived = await receiver.waitForRequests(12, { path: "/paused", timeoutMs: 30_000 });
    const events = arrived.map((request) => JSON.parse(request.rawBody.toString("utf8")));
    expect(events.map((event) => event.data.object.id)).toEqual(charges);
    const createdAt = events.map((event) => event.created_at as string);
    expect(createdAt).toEqual([...createdAt].sort());
    await waitUntil("every row succeeded", async () =>
      (await ctx.db.webhookDelivery.count({ where: { endpoint_id: endpoint.id, status: "succeeded" } })) === 12
        ? true
        : null,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.requestsTo("/paused")).toHaveLength(12);
  });

  test("when a held delivery's event is older than 14 days, then the sweep ends it dead with paused_too_long, warns and tells the owners once, and a younger one waits on", async () => {
    const owner = await endpointOwner(ctx);
    const endpoint = await pausedEndpoint(owner, "/too-long");
    const row = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    const made = new Date(Date.now() - PAUSE_KEEPS_MS - DAY_MS);
    const old = await ctx.db.event.create({
      data: {
        id: newId("event", made.getTime()),
        store_id: owner.storeId,
        mode: "test",
        type: "transaction.paid",
        data: paidTransactionObject(),
        created_at: made,
      },
    });
    expect(old.id < idFloor("event", Date.now() - PAUSE_KEEPS_MS)).toBe(true);
    const young = await ctx.db.event.create({
      data: {
        id: newId("event"),
        store_id: owner.storeId,
        mode: "test",
        type: "transaction.paid",
        data: paidTransactionObject(),
      },
    });
    const expiring = await createDeliveryRow(ctx.db, { event: old, destination: { endpoint: row } });
    const waiting = await createDeliveryRow(ctx.db, { event: young, destination: { endpoint: row } });
    await ctx.db.webhookDelivery.updateMany({
      where: { id: { in: [expiring.id, waiting.id] } },
      data: { ordered: true },
    });

    expect(await sweepOrderedDeliveries(ctx.worker)).toBeGreaterThanOrEqual(1);
    await sweepOrderedDeliveries(ctx.worker);

    const ended = await ctx.db.webhookDelivery.findUniqueOrThrow({ where: { id: expiring.id } });
    expect(ended).toMatchObject({ status: "dead", error: "paused_too_long", next_attempt_at: null });
    expect(ended.attempted_at).not.toBeNull();
    expect(await ctx.db.webhookDelivery.findUniqueOrThrow({ where: { id: waiting.id } })).toMatchObject({
      status: "pending",
      ordered: true,
    });
    const listed = await owner.panel.get(`/v1/me/webhook-endpoints/${endpoint.id}/deliveries?status=dead`).expect(200);
    expect(listed.body.data).toEqual([expect.objectContaining({ id: expiring.id, error: "paused_too_long" })]);
    expect(logs.lines.filter((line) => line.endpoint_id === endpoint.id && line.reason === "paused_too_long")).toEqual([
      expect.objectContaining({ level: "warn", deliveries: 1 }),
    ]);
    const feed = await owner.panel.get("/v1/me/notifications?limit=100").expect(200);
    expect(feed.body.data.filter((n: { type: string }) => n.type === "webhook_endpoint.delivery_stopped")).toEqual([
      expect.objectContaining({ data: { webhook_endpoint_id: endpoint.id, mode: "test", reason: "paused_too_long" } }),
    ]);

    await owner.panel.patch(`/v1/me/webhook-endpoints/${endpoint.id}`, { paused: false }).expect(200);
    const [delivered] = await receiver.waitForRequests(1, { path: "/too-long" });
    expect(JSON.parse(delivered!.rawBody.toString("utf8")).id).toBe(young.id);
  });
});
