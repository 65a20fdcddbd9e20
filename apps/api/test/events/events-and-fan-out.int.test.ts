import { deliveryJobId, fanOutJobId, MAX_WEBHOOK_ENDPOINTS_PER_MODE } from "@lm/domain";
import { createEndpointRow, createTestMerchant, deliveryJobsIn, givePostbackSecret, waitUntil } from "@lm/testing";
import { withoutChargeFields } from "@lm/wire";
import { chargeBody, merchantClient, useTestMerchant } from "../support/merchant-client";
import { useApiTestContext } from "../support/harness";
import { holdInTransaction, lockWaiters } from "../support/row-locks";

describe("events and fan-out of transaction state changes", () => {
  const ctx = useApiTestContext();
  const merchant = useTestMerchant(ctx);

  let hooks = 0;
  const endpoint = async (
    storeId: string,
    mode: "live" | "test",
    events: string[],
    extra: { enabled?: boolean; deletedAt?: Date } = {},
  ) => {
    const url = `https://hooks.example.com/${++hooks}`;
    return (await createEndpointRow(ctx.db, ctx.config.encryptionKey, { storeId, mode, events, url, ...extra }))
      .endpoint;
  };
  const eventsOf = (transactionId: string) =>
    ctx.db.event.findMany({ where: { data: { path: ["id"], equals: transactionId } }, orderBy: { id: "asc" } });

  test("when a charge is created, then transaction.created is stored as the GET reply less the fields the charge keeps (terms, BR Code, QR image, customer), which GET /v1/events/{id} puts back from the charge in the reply's order", async () => {
    const created = (await merchant.client.post("/v1/transactions", chargeBody()).expect(201)).body;

    const [event] = await eventsOf(created.id);
    const read = (await merchant.client.get(`/v1/transactions/${created.id}`)).body;

    expect(event).toMatchObject({ type: "transaction.created", mode: "test", store_id: merchant.storeId });
    expect(read.pix.qr_code_png_base64).toMatch(/^iVBOR/);
    expect(event?.data).toEqual(withoutChargeFields(read));
    expect(Object.keys(event?.data ?? {})).toEqual(expect.arrayContaining(["id", "object", "status", "updated_at"]));
    for (const fixed of ["pix", "customer", "metadata", "amount", "txid", "created_at"])
      expect(event?.data).not.toHaveProperty(fixed);
    expect(event?.created_at.toISOString()).toBe(created.created_at);
    const object = (await merchant.client.get(`/v1/events/${event?.id}`).expect(200)).body.data.object;
    expect(object).toEqual(read);
    expect(Object.keys(object)).toEqual(Object.keys(read));
  });

  test("when a charge is canceled, then 200 canceled and transaction.canceled carries the charge as the reply shows it", async () => {
    const created = (await merchant.client.post("/v1/transactions", chargeBody()).expect(201)).body;

    const res = await merchant.client.post(`/v1/transactions/${created.id}/cancel`);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "canceled", canceled_at: expect.any(String) });
    const events = await eventsOf(created.id);
    expect(events.map((e) => e.type)).toEqual(["transaction.created", "transaction.canceled"]);
    expect(events[1]?.data).toEqual(withoutChargeFields(res.body));
    expect((await merchant.client.get(`/v1/transactions/${created.id}`)).body).toEqual(res.body);
  });

  test("when a charge that is not pending is canceled, then 409 invalid_state and no event is written", async () => {
    const created = (await merchant.client.post("/v1/transactions", chargeBody()).expect(201)).body;
    await merchant.client.post(`/v1/transactions/${created.id}/cancel`).expect(200);
    const expired = (await merchant.client.post("/v1/transactions", chargeBody()).expect(201)).body;
    await ctx.db.transaction.update({ where: { id: expired.id }, data: { expires_at: new Date(Date.now() - 1000) } });

    const again = await merchant.client.post(`/v1/transactions/${created.id}/cancel`);
    const late = await merchant.client.post(`/v1/transactions/${expired.id}/cancel`);

    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: "invalid_state" });
    expect(late.status).toBe(409);
    expect((await eventsOf(created.id)).length).toBe(2);
    expect((await eventsOf(expired.id)).length).toBe(1);
  });

  test("when five cancels of a charge wait for another writer's lock, then one wins and one transaction.canceled is written", async () => {
    const created = (await merchant.client.post("/v1/transactions", chargeBody()).expect(201)).body;
    // Another writer holds the charge's row, so that every cancel has started before any can change it.
    const holder = await holdInTransaction(
      ctx.db,
      (tx) => tx.$queryRaw`SELECT id FROM transactions WHERE id = ${created.id} FOR UPDATE`,
    );

    const replies = Promise.all(
      Array.from({ length: 5 }, () => merchant.client.post(`/v1/transactions/${created.id}/cancel`)),
    );
    await waitUntil("every cancel waits for the row", async () => (await lockWaiters(ctx.db)) === 5);
    await holder.release();

    expect((await replies).map((res) => res.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect((await eventsOf(created.id)).map((e) => e.type)).toEqual(["transaction.created", "transaction.canceled"]);
  });

  test("when a charge has a postback_url and the store has endpoints, then one first delivery per subscribed destination", async () => {
    const store = await createTestMerchant(ctx.db, { name: "Loja Fan-out" });
    await givePostbackSecret(ctx.db, store.storeId);
    const all = await endpoint(store.storeId, "test", ["*"]);
    const created = await endpoint(store.storeId, "test", ["transaction.created"]);
    await endpoint(store.storeId, "test", ["transaction.paid"]);
    await endpoint(store.storeId, "test", ["*"], { enabled: false });
    await endpoint(store.storeId, "test", ["*"], { deletedAt: new Date() });
    await endpoint(store.storeId, "live", ["*"]);
    await endpoint(merchant.storeId, "test", ["*"]);
    const postback = "http://127.0.0.1:9/postback";

    const charge = (
      await merchantClient(ctx.app, store.testKey)
        .post("/v1/transactions", chargeBody({ postback_url: postback }))
        .expect(201)
    ).body;

    const [event] = await eventsOf(charge.id);
    const deliveries = await ctx.db.webhookDelivery.findMany({ where: { event_id: event!.id } });
    expect(deliveries).toHaveLength(3);
    expect(deliveries.map((d) => d.endpoint_id ?? d.destination_type).sort()).toEqual(
      [all.id, created.id, "postback"].sort(),
    );
    for (const d of deliveries) {
      expect(d).toMatchObject({
        attempt: 1,
        status: "pending",
        chain_id: d.id,
        event_type: "transaction.created",
        store_id: store.storeId,
      });
      expect(d.id).toMatch(/^whd_/);
      expect(d.scheduled_at.toISOString()).toBe(charge.created_at);
    }
    expect(deliveries.find((d) => d.destination_type === "postback")).toMatchObject({
      url: postback,
      transaction_id: charge.id,
    });
    expect(deliveries.find((d) => d.endpoint_id === all.id)?.url).toBe(all.url);
    // The three first attempts share their event's job.
    const jobs = await deliveryJobsIn(ctx.deps.producer, ["waiting", "delayed", "prioritized"]);
    const eventJobs = jobs.filter((j) => j.id === fanOutJobId(event!.id));
    expect(eventJobs).toHaveLength(1);
    expect([...(eventJobs[0]?.data.deliveries ?? [])].sort()).toEqual(
      deliveries.map((d) => deliveryJobId(d.id)).sort(),
    );
    expect(jobs.filter((j) => deliveries.some((d) => j.id === deliveryJobId(d.id)))).toEqual([]);
  });

  test("when a store has as many endpoints as allowed, then each gets a delivery and the job enqueued names their event", async () => {
    const store = await createTestMerchant(ctx.db, { name: "Loja Cheia" });
    const endpoints = [];
    for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS_PER_MODE; i++)
      endpoints.push(await endpoint(store.storeId, "test", ["*"]));

    const charge = (await merchantClient(ctx.app, store.testKey).post("/v1/transactions", chargeBody()).expect(201))
      .body;

    const [event] = await eventsOf(charge.id);
    const deliveries = await ctx.db.webhookDelivery.findMany({
      where: { event_id: event!.id },
      orderBy: { id: "asc" },
    });
    expect(deliveries.map((d) => d.endpoint_id).sort()).toEqual(endpoints.map((e) => e.id).sort());
    const jobs = await deliveryJobsIn(ctx.deps.producer, ["waiting", "delayed", "prioritized"]);
    expect(jobs.filter((j) => j.id === fanOutJobId(event!.id))).toHaveLength(1);
    expect(jobs.some((j) => deliveries.some((d) => j.id === deliveryJobId(d.id)))).toBe(false);
  });

  test("when a charge has neither postback_url nor endpoints, then its event has no deliveries", async () => {
    const store = await createTestMerchant(ctx.db, { name: "Loja Sem Webhooks" });

    const charge = (await merchantClient(ctx.app, store.testKey).post("/v1/transactions", chargeBody()).expect(201))
      .body;

    const [event] = await eventsOf(charge.id);
    expect(await ctx.db.webhookDelivery.count({ where: { event_id: event!.id } })).toBe(0);
  });

  describe("GET /v1/events", () => {
    test("when an event is read by id, then its envelope, with data.object equal to the transaction at that moment", async () => {
      const charge = (await merchant.client.post("/v1/transactions", chargeBody()).expect(201)).body;
      const [event] = await eventsOf(charge.id);

      const res = await merchant.client.get(`/v1/events/${event!.id}`);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: event!.id,
        object: "event",
        type: "transaction.created",
        mode: "test",
        created_at: charge.created_at,
        data: { object: charge },
      });
    });

    test("when events are listed by type, then only that type, newest first, paged", async () => {
      const store = await createTestMerchant(ctx.db, { name: "Loja Eventos" });
      const events = merchantClient(ctx.app, store.testKey);
      const a = (await events.post("/v1/transactions", chargeBody()).expect(201)).body;
      const b = (await events.post("/v1/transactions", chargeBody()).expect(201)).body;
      await events.post(`/v1/transactions/${a.id}/cancel`).expect(200);

      const created = (await events.get("/v1/events?type=transaction.created")).body;
      const firstPage = (await events.get("/v1/events?limit=1")).body;

      expect(created.object).toBe("list");
      expect(created.data.map((e: { data: { object: { id: string } } }) => e.data.object.id)).toEqual([b.id, a.id]);
      expect(firstPage.data).toHaveLength(1);
      expect(firstPage.data[0].type).toBe("transaction.canceled");
      expect(firstPage.has_more).toBe(true);
    });

    test("when another store's or another mode's event id is read, then 404", async () => {
      const other = await createTestMerchant(ctx.db, { name: "Outra" });
      const charge = (await merchantClient(ctx.app, other.testKey).post("/v1/transactions", chargeBody()).expect(201))
        .body;
      const [event] = await eventsOf(charge.id);

      expect((await merchant.client.get(`/v1/events/${event!.id}`)).status).toBe(404);
      expect((await merchantClient(ctx.app, other.liveKey).get(`/v1/events/${event!.id}`)).status).toBe(404);
      expect((await merchantClient(ctx.app, other.testKey).get(`/v1/events/${event!.id}`)).status).toBe(200);
    });
  });
});
