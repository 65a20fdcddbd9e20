/**
 * DESIGN §16 "Rate limit", end to end across processes: three worker processes (the bundles `npm start` runs) share
 * an endpoint's `rate_limit` through Redis. A receiver counting arrivals per wall-clock second never sees more than the
 * limit, every event arrives (nothing dropped), the backlog drains at about the limit, and an endpoint of the same
 * store without a limit is not slowed by it.
 */
import { enqueueDeliveries, planEvents } from "@lm/domain";
import {
  paidTransactionObject,
  startWebhookReceiver,
  waitUntil,
  type ReceivedRequest,
  type WebhookReceiver,
} from "@lm/testing";
import { buildServices } from "../../../../scripts/build";
import { useApiTestContext } from "../support/harness";
import { createEndpoint, endpointOwner } from "../support/webhook-endpoints";
import { useWorkerProcesses } from "./support/worker-processes";

jest.setTimeout(120_000);

/** Attempts per second allowed to the limited endpoint. */
const LIMIT = 4;
/** Events sent to it at once: ten seconds of its limit. */
const EVENTS = 40;
/** Worker processes sharing the limit. */
const WORKERS = 3;

/** The largest number of `requests` that arrived within one wall-clock second. */
function mostInOneSecond(requests: ReceivedRequest[]): number {
  const perSecond = new Map<number, number>();
  for (const request of requests) {
    const second = Math.floor(request.receivedAt.getTime() / 1000);
    perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
  }
  return Math.max(...perSecond.values());
}

/** The event ids of `requests`. */
function eventIds(requests: ReceivedRequest[]): string[] {
  return requests.map((request) => String(request.headers["x-event-id"]));
}

describe("an endpoint's rate limit across worker processes (DESIGN §16)", () => {
  const ctx = useApiTestContext({ TRUST_PROXY: "loopback" });
  const workers = useWorkerProcesses(ctx);
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    await buildServices(["worker"]);
    await Promise.all(Array.from({ length: WORKERS }, () => workers.start()));
  }, 90_000);
  afterAll(async () => {
    await receiver?.close();
  });

  /**
   * Records `count` events of `type` of store `storeId` in one fan-out and enqueues their deliveries, as the API does
   * for a charge: this process, which hosts the receiver and its clock, stays idle while the workers deliver.
   */
  async function deliverEvents(storeId: string, type: "transaction.created" | "transaction.paid", count: number) {
    const now = new Date();
    const batch = planEvents(
      Array.from({ length: count }, () => ({
        scope: { storeId, mode: "test" as const },
        type,
        object: paidTransactionObject(),
        now,
      })),
    );
    await enqueueDeliveries(ctx.deps, await ctx.deps.repos.events.insertEvents(batch));
    return batch;
  }

  test(`when ${EVENTS} events reach an endpoint limited to ${LIMIT} a second, then no second sees more than ${LIMIT}, all arrive once, about as fast as the limit allows, and an unlimited endpoint beside it is not held`, async () => {
    const owner = await endpointOwner(ctx);
    const limited = await createEndpoint(owner, {
      url: `${receiver.url}/limited`,
      events: ["transaction.paid"],
      rate_limit: LIMIT,
    });
    await createEndpoint(owner, { url: `${receiver.url}/unlimited`, events: ["transaction.paid"] });
    await createEndpoint(owner, { url: `${receiver.url}/warm-up`, events: ["transaction.created"] });
    // The receiver answers slowly: the limit counts starts, not attempts in flight.
    receiver.script("/limited", [{ status: 200, delayMs: 300 }]);
    expect(limited.rate_limit).toBe(LIMIT);
    // Each worker process's first request is slow (its HTTP client loads, its socket connects): warm them up first, so
    // the receiver measures the limit rather than a cold start.
    await deliverEvents(owner.storeId, "transaction.created", 30);
    await receiver.waitForRequests(30, { path: "/warm-up" });

    const batch = await deliverEvents(owner.storeId, "transaction.paid", EVENTS);

    const unlimited = await receiver.waitForRequests(EVENTS, { path: "/unlimited", timeoutMs: 20_000 });
    const arrived = await receiver.waitForRequests(EVENTS, { path: "/limited", timeoutMs: 60_000 });
    const events = batch.events.map(({ event }) => event);
    expect(new Set(eventIds(arrived))).toEqual(new Set(events.map((event) => event.id)));
    expect(mostInOneSecond(arrived)).toBeLessThanOrEqual(LIMIT);
    const first = arrived[0]!.receivedAt.getTime();
    const last = arrived[arrived.length - 1]!.receivedAt.getTime();
    // 40 starts at 4 a second, evenly spaced, take 9.75 s from the first to the last; allow a loaded machine 4 s more.
    expect(last - first).toBeGreaterThanOrEqual(((EVENTS - 1) * 1000) / LIMIT - 100);
    expect(last - first).toBeLessThan(((EVENTS - 1) * 1000) / LIMIT + 4_000);
    // The endpoint without a limit had them all before the limited one was half way.
    expect(unlimited[EVENTS - 1]!.receivedAt.getTime()).toBeLessThan(first + 5_000);
    await waitUntil("every attempt recorded as succeeded", async () =>
      (await ctx.db.webhookDelivery.count({ where: { endpoint_id: limited.id, status: "succeeded" } })) === EVENTS
        ? true
        : null,
    );
    // Nothing more arrives: every event once.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receiver.requestsTo("/limited")).toHaveLength(EVENTS);
  });
});
