import { createDeliveryRow, createEventRow } from "@lm/testing";
import { useApiTestContext } from "../support/harness";
import { chargeBody, useTestMerchant } from "../support/merchant-client";
import { createEndpoint, endpointOwner } from "../support/webhook-endpoints";

/**
 * Every request that names an event type is checked against the one catalog (DESIGN §12 "Safer defaults"): a typo is
 * 400 `invalid_event_type` with a suggestion, never a silent empty list.
 */
describe("event types named in requests", () => {
  const ctx = useApiTestContext();
  const merchant = useTestMerchant(ctx);

  test("when events are listed by a misspelt type, then 400 invalid_event_type with param type, the closest type and the event-types route", async () => {
    await merchant.client.post("/v1/transactions", chargeBody()).expect(201);

    const res = await merchant.client.get("/v1/events?type=transaction.payed");

    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: "invalid_request_error", code: "invalid_event_type", param: "type" });
    expect(res.body.error.message).toContain('"transaction.payed" is not an event type');
    expect(res.body.error.message).toContain('Did you mean "transaction.paid"?');
    expect(res.body.error.message).toContain("GET /v1/me/event-types");
  });

  test("when events are listed by a type like no other, then 400 invalid_event_type without a suggestion", async () => {
    const res = await merchant.client.get("/v1/events?type=order.shipped");

    expect([res.status, res.body.error.code, res.body.error.param]).toEqual([400, "invalid_event_type", "type"]);
    expect(res.body.error.message).not.toContain("Did you mean");
    expect(res.body.error.message).toContain("GET /v1/me/event-types");
  });

  test.each(["transaction.created", "ping"])("when events are listed by %s, then 200", async (type) => {
    const res = await merchant.client.get(`/v1/events?type=${type}`);

    expect(res.status).toBe(200);
    expect(res.body.object).toBe("list");
  });

  test("when an endpoint's deliveries are listed by a misspelt event_type, then 400 invalid_event_type with param event_type", async () => {
    const owner = await endpointOwner(ctx);
    const endpoint = await createEndpoint(owner, { url: "http://localhost:9/hooks" });
    const row = await ctx.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    const event = await createEventRow(ctx.db, { storeId: row.store_id, type: "refund.succeeded" });
    await createDeliveryRow(ctx.db, { event, destination: { endpoint: row } });
    const path = `/v1/me/webhook-endpoints/${endpoint.id}/deliveries`;

    const typo = await owner.panel.get(`${path}?event_type=refund.succeded`);
    const ping = await owner.panel.get(`${path}?event_type=ping`);
    const known = await owner.panel.get(`${path}?event_type=refund.succeeded`);

    expect(typo.status).toBe(400);
    expect(typo.body.error).toMatchObject({ code: "invalid_event_type", param: "event_type" });
    expect(typo.body.error.message).toContain('Did you mean "refund.succeeded"?');
    expect(typo.body.error.message).toContain("GET /v1/me/event-types");
    expect([ping.status, ping.body.data]).toEqual([200, []]);
    expect(known.status).toBe(200);
    expect(known.body.data).toHaveLength(1);
  });

  test("when an endpoint subscribes to a misspelt type, then 400 invalid_event_type with param events and the closest type, and no endpoint is made", async () => {
    const owner = await endpointOwner(ctx);

    const res = await owner.panel.post("/v1/me/webhook-endpoints", {
      url: "http://localhost:9/hooks",
      events: ["transaction.paid", "withdrawl.completed"],
    });

    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "invalid_event_type", param: "events" });
    expect(res.body.error.message).toContain('"withdrawl.completed" is not a subscribable event type');
    expect(res.body.error.message).toContain('Did you mean "withdrawal.completed"?');
    expect(await ctx.db.webhookEndpoint.count({ where: { store_id: owner.storeId } })).toBe(0);
  });
});
