import { closedPort, paidTransactionObject, startWebhookReceiver, type WebhookReceiver } from "@lm/testing";
import { signedDeliveryHeaders } from "@lm/domain";
import { createWebhookHttpClient, type SendPolicy } from "../../src/delivery/http-client";

/** A real event's body, with a character beyond ASCII, so that "the exact body" means its bytes. */
const BODY = JSON.stringify({
  id: "evt_01JD3Z8W1Q2R3S4T5V6W7X8Y9Z",
  object: "event",
  type: "transaction.paid",
  mode: "test",
  created_at: "2026-11-26T19:03:19.103Z",
  data: { object: { ...paidTransactionObject(), description: "Pão de queijo" } },
});
const local: SendPolicy = { allowLocal: true, resolve: async () => ["127.0.0.1"] };
const headers = signedDeliveryHeaders({
  scheme: "stripe",
  secrets: ["whsec_test"],
  eventId: "evt_01JD3Z8W1Q2R3S4T5V6W7X8Y9Z",
  eventType: "transaction.paid",
  deliveryId: "whd_01JD3Z8W1Q2R3S4T5V6W7X8Y9Z",
  attempt: 2,
  body: BODY,
  timestampSeconds: 1,
});

describe("webhook HTTP client", () => {
  // 5 s: long enough that a loaded machine's first connection is not a timeout, short enough for the hanging case.
  const client = createWebhookHttpClient({ timeoutMs: 5_000 });
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    client.close();
    await receiver.close();
  });

  test("when the receiver answers 204, then the POST carried the SPEC headers and the exact body", async () => {
    receiver.script("/ok", [{ status: 204, body: "" }]);

    const outcome = await client.post(`${receiver.url}/ok`, BODY, headers, local);

    expect(outcome).toMatchObject({ error: null, responseStatus: 204, responseBodyExcerpt: "" });
    const [request] = receiver.requestsTo("/ok");
    expect(request?.method).toBe("POST");
    expect(request?.rawBody.toString("utf8")).toBe(BODY);
    expect(request?.headers).toMatchObject({
      "content-type": "application/json",
      "user-agent": "Service-Webhooks/1.0",
      "x-signature": headers["x-signature"],
      "x-event-id": "evt_01JD3Z8W1Q2R3S4T5V6W7X8Y9Z",
      "x-event-type": "transaction.paid",
      "x-delivery-id": "whd_01JD3Z8W1Q2R3S4T5V6W7X8Y9Z",
      "x-attempt": "2",
      "idempotency-key": "evt_01JD3Z8W1Q2R3S4T5V6W7X8Y9Z",
    });
    expect(request?.headers["accept-encoding"]).toBeUndefined();
  });

  test("when the receiver answers 503 with a body, then the error is http_503 and the body is kept", async () => {
    receiver.script("/down", [{ status: 503, body: "maintenance" }]);

    const outcome = await client.post(`${receiver.url}/down`, BODY, headers, local);

    expect(outcome).toMatchObject({ error: "http_503", responseStatus: 503, responseBodyExcerpt: "maintenance" });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
  });

  test("when the receiver redirects, then it is redirect_not_followed and the Location is never requested", async () => {
    receiver.script("/moved", [{ status: 302, headers: { location: `${receiver.url}/elsewhere` } }]);

    const outcome = await client.post(`${receiver.url}/moved`, BODY, headers, local);

    expect(outcome).toMatchObject({ error: "redirect_not_followed", responseStatus: 302 });
    expect(receiver.requestsTo("/elsewhere")).toHaveLength(0);
  });

  test("when the reply body is huge, then 1 KB is kept and the rest is never read", async () => {
    receiver.script("/huge", [{ status: 200, bodyBytes: 256 * 1024 * 1024 }]);

    const outcome = await client.post(`${receiver.url}/huge`, BODY, headers, local);

    expect(outcome.error).toBeNull();
    expect(outcome.responseBodyExcerpt).toBe("x".repeat(1024));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.requestsTo("/huge")[0]?.answerCompleted).toBe(false);
  });

  test("when the reply body holds NUL bytes, then the excerpt replaces them", async () => {
    receiver.script("/nul", [{ status: 400, body: Buffer.from([0x61, 0x00, 0x62]) }]);

    const outcome = await client.post(`${receiver.url}/nul`, BODY, headers, local);

    expect(outcome).toMatchObject({ error: "http_400", responseBodyExcerpt: "a\uFFFDb" });
  });

  test("when the receiver never answers, then the attempt ends as timeout", async () => {
    receiver.script("/hang", [{ hang: true }]);

    const outcome = await client.post(`${receiver.url}/hang`, BODY, headers, local);

    expect(outcome).toMatchObject({ error: "timeout", responseStatus: null, responseBodyExcerpt: null });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(900);
  });

  test("when nothing listens on the port, then it is connection_error", async () => {
    const port = await closedPort();

    const outcome = await client.post(`http://127.0.0.1:${port}/`, BODY, headers, local);

    expect(outcome).toMatchObject({ error: "connection_error", responseStatus: null });
  });

  test("when the name does not resolve, then it is connection_error", async () => {
    const nowhere: SendPolicy = { allowLocal: true, resolve: async () => Promise.reject(new Error("ENOTFOUND")) };

    const outcome = await client.post(`http://nowhere.example:${receiver.port}/`, BODY, headers, nowhere);

    expect(outcome.error).toBe("connection_error");
  });

  test("when the name resolves to a private address beside a loopback one, then it is blocked and no connection is made", async () => {
    const before = receiver.connections();
    const rebinding: SendPolicy = { allowLocal: true, resolve: async () => ["127.0.0.1", "10.0.0.7"] };

    const outcome = await client.post(`http://rebind.example:${receiver.port}/x`, BODY, headers, rebinding);

    expect(outcome).toMatchObject({ error: "blocked_destination", responseStatus: null });
    expect(receiver.connections()).toBe(before);
  });

  test("when the url fails the rules at send time, then it is blocked before any lookup", async () => {
    let looked = false;
    const strict: SendPolicy = { allowLocal: false, resolve: async () => ((looked = true), ["93.184.215.14"]) };

    const outcome = await client.post(`${receiver.url}/ok`, BODY, headers, strict);

    expect(outcome.error).toBe("blocked_destination");
    expect(looked).toBe(false);
  });

  test("when a name resolves to loopback and local destinations are allowed, then it is delivered to the judged address", async () => {
    receiver.script("/named", [{ status: 200 }]);

    const outcome = await client.post(`http://hooks.example:${receiver.port}/named`, BODY, headers, local);

    expect(outcome.error).toBeNull();
    expect(receiver.requestsTo("/named")[0]?.headers.host).toBe(`hooks.example:${receiver.port}`);
  });
});
