/**
 * DESIGN §16 "no silent endings", as a new user met it: an endpoint registered on a local URL while the service ran
 * with `WEBHOOK_ALLOW_LOCAL_DESTINATIONS=true`, then a worker started without it. Each delivery that ends without a
 * retry logs a warning naming the endpoint and the reason, and the first such ending of an endpoint in a day writes a
 * `webhook_endpoint.delivery_stopped` item in the owners' feed.
 */
import {
  createEndpointRow,
  createDeliveryRow,
  createEventRow,
  enqueueDelivery,
  waitForChainEnd,
  waitUntil,
} from "@lm/testing";
import { captureLogs, type MemoryTransport } from "../support/log-capture";
import { chargeBody } from "../support/merchant-client";
import { endpointOwner, ownerMerchantClient, type EndpointOwner } from "../support/webhook-endpoints";
import { useE2eTestContext } from "./support/e2e-harness";

jest.setTimeout(40_000);

const DAY_MS = 24 * 60 * 60 * 1000;

describe("no silent endings (DESIGN §16)", () => {
  // The worker (and the API) as restarted without local destinations.
  const ctx = useE2eTestContext({ TRUST_PROXY: "loopback", WEBHOOK_ALLOW_LOCAL_DESTINATIONS: "false" });
  let logs: MemoryTransport;
  beforeAll(() => {
    logs = captureLogs(ctx.worker.logger);
  });

  /** The owner's feed items of `type`. */
  async function feedItems(owner: EndpointOwner, type: string) {
    const feed = await owner.panel.get("/v1/me/notifications?limit=100").expect(200);
    return feed.body.data.filter((n: { type: string }) => n.type === type);
  }

  /** The warnings logged for `endpointId`'s deliveries that ended. */
  function endingsLogged(endpointId: string) {
    return logs.lines.filter(
      (line) => line.message === "delivery ended without retry" && line.endpoint_id === endpointId,
    );
  }

  /** An endpoint of the owner's store on a local URL, as accepted before the restart. */
  async function localEndpoint(owner: EndpointOwner, options: { enabled?: boolean } = {}) {
    const { endpoint } = await createEndpointRow(ctx.db, ctx.config.encryptionKey, {
      storeId: owner.storeId,
      url: "http://127.0.0.1:4000/webhooks",
      events: ["transaction.created"],
      ...options,
    });
    return endpoint;
  }

  test("when charges fan out to a local endpoint the worker now blocks, then each ending is a warning naming it, and the owners get one feed item for the day", async () => {
    const owner = await endpointOwner(ctx);
    const endpoint = await localEndpoint(owner);
    const api = await ownerMerchantClient(ctx, owner, "test");

    await api.post("/v1/transactions", chargeBody()).expect(201);
    await api.post("/v1/transactions", chargeBody()).expect(201);

    const rows = await waitUntil("both deliveries ended", async () => {
      const ended = await ctx.db.webhookDelivery.findMany({ where: { endpoint_id: endpoint.id, status: "failed" } });
      return ended.length === 2 ? ended : null;
    });
    expect(rows.map((row) => [row.error, row.next_attempt_at])).toEqual([
      ["blocked_destination", null],
      ["blocked_destination", null],
    ]);
    await waitUntil("both warnings", () => endingsLogged(endpoint.id).length === 2 || null);
    expect(endingsLogged(endpoint.id)).toEqual(
      rows.map(() =>
        expect.objectContaining({
          level: "warn",
          endpoint_id: endpoint.id,
          destination: "endpoint",
          host: "127.0.0.1:4000",
          reason: "blocked_destination",
          delivery_id: expect.stringMatching(/^whd_/),
        }),
      ),
    );
    const items = await feedItems(owner, "webhook_endpoint.delivery_stopped");
    expect(items).toEqual([
      expect.objectContaining({
        title: "Webhook deliveries stopped",
        message: expect.stringContaining("WEBHOOK_ALLOW_LOCAL_DESTINATIONS=true"),
        data: { webhook_endpoint_id: endpoint.id, mode: "test", reason: "blocked_destination" },
      }),
    ]);
    expect(items[0].message).toContain("http://127.0.0.1:4000/webhooks");
  });

  test("when the endpoint's last notice is more than a day old, then the next ending writes a new item; a disabled endpoint's ending says so", async () => {
    const owner = await endpointOwner(ctx);
    const endpoint = await localEndpoint(owner, { enabled: false });
    await ctx.db.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: { stop_noticed_at: new Date(Date.now() - DAY_MS - 60_000) },
    });
    const event = await createEventRow(ctx.db, { storeId: owner.storeId, type: "transaction.created" });

    const delivery = await createDeliveryRow(ctx.db, { event, destination: { endpoint } });
    await enqueueDelivery(ctx.worker, delivery);
    const [row] = await waitForChainEnd(ctx.db, delivery.chain_id);

    expect(row).toMatchObject({ status: "failed", error: "endpoint_disabled" });
    expect(await feedItems(owner, "webhook_endpoint.delivery_stopped")).toEqual([
      expect.objectContaining({
        message: expect.stringContaining("disabled or deleted"),
        data: { webhook_endpoint_id: endpoint.id, mode: "test", reason: "endpoint_disabled" },
      }),
    ]);
    const noticedAt = (await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).stop_noticed_at;
    expect(Date.now() - noticedAt!.getTime()).toBeLessThan(60_000);
  });
});
