/**
 * `GET /v1/me/webhook-deliveries/{id}` (DESIGN §15): an attempt with the request it sent, as the dashboard shows it
 * to a receiver's developer: the endpoint's URL, the SPEC's headers (signature values not kept) and the exact
 * body, which is the event's envelope as the events API reads it; another seller's delivery is unknown.
 */
import { useApiTestContext } from "../support/harness";
import { signUpWithTwoFactor, stepTime } from "../support/two-factor";
import {
  createEndpoint,
  endpointOwner,
  ownerMerchantClient,
  panelClient,
  type EndpointOwner,
} from "../support/webhook-endpoints";

describe("GET /v1/me/webhook-deliveries/{id}", () => {
  const ctx = useApiTestContext();
  let owner: EndpointOwner;

  beforeAll(async () => {
    owner = await endpointOwner(ctx);
  });

  test("when a charge's event is delivered to an endpoint, then the detail shows the endpoint's URL, the SPEC's headers and the envelope as the body", async () => {
    const endpoint = await createEndpoint(owner, { url: "http://localhost:9/lm", events: ["*"] });
    const api = await ownerMerchantClient(ctx, owner, "test");
    const charge = (await api.post("/v1/transactions", { amount: 4200 }).expect(201)).body;
    const deliveries = (await owner.panel.get(`/v1/me/webhook-deliveries?transaction_id=${charge.id}`).expect(200)).body
      .data;

    const res = await owner.panel.get(`/v1/me/webhook-deliveries/${deliveries[0].id}`);

    expect(res.status).toBe(200);
    const { request, ...delivery } = res.body;
    expect(delivery).toEqual(deliveries[0]);
    expect(request.url).toBe("http://localhost:9/lm");
    expect(request.headers).toEqual({
      "content-type": "application/json",
      "user-agent": "Service-Webhooks/1.0",
      "x-signature": "t=…,v1=…",
      "x-event-id": delivery.event_id,
      "x-event-type": "transaction.created",
      "x-delivery-id": delivery.id,
      "x-attempt": "1",
      "idempotency-key": delivery.event_id,
    });
    const envelope = (await api.get(`/v1/events/${delivery.event_id}`).expect(200)).body;
    expect(JSON.parse(request.body)).toEqual(envelope);
    expect(delivery.destination).toEqual({ type: "endpoint", endpoint_id: endpoint.id });
  });

  test("when another seller's owner or a malformed id asks, then 404 resource_not_found", async () => {
    const api = await ownerMerchantClient(ctx, owner, "test");
    await createEndpoint(owner, { url: "http://localhost:9/other", events: ["transaction.created"] });
    const charge = (await api.post("/v1/transactions", { amount: 900 }).expect(201)).body;
    const [delivery] = (await owner.panel.get(`/v1/me/webhook-deliveries?transaction_id=${charge.id}`)).body.data;
    const stranger = panelClient(ctx, (await signUpWithTwoFactor(ctx, stepTime())).cookie);
    ctx.deps.now = () => new Date();

    const replies = [
      await stranger.get(`/v1/me/webhook-deliveries/${delivery.id}`),
      await owner.panel.get("/v1/me/webhook-deliveries/whd_not-an-id"),
    ];

    expect(replies.map((res) => [res.status, res.body.error.code])).toEqual([
      [404, "resource_not_found"],
      [404, "resource_not_found"],
    ]);
  });
});
