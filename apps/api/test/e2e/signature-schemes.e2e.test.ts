/**
 * DESIGN §12 "Signature schemes", end to end: endpoints of each scheme receive real deliveries from the worker, and each
 * delivery is verified by its scheme's OFFICIAL library, as an integrator would verify it: `standardwebhooks`
 * (`new Webhook(secret).verify(body, headers)`) and `stripe` (`stripe.webhooks.constructEvent(body, header, secret)`).
 */
import type { IncomingHttpHeaders } from "node:http";
import { Webhook } from "standardwebhooks";
import Stripe from "stripe";
import { useWebhookReceiver, type ReceivedRequest, type WebhookReceiver } from "@lm/testing";
import { chargeBody } from "../support/merchant-client";
import { createEndpoint, endpointOwner, ownerMerchantClient, type EndpointOwner } from "../support/webhook-endpoints";
import { useE2eTestContext } from "./support/e2e-harness";

jest.setTimeout(40_000);

/** Stripe's client: `webhooks.constructEvent` runs locally (no key is ever used, nothing goes to Stripe). */
const stripe = new Stripe("sk_test_never_used");

/** The received headers as one string each, as a web framework hands them to a receiver. */
function headersOf(request: ReceivedRequest): Record<string, string> {
  return Object.fromEntries(
    Object.entries(request.headers as IncomingHttpHeaders).flatMap(([name, value]) =>
      typeof value === "string" ? [[name, value]] : [],
    ),
  );
}

/** Verifies with Standard Webhooks' library; returns the parsed payload or throws its error. */
function standardVerify(secret: string, request: ReceivedRequest): unknown {
  return new Webhook(secret).verify(request.rawBody.toString("utf8"), headersOf(request));
}

/** Verifies with Stripe's library; returns the event or throws its error. */
function stripeVerify(secret: string, request: ReceivedRequest): unknown {
  return stripe.webhooks.constructEvent(request.rawBody, String(request.headers["x-signature"]), secret);
}

/** The headers every delivery carries on both schemes (SPEC "Delivery request"). */
function specHeaders(request: ReceivedRequest, eventType: string) {
  const eventId = JSON.parse(request.rawBody.toString("utf8")).id as string;
  return {
    "content-type": "application/json",
    "user-agent": "Service-Webhooks/1.0",
    "x-event-id": eventId,
    "x-event-type": eventType,
    "x-delivery-id": expect.stringMatching(/^whd_[0-9A-Z]{26}$/),
    "x-attempt": "1",
    "idempotency-key": eventId,
  };
}

describe("signature schemes verified by their official libraries", () => {
  const ctx = useE2eTestContext({ TRUST_PROXY: "loopback" });
  const receiverHolder = useWebhookReceiver();
  let receiver: WebhookReceiver;
  beforeAll(() => {
    receiver = receiverHolder.current;
  });

  /** An owner with one endpoint per scheme at `<path>-standard` and `<path>-stripe` of the receiver. */
  async function endpointsOfBothSchemes(path: string, owner: EndpointOwner) {
    const standard = await createEndpoint(owner, {
      url: `${receiver.url}${path}-standard`,
      events: ["transaction.paid"],
      signature_scheme: "standard_webhooks",
    });
    const stripeScheme = await createEndpoint(owner, {
      url: `${receiver.url}${path}-stripe`,
      events: ["transaction.paid"],
    });
    return { standard, stripe: stripeScheme };
  }

  test("when a charge is paid, then each endpoint's delivery verifies with its own scheme's library and secret only, and a manual resend keeps the scheme", async () => {
    const owner = await endpointOwner(ctx);
    const endpoints = await endpointsOfBothSchemes("/paid", owner);
    const api = await ownerMerchantClient(ctx, owner, "test");
    const before = Math.floor(Date.now() / 1000);

    const charge = (await api.post("/v1/transactions", chargeBody()).expect(201)).body;
    await api.post(`/v1/transactions/${charge.id}/simulate-payment`).expect(202);

    const [standard] = await receiver.waitForRequests(1, { path: "/paid-standard", timeoutMs: 20_000 });
    const [stripeSigned] = await receiver.waitForRequests(1, { path: "/paid-stripe", timeoutMs: 20_000 });
    const envelope = JSON.parse(standard!.rawBody.toString("utf8"));
    expect(envelope).toMatchObject({ object: "event", type: "transaction.paid", data: { object: { id: charge.id } } });

    // Standard Webhooks: its three headers beside the SPEC's, no X-Signature.
    expect(standard!.headers).toMatchObject({
      ...specHeaders(standard!, "transaction.paid"),
      "webhook-id": envelope.id,
      "webhook-timestamp": expect.stringMatching(/^\d+$/),
      "webhook-signature": expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
    });
    expect(standard!.headers["x-signature"]).toBeUndefined();
    expect(Number(standard!.headers["webhook-timestamp"])).toBeGreaterThanOrEqual(before);
    expect(standardVerify(endpoints.standard.secret, standard!)).toEqual(envelope);
    // (A base64url stripe secret may not even decode as the library's standard base64: any error will do.)
    expect(() => standardVerify(endpoints.stripe.secret, standard!)).toThrow();

    // Stripe: X-Signature beside the SPEC's, no webhook-* headers.
    expect(stripeSigned!.headers).toMatchObject({
      ...specHeaders(stripeSigned!, "transaction.paid"),
      "x-signature": expect.stringMatching(/^t=\d+,v1=[0-9a-f]{64}$/),
    });
    expect(Object.keys(stripeSigned!.headers).filter((name) => name.startsWith("webhook-"))).toEqual([]);
    expect(stripeVerify(endpoints.stripe.secret, stripeSigned!)).toMatchObject({
      id: envelope.id,
      type: "transaction.paid",
    });
    expect(() => stripeVerify(endpoints.standard.secret, stripeSigned!)).toThrow(/signature/i);

    const resend = await owner.panel.post(`/v1/me/webhook-deliveries/${standard!.headers["x-delivery-id"]}/resend`);
    expect(resend.status).toBe(202);
    const [, resent] = await receiver.waitForRequests(2, { path: "/paid-standard" });
    expect(resent!.headers).toMatchObject({ "webhook-id": envelope.id, "x-delivery-id": resend.body.id });
    expect(standardVerify(endpoints.standard.secret, resent!)).toEqual(envelope);
  });

  test("when both secrets are rotated, then during the grace each library accepts a delivery with either the new or the old secret", async () => {
    const owner = await endpointOwner(ctx);
    const endpoints = await endpointsOfBothSchemes("/grace", owner);
    const rotate = async (id: string) =>
      (await owner.panel.post(`/v1/me/webhook-endpoints/${id}/rotate-secret`).expect(200)).body.secret as string;
    const fresh = { standard: await rotate(endpoints.standard.id), stripe: await rotate(endpoints.stripe.id) };
    expect(fresh.standard).toMatch(/^whsec_[A-Za-z0-9+/]{43}$/);
    expect(fresh.stripe).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    await owner.panel.post(`/v1/me/webhook-endpoints/${endpoints.standard.id}/ping`).expect(202);
    await owner.panel.post(`/v1/me/webhook-endpoints/${endpoints.stripe.id}/ping`).expect(202);

    const [standard] = await receiver.waitForRequests(1, { path: "/grace-standard" });
    const [stripeSigned] = await receiver.waitForRequests(1, { path: "/grace-stripe" });
    expect(standard!.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
    expect(stripeSigned!.headers["x-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    const ping = { type: "ping", data: { object: { object: "webhook_endpoint", status: "enabled" } } };
    for (const secret of [fresh.standard, endpoints.standard.secret]) {
      expect(standardVerify(secret, standard!)).toMatchObject(ping);
    }
    for (const secret of [fresh.stripe, endpoints.stripe.secret]) {
      expect(stripeVerify(secret, stripeSigned!)).toMatchObject(ping);
    }
    expect(() => standardVerify(fresh.stripe, standard!)).toThrow();
    expect(() => stripeVerify(fresh.standard, stripeSigned!)).toThrow(/signature/i);
  });
});
