import {
  createDeliveryRow,
  createEventRow,
  enqueueDelivery,
  useWebhookReceiver,
  waitForChainEnd,
  type WebhookReceiver,
} from "@lm/testing";
import { useE2eTestContext } from "./support/e2e-harness";
import { chargeBody } from "../support/merchant-client";
import { mailsTo, waitForMail } from "../support/panel";
import { createEndpoint, endpointOwner, ownerMerchantClient, type EndpointOwner } from "../support/webhook-endpoints";

jest.setTimeout(40_000);

describe("webhook delivery operations: resend, retries after a URL change, automatic disabling", () => {
  const ctx = useE2eTestContext({ TRUST_PROXY: "loopback" });
  const receiverHolder = useWebhookReceiver();
  let receiver: WebhookReceiver;
  beforeAll(() => {
    receiver = receiverHolder.current;
  });

  /** Creates a charge of the owner's store and returns the first delivery row it fanned out to `endpointId`. */
  async function chargeDeliveredTo(owner: EndpointOwner, endpointId: string) {
    const api = await ownerMerchantClient(ctx, owner, "test");
    await api.post("/v1/transactions", chargeBody()).expect(201);
    return ctx.db.webhookDelivery.findFirstOrThrow({ where: { endpoint_id: endpointId, attempt: 1 } });
  }

  test("when a dead delivery is resent, then a new manual chain starts at attempt 1 with the same event and its own retries", async () => {
    receiver.script("/flaky", [{ status: 500 }]);
    const owner = await endpointOwner(ctx);
    const endpoint = await createEndpoint(owner, { url: `${receiver.url}/flaky` });
    const first = await chargeDeliveredTo(owner, endpoint.id);
    const died = await waitForChainEnd(ctx.db, first.chain_id);
    receiver.script("/flaky", [{ status: 503 }, { status: 200 }]);

    const res = await owner.panel.post(`/v1/me/webhook-deliveries/${died.at(-1)!.id}/resend`);

    expect(died.map((row) => row.status)).toEqual(["failed", "failed", "failed", "failed", "failed", "dead"]);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      object: "webhook_delivery",
      event_id: first.event_id,
      destination: { type: "endpoint", endpoint_id: endpoint.id },
      attempt: 1,
      status: "pending",
      manual: true,
    });
    const resent = await waitForChainEnd(ctx.db, res.body.id);
    expect(resent.map((row) => [row.attempt, row.status, row.manual])).toEqual([
      [1, "failed", true],
      [2, "succeeded", true],
    ]);
    const requests = receiver.requestsTo("/flaky").slice(-2);
    expect(requests.map((r) => [r.headers["x-event-id"], r.headers["x-attempt"]])).toEqual([
      [first.event_id, "1"],
      [first.event_id, "2"],
    ]);
    const listed = await owner.panel.get(`/v1/me/webhook-endpoints/${endpoint.id}/deliveries?limit=2`);
    expect(listed.body.data.map((d: { id: string }) => d.id)).toEqual([resent[1]!.id, resent[0]!.id]);
  });

  test("when the endpoint's URL changed while a retry was pending, then the retry goes to the new URL and its row says so", async () => {
    const owner = await endpointOwner(ctx);
    const endpoint = await createEndpoint(owner, { url: `${receiver.url}/old` });
    const row = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    const event = await createEventRow(ctx.db, { storeId: owner.storeId });
    const written = await createDeliveryRow(ctx.db, { event, destination: { endpoint: row } });
    // A pending retry as the engine writes it after attempt 1 failed: the URL of that attempt.
    const retry = await ctx.db.webhookDelivery.update({ where: { id: written.id }, data: { attempt: 2 } });
    await owner.panel.patch(`/v1/me/webhook-endpoints/${endpoint.id}`, { url: `${receiver.url}/new` }).expect(200);

    await enqueueDelivery(ctx.worker, retry);

    const [request] = await receiver.waitForRequests(1, { path: "/new" });
    expect(request!.headers["x-attempt"]).toBe("2");
    const [sent] = await waitForChainEnd(ctx.db, retry.chain_id);
    expect(sent).toMatchObject({ status: "succeeded", url: `${receiver.url}/new` });
    expect(receiver.requestsTo("/old")).toHaveLength(0);
  });

  /**
   * An owner's endpoint at `path` (answering 500) that had `deadBefore` dead chains in a row, none succeeded since, and
   * one more chain of it that died.
   */
  async function endpointWhoseChainDied(path: string, deadBefore: number) {
    receiver.script(path, [{ status: 500 }]);
    const owner = await endpointOwner(ctx);
    const endpoint = await createEndpoint(owner, { url: `${receiver.url}${path}` });
    await ctx.db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { consecutive_dead_chains: deadBefore } });
    const first = await chargeDeliveredTo(owner, endpoint.id);
    await waitForChainEnd(ctx.db, first.chain_id);
    return { owner, endpoint };
  }

  /** The owner's feed items about automatic disabling (the feed also holds the audit of the endpoint's creation). */
  async function autoDisabledNotices(owner: Awaited<ReturnType<typeof endpointOwner>>) {
    const feed = await owner.panel.get("/v1/me/notifications");
    return feed.body.data.filter((n: { type: string }) => n.type === "webhook_endpoint.auto_disabled");
  }

  test("when the 50th consecutive chain dies with no success in 7 days, then the endpoint is disabled auto, with a feed item and a mail to the owner", async () => {
    const { owner, endpoint } = await endpointWhoseChainDied("/dying", 49);

    const read = await owner.panel.get(`/v1/me/webhook-endpoints/${endpoint.id}`);
    expect(read.body).toMatchObject({ enabled: false, disabled_reason: "auto", auto_disabled_at: expect.any(String) });
    expect(await autoDisabledNotices(owner)).toEqual([
      expect.objectContaining({
        object: "notification",
        type: "webhook_endpoint.auto_disabled",
        data: { webhook_endpoint_id: endpoint.id, mode: "test" },
      }),
    ]);
    const mail = await waitForMail(ctx, owner.email, /Webhook endpoint disabled/);
    expect(mail.text).toContain(endpoint.id);
    expect(mail.text).toContain(`${receiver.url}/dying`);
  });

  test("when the 49th consecutive chain dies, then the endpoint stays enabled and nobody is told", async () => {
    const { owner, endpoint } = await endpointWhoseChainDied("/ailing", 48);

    const row = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(row).toMatchObject({ enabled: true, disabled_reason: null, consecutive_dead_chains: 49 });
    expect(await autoDisabledNotices(owner)).toEqual([]);
    expect(await mailsTo(ctx, owner.email, /Webhook endpoint disabled/)).toEqual([]);
  });
});
