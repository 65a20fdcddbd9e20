import { createDeliveryRow, createEventRow, createTransactionRow } from "@lm/testing";
import { useApiTestContext } from "../support/harness";
import { endpointOwner, ownerMerchantClient, type EndpointOwner } from "../support/webhook-endpoints";

const DAY_MS = 86_400_000;

describe('events older than RETENTION_DAYS (DESIGN §10 "Retention")', () => {
  const ctx = useApiTestContext({ RETENTION_DAYS: "30" });
  let owner: EndpointOwner;
  beforeAll(async () => {
    owner = await endpointOwner(ctx);
  });

  /** An event of the owner's store created `ageDays` ago (its week is still there: retention has not run). */
  async function eventAged(ageDays: number) {
    const event = await createEventRow(ctx.db, { storeId: owner.storeId });
    return ctx.db.event.update({
      where: { id: event.id },
      data: { created_at: new Date(Date.now() - ageDays * DAY_MS) },
    });
  }

  test("when an event is older than retention, then GET /v1/events/{id} is 404 and the list leaves it out, while a younger one is served", async () => {
    const api = await ownerMerchantClient(ctx, owner, "test");
    const old = await eventAged(31);
    const young = await eventAged(29);

    const gone = await api.get(`/v1/events/${old.id}`);
    const kept = await api.get(`/v1/events/${young.id}`);
    const list = await api.get("/v1/events?limit=100");

    expect(gone.status).toBe(404);
    expect(gone.body.error).toMatchObject({ code: "resource_not_found" });
    expect(kept.status).toBe(200);
    expect(kept.body.id).toBe(young.id);
    const listed = list.body.data.map((event: { id: string }) => event.id);
    expect(listed).toContain(young.id);
    expect(listed).not.toContain(old.id);
  });

  test("when a delivery of an event older than retention is resent, then 404 and no chain is written", async () => {
    const charge = await createTransactionRow(ctx.db, { storeId: owner.storeId, postbackUrl: "http://localhost:9/p" });
    const old = await eventAged(31);
    const original = await createDeliveryRow(ctx.db, { event: old, destination: { transaction: charge } });

    const res = await owner.panel.post(`/v1/me/webhook-deliveries/${original.id}/resend`);

    expect(res.status).toBe(404);
    expect(await ctx.db.webhookDelivery.count({ where: { event_id: old.id } })).toBe(1);
  });
});
