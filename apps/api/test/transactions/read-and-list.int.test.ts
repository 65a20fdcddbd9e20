import { createTestMerchant } from "@lm/testing";
import { chargeBody, merchantClient, useTestMerchant } from "../support/merchant-client";
import { useApiTestContext } from "../support/harness";

describe("GET /v1/transactions and /v1/transactions/{id}", () => {
  const ctx = useApiTestContext();
  const merchant = useTestMerchant(ctx);
  const create = async (overrides: Record<string, unknown> = {}) =>
    (await merchant.client.post("/v1/transactions", chargeBody(overrides)).expect(201)).body;

  test("when a transaction is read by id, then the reply equals the creation reply", async () => {
    const created = await create();

    const res = await merchant.client.get(`/v1/transactions/${created.id}`);

    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
  });

  test("when another store's transaction id is read or canceled, then 404 resource_not_found", async () => {
    const other = await createTestMerchant(ctx.db, { name: "Outra Loja" });
    const foreign = (await merchantClient(ctx.app, other.testKey).post("/v1/transactions", chargeBody()).expect(201))
      .body;

    const read = await merchant.client.get(`/v1/transactions/${foreign.id}`);
    const cancel = await merchant.client.post(`/v1/transactions/${foreign.id}/cancel`);

    expect(read.status).toBe(404);
    expect(read.body.error).toMatchObject({ type: "not_found_error", code: "resource_not_found" });
    expect(cancel.status).toBe(404);
    expect((await merchant.client.get("/v1/transactions")).body.data.map((t: { id: string }) => t.id)).not.toContain(
      foreign.id,
    );
  });

  test("when the store's live key reads a test-mode transaction, then 404 resource_not_found", async () => {
    const created = await create();

    const read = await merchantClient(ctx.app, merchant.liveKey).get(`/v1/transactions/${created.id}`);

    expect(read.status).toBe(404);
    expect(read.body.error).toMatchObject({ type: "not_found_error", code: "resource_not_found" });
  });

  test.each(["txn_nope", "evt_01JD3Z0000000000000000000A", "txn_01JD3Z0000000000000000000A"])(
    "when the id %s is malformed, of another kind or unknown, then 404",
    async (id) => {
      expect((await merchant.client.get(`/v1/transactions/${id}`)).status).toBe(404);
    },
  );

  describe("paging", () => {
    const store = useTestMerchant(ctx, { name: "Loja Paginada" });
    const ids: string[] = [];
    beforeAll(async () => {
      for (let i = 0; i < 5; i++)
        ids.unshift((await store.client.post("/v1/transactions", { amount: 100 + i }).expect(201)).body.id);
    });
    const list = async (query: string) => (await store.client.get(`/v1/transactions${query}`).expect(200)).body;

    test("when listed without parameters, then a list object, newest first, has_more false", async () => {
      const body = await list("");

      expect(body.object).toBe("list");
      expect(body.data.map((t: { id: string }) => t.id)).toEqual(ids);
      expect(body.has_more).toBe(false);
    });

    test("when limit is smaller than the count, then has_more is true and starting_after continues", async () => {
      const first = await list("?limit=2");
      const second = await list(`?limit=2&starting_after=${ids[1]}`);
      const last = await list(`?limit=2&starting_after=${ids[3]}`);

      expect(first.data.map((t: { id: string }) => t.id)).toEqual(ids.slice(0, 2));
      expect(first.has_more).toBe(true);
      expect(second.data.map((t: { id: string }) => t.id)).toEqual(ids.slice(2, 4));
      expect(second.has_more).toBe(true);
      expect(last.data.map((t: { id: string }) => t.id)).toEqual(ids.slice(4));
      expect(last.has_more).toBe(false);
    });

    test("when ending_before is given, then the page just before that id, still newest first", async () => {
      const page = await list(`?limit=2&ending_before=${ids[4]}`);
      const top = await list(`?limit=2&ending_before=${ids[1]}`);

      expect(page.data.map((t: { id: string }) => t.id)).toEqual(ids.slice(2, 4));
      expect(page.has_more).toBe(true);
      expect(top.data.map((t: { id: string }) => t.id)).toEqual(ids.slice(0, 1));
      expect(top.has_more).toBe(false);
    });

    test.each([
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["limit=abc", "limit"],
      ["starting_after=evt_01JD3Z0000000000000000000A", "starting_after"],
      ["status=lost", "status"],
      ["stauts=paid", "stauts"],
      ["starting_after=txn_01JD3Z0000000000000000000A&ending_before=txn_01JD3Z0000000000000000000B", "ending_before"],
    ])("when the query is %s, then 400 validation_failed naming %s", async (query, param) => {
      const res = await store.client.get(`/v1/transactions?${query}`);

      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: "validation_failed", param });
    });

    test("when limit is 100, then it is accepted", async () => {
      expect((await list("?limit=100")).data).toHaveLength(5);
    });
  });

  test("when filtered by external_id and status, then only matching transactions are listed", async () => {
    const wanted = await create({ external_id: "filter-me" });
    const canceled = await create({ external_id: "filter-canceled" });
    await merchant.client.post(`/v1/transactions/${canceled.id}/cancel`).expect(200);

    const byExternal = (await merchant.client.get("/v1/transactions?external_id=filter-me")).body;
    const byStatus = (await merchant.client.get("/v1/transactions?status=canceled&limit=100")).body;

    expect(byExternal.data.map((t: { id: string }) => t.id)).toEqual([wanted.id]);
    expect(byStatus.data.map((t: { id: string }) => t.id)).toEqual([canceled.id]);
  });

  test("when expires_at has passed but no job ran, then reads, lists and filters show it expired", async () => {
    const created = await create({ external_id: "read-expired" });
    const expiresAt = new Date(Date.now() - 1_000);
    await ctx.db.transaction.update({ where: { id: created.id }, data: { expires_at: expiresAt } });

    const read = (await merchant.client.get(`/v1/transactions/${created.id}`)).body;
    const expiredList = (await merchant.client.get("/v1/transactions?status=expired&limit=100")).body;
    const pendingList = (await merchant.client.get("/v1/transactions?status=pending&limit=100")).body;

    expect(read).toMatchObject({ status: "expired", expired_at: expiresAt.toISOString() });
    expect(expiredList.data.map((t: { id: string }) => t.id)).toContain(created.id);
    expect(pendingList.data.map((t: { id: string }) => t.id)).not.toContain(created.id);
  });
});
