import {
  createDeliveryRow,
  createEventRow,
  givePostbackSecret,
  useWebhookReceiver,
  waitForChainEnd,
  waitUntil,
  type WebhookReceiver,
} from "@lm/testing";
import { useE2eTestContext } from "./support/e2e-harness";
import { chargeBody } from "../support/merchant-client";
import { mailsTo, waitForMail } from "../support/panel";
import { createEndpoint, endpointOwner, ownerMerchantClient, type EndpointOwner } from "../support/webhook-endpoints";

jest.setTimeout(40_000);

const DAY_MS = 24 * 60 * 60 * 1000;

/** DESIGN §8: recover, delivery search across destinations, early warning, polling by time. */
describe("delivery operations beyond the spec", () => {
  const ctx = useE2eTestContext({ TRUST_PROXY: "loopback" });
  const receiverHolder = useWebhookReceiver();
  let receiver: WebhookReceiver;
  beforeAll(() => {
    receiver = receiverHolder.current;
  });

  /** An event of the owner's store created `ageMs` ago. */
  async function eventAged(owner: EndpointOwner, ageMs: number, type = "transaction.paid") {
    const event = await createEventRow(ctx.db, { storeId: owner.storeId, type });
    return ctx.db.event.update({ where: { id: event.id }, data: { created_at: new Date(Date.now() - ageMs) } });
  }

  /** The owner's feed items of `type`. */
  async function feedItems(owner: EndpointOwner, type: string) {
    const feed = await owner.panel.get("/v1/me/notifications?limit=100");
    return feed.body.data.filter((n: { type: string }) => n.type === type);
  }

  describe("early warning", () => {
    /** The owner's endpoint at `path` (answering 500) with `deadBefore` dead chains in a row, then one more that died. */
    async function oneMoreDeadChain(owner: EndpointOwner, endpointId: string) {
      const api = await ownerMerchantClient(ctx, owner, "test");
      const charge = await api.post("/v1/transactions", chargeBody()).expect(201);
      const event = await waitUntil("the charge's event", () =>
        ctx.db.event.findFirst({ where: { data: { path: ["id"], equals: charge.body.id } } }),
      );
      const first = await waitUntil("the charge's delivery row", () =>
        ctx.db.webhookDelivery.findFirst({ where: { endpoint_id: endpointId, attempt: 1, event_id: event.id } }),
      );
      await waitForChainEnd(ctx.db, first.chain_id);
    }

    test("when the 10th consecutive chain dies, then the owners get one webhook_endpoint.failing item and mail, and the 11th adds none", async () => {
      receiver.script("/failing", [{ status: 500 }]);
      const owner = await endpointOwner(ctx);
      const endpoint = await createEndpoint(owner, { url: `${receiver.url}/failing` });
      await ctx.db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { consecutive_dead_chains: 9 } });

      await oneMoreDeadChain(owner, endpoint.id);
      await oneMoreDeadChain(owner, endpoint.id);

      expect(await feedItems(owner, "webhook_endpoint.failing")).toEqual([
        expect.objectContaining({
          type: "webhook_endpoint.failing",
          data: { webhook_endpoint_id: endpoint.id, mode: "test", consecutive_dead_chains: 10 },
        }),
      ]);
      const mail = await waitForMail(ctx, owner.email, /Webhook endpoint failing/);
      expect(mail.text).toContain(endpoint.id);
      expect(await mailsTo(ctx, owner.email, /Webhook endpoint failing/)).toHaveLength(1);
      const row = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
      expect(row).toMatchObject({ enabled: true, consecutive_dead_chains: 11 });
    });
  });

  describe("recover", () => {
    test("when an endpoint recovers a window, then exactly the subscribed events whose latest chain did not succeed are re-sent as manual chains", async () => {
      const owner = await endpointOwner(ctx);
      const endpoint = await createEndpoint(owner, { url: `${receiver.url}/recover`, events: ["transaction.paid"] });
      const row = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
      const delivered = await eventAged(owner, 3 * DAY_MS);
      const deliveredRow = await createDeliveryRow(ctx.db, { event: delivered, destination: { endpoint: row } });
      await ctx.db.webhookDelivery.update({
        where: { id: deliveredRow.id },
        data: { status: "succeeded", attempted_at: new Date() },
      });
      const died = await eventAged(owner, 2 * DAY_MS);
      const diedRow = await createDeliveryRow(ctx.db, { event: died, destination: { endpoint: row } });
      await ctx.db.webhookDelivery.update({
        where: { id: diedRow.id },
        data: { status: "dead", attempt: 6, attempted_at: new Date() },
      });
      const missed = await eventAged(owner, 1 * DAY_MS);
      await eventAged(owner, 1 * DAY_MS, "transaction.expired");
      await eventAged(owner, 20 * DAY_MS);

      const since = new Date(Date.now() - 13 * DAY_MS).toISOString();
      const res = await owner.panel.post(`/v1/me/webhook-endpoints/${endpoint.id}/recover`, { since });

      expect(res.body).toEqual({
        object: "webhook_recovery",
        endpoint_id: endpoint.id,
        since,
        until: expect.any(String),
        events: 2,
      });
      expect(res.status).toBe(202);
      const requests = await receiver.waitForRequests(2, { path: "/recover" });
      expect(new Set(requests.map((r) => r.headers["x-event-id"]))).toEqual(new Set([died.id, missed.id]));
      const chains = await ctx.db.webhookDelivery.findMany({ where: { endpoint_id: endpoint.id, manual: true } });
      expect(chains.map((c) => c.attempt)).toEqual([1, 1]);
    });

    test("when since is more than 14 days back or after until, then 400 validation_failed on since and nothing is written", async () => {
      const owner = await endpointOwner(ctx);
      const endpoint = await createEndpoint(owner, { url: `${receiver.url}/recover-bad` });
      const tooOld = new Date(Date.now() - 15 * DAY_MS).toISOString();
      const now = new Date().toISOString();

      const old = await owner.panel.post(`/v1/me/webhook-endpoints/${endpoint.id}/recover`, { since: tooOld });
      const reversed = await owner.panel.post(`/v1/me/webhook-endpoints/${endpoint.id}/recover`, {
        since: now,
        until: new Date(Date.now() - DAY_MS).toISOString(),
      });

      for (const reply of [old, reversed]) {
        expect(reply.status).toBe(400);
        expect(reply.body.error).toMatchObject({ code: "validation_failed", param: "since" });
      }
      expect(await ctx.db.webhookDelivery.count({ where: { endpoint_id: endpoint.id } })).toBe(0);
    });
  });

  describe("delivery search across destinations", () => {
    test("when deliveries are searched, then postback and endpoint attempts of the seller are found by destination, charge and event, and another seller's are not", async () => {
      const owner = await endpointOwner(ctx);
      const endpoint = await createEndpoint(owner, { url: `${receiver.url}/search` });
      const api = await ownerMerchantClient(ctx, owner, "test");
      await givePostbackSecret(ctx.db, owner.storeId);
      const charge = await api
        .post("/v1/transactions", chargeBody({ postback_url: `${receiver.url}/postback` }))
        .expect(201);
      const stranger = await endpointOwner(ctx);
      await createEndpoint(stranger, { url: `${receiver.url}/stranger` });
      const strangerApi = await ownerMerchantClient(ctx, stranger, "test");
      await givePostbackSecret(ctx.db, stranger.storeId);
      await strangerApi.post("/v1/transactions", chargeBody({ postback_url: `${receiver.url}/postback` })).expect(201);

      const all = await owner.panel.get("/v1/me/webhook-deliveries?mode=test");
      const postbacks = await owner.panel.get("/v1/me/webhook-deliveries?destination=postback");
      const ofCharge = await owner.panel.get(`/v1/me/webhook-deliveries?transaction_id=${charge.body.id}`);
      const eventId = all.body.data[0].event_id;
      const ofEvent = await owner.panel.get(`/v1/me/webhook-deliveries?event_id=${eventId}&destination=endpoint`);
      const live = await owner.panel.get("/v1/me/webhook-deliveries?mode=live");

      expect(all.body.data.map((d: { destination: { type: string } }) => d.destination.type).sort()).toEqual([
        "endpoint",
        "postback",
      ]);
      expect(postbacks.body.data).toEqual([
        expect.objectContaining({
          destination: { type: "postback", transaction_id: charge.body.id, url: `${receiver.url}/postback` },
        }),
      ]);
      expect(ofCharge.body.data).toHaveLength(2);
      expect(ofEvent.body.data).toEqual([
        expect.objectContaining({ destination: { type: "endpoint", endpoint_id: endpoint.id } }),
      ]);
      expect(live.body.data).toEqual([]);
    });

    test("when a search filter is unknown or malformed, then 400 validation_failed", async () => {
      const owner = await endpointOwner(ctx);

      const res = await owner.panel.get("/v1/me/webhook-deliveries?destination=fax");

      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: "validation_failed", param: "destination" });
    });
  });

  describe("polling by time", () => {
    test("when events are listed with created_after and created_before, then only those strictly inside the window come, newest first", async () => {
      const owner = await endpointOwner(ctx);
      const api = await ownerMerchantClient(ctx, owner, "test");
      const old = await eventAged(owner, 3 * DAY_MS);
      const middle = await eventAged(owner, 2 * DAY_MS);
      const recent = await eventAged(owner, 1 * DAY_MS);

      const after = new Date(old.created_at.getTime()).toISOString();
      const before = new Date(recent.created_at.getTime()).toISOString();
      const res = await api.get(`/v1/events?created_after=${after}&created_before=${before}`);
      const since = await api.get(`/v1/events?created_after=${after}`);
      const bad = await api.get("/v1/events?created_after=yesterday");

      expect(res.status).toBe(200);
      expect(res.body.data.map((e: { id: string }) => e.id)).toEqual([middle.id]);
      expect(since.body.data.map((e: { id: string }) => e.id)).toEqual([recent.id, middle.id]);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ code: "validation_failed", param: "created_after" });
    });
  });
});
