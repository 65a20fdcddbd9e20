import request from "supertest";
import {
  enqueueReceivedInboxItems,
  fanOutJobId,
  newId,
  processInboxItem,
  sandboxAcquirerSecret,
  settlePayments,
  signatureHeader,
} from "@lm/domain";
import { createLogger } from "@lm/logging";
import { createEndpointRow, createTestMerchant, deliveryJobsIn, givePostbackSecret } from "@lm/testing";
import type { JobPayloads } from "@lm/queue";
import { withoutChargeFields } from "@lm/wire";
import type { WorkerDeps } from "../../../worker/src/deps";
import { createPaymentSettlement } from "../../../worker/src/inbox/payment-settlement";
import { inboxProcessingProcessor } from "../../../worker/src/processors/inbox-processing.processor";
import { enqueueDueDeliveries } from "../../../worker/src/sweepers/due-deliveries";
import { useApiTestContext } from "../support/harness";
import { useWorkerDeps } from "../support/worker-deps";
import { paymentOf } from "../support/pix-payments";
import { captureLogs } from "../support/log-capture";
import { chargeBody, merchantClient, type MerchantClient } from "../support/merchant-client";

describe("settling a batch of inbound payments in one statement (settlePayments)", () => {
  const ctx = useApiTestContext();

  /** A fresh seller and store (its own balance), its client and one endpoint subscribed to everything. */
  async function freshStore() {
    const merchant = await createTestMerchant(ctx.db);
    await createEndpointRow(ctx.db, ctx.config.encryptionKey, {
      storeId: merchant.storeId,
      url: "http://127.0.0.1:9/hooks",
    });
    return { ...merchant, client: merchantClient(ctx.app, merchant.testKey) };
  }

  const charge = async (client: MerchantClient, overrides: Record<string, unknown> = {}) =>
    (await client.post("/v1/transactions", chargeBody(overrides)).expect(201)).body;

  /** Stores a sandbox notification of `items` through the inbound route; the ids of the items it stored, in order. */
  async function notify(items: Array<Record<string, unknown>>): Promise<string[]> {
    const body = JSON.stringify({ pix: items });
    const header = signatureHeader(
      [sandboxAcquirerSecret(ctx.config.encryptionKey)],
      Math.floor(Date.now() / 1000),
      body,
    );
    await request(ctx.app)
      .post("/v1/acquirers/sandbox/notifications")
      .set("Content-Type", "application/json")
      .set("X-Acquirer-Signature", header)
      .send(body)
      .expect(200);
    const stored = await ctx.db.inboxItem.findMany({
      where: { end_to_end_id: { in: items.map((item) => item.endToEndId as string) } },
    });
    return items.map((item) => stored.find((row) => row.end_to_end_id === item.endToEndId)?.id as string);
  }

  test("when 30 payments of one store are settled in one batch, then every charge, event, delivery, ledger entry and item is written as one by one", async () => {
    const store = await freshStore();
    await givePostbackSecret(ctx.db, store.storeId);
    const charges = [];
    for (let i = 0; i < 30; i++) {
      charges.push(await charge(store.client, { amount: 1000 + i, postback_url: "http://127.0.0.1:9/postback" }));
    }
    const itemIds = await notify(charges.map((txn) => paymentOf(txn)));

    const outcomes = await settlePayments(ctx.deps, itemIds);

    expect(outcomes).toEqual(Array(30).fill("paid"));
    for (const txn of charges) {
      const read = (await store.client.get(`/v1/transactions/${txn.id}`).expect(200)).body;
      expect(read).toMatchObject({
        status: "paid",
        payment: { amount: txn.amount, payer: { name: "João Pagador", document_masked: "***.533.447-**" } },
      });
      const events = await ctx.db.event.findMany({ where: { store_id: store.storeId, type: "transaction.paid" } });
      const event = events.find((candidate) => (candidate.data as { id: string }).id === txn.id);
      expect(event?.data).toEqual(withoutChargeFields(read));
      const deliveries = await ctx.db.webhookDelivery.findMany({ where: { event_id: event?.id } });
      expect(deliveries.map((d) => [d.destination_type, d.attempt, d.status]).sort()).toEqual([
        ["endpoint", 1, "pending"],
        ["postback", 1, "pending"],
      ]);
      expect(deliveries.find((d) => d.destination_type === "postback")?.transaction_id).toBe(txn.id);
    }
    const queued = await deliveryJobsIn(ctx.deps.producer, ["waiting", "delayed", "prioritized"]);
    const rows = await ctx.db.webhookDelivery.findMany({
      where: { store_id: store.storeId, event_type: "transaction.paid" },
    });
    expect(rows).toHaveLength(60);
    // The first attempts of each 20 events share the job of the group's first event, which their rows name.
    const jobOf = (row: (typeof rows)[number]) => fanOutJobId(row.fan_out_event_id ?? row.event_id);
    expect(new Set(rows.map(jobOf)).size).toBe(2);
    for (const row of rows) {
      expect(queued.find((job) => job.id === jobOf(row))?.data.deliveries).toContain(row.id.slice(4));
    }
    const total = charges.reduce((sum, txn) => sum + txn.amount, 0);
    expect((await store.client.get("/v1/balance").expect(200)).body).toMatchObject({ available: total, reserved: 0 });
    expect(
      await ctx.db.balanceTransaction.count({
        where: { seller_id: store.sellerId, type: "payment", amount: { gt: 0 } },
      }),
    ).toBe(30);
    const items = await ctx.db.inboxItem.findMany({ where: { id: { in: itemIds } } });
    expect(items.every((item) => item.processed_at !== null && item.error === null && item.attempts === 1)).toBe(true);
    expect(items.map((item) => item.transaction_id).sort()).toEqual(charges.map((txn) => txn.id).sort());
  });

  test("when a batch holds anything but plain payments, then it writes nothing for them and processing them one by one records each anomaly", async () => {
    const store = await freshStore();
    const [wrongAmount, twice, expiring, plain] = [
      await charge(store.client, { amount: 2000 }),
      await charge(store.client, { amount: 3000 }),
      await charge(store.client, { amount: 4000, expires_in: 60 }),
      await charge(store.client, { amount: 5000 }),
    ];
    const itemIds = await notify([
      paymentOf(wrongAmount, { valor: "19.99" }),
      paymentOf({ txid: "unknownunknownunknownunknown01", amount: 100 }),
      paymentOf(twice),
      paymentOf(twice),
      paymentOf(expiring, { horario: new Date(Date.now() + 120_000).toISOString() }),
      paymentOf(plain),
    ]);

    const outcomes = await settlePayments(ctx.deps, itemIds);

    expect(outcomes).toEqual([null, null, null, null, null, "paid"]);
    for (const txn of [wrongAmount, twice, expiring]) {
      expect((await store.client.get(`/v1/transactions/${txn.id}`)).body.status).toBe("pending");
    }
    expect((await store.client.get("/v1/balance")).body.available).toBe(5000);
    const oneByOne = [];
    for (const id of itemIds) oneByOne.push(await processInboxItem(ctx.deps, id));
    expect(oneByOne).toEqual(["amount_mismatch", "unknown_txid", "paid", "not_pending", "not_pending", "skipped"]);
    expect((await store.client.get("/v1/balance")).body.available).toBe(5000 + 3000);
  });

  test("when two batches and the one-by-one path race over the same 20 payments, then each charge is paid, credited and announced exactly once", async () => {
    const store = await freshStore();
    const charges = [];
    for (let i = 0; i < 20; i++) charges.push(await charge(store.client, { amount: 700 + i }));
    const itemIds = await notify(charges.map((txn) => paymentOf(txn)));

    const [first, second, single] = await Promise.all([
      settlePayments(ctx.deps, itemIds),
      settlePayments(ctx.deps, [...itemIds].reverse()),
      Promise.all(itemIds.slice(0, 5).map((id) => processInboxItem(ctx.deps, id))),
    ]);
    // Whatever a batch did not settle goes one by one, as the worker does.
    const rest = await Promise.all(
      itemIds.map(async (id, i) =>
        first[i] === null && second[19 - i] === null ? processInboxItem(ctx.deps, id) : "paid",
      ),
    );

    const paidOnce = itemIds.map((_, i) =>
      [first[i], second[19 - i], i < 5 ? single[i] : null].filter((outcome) => outcome === "paid"),
    );
    expect(paidOnce.every((outcomes) => outcomes.length <= 1)).toBe(true);
    expect(rest.every((outcome) => outcome === "paid" || outcome === "skipped" || outcome === "already_paid")).toBe(
      true,
    );
    const total = charges.reduce((sum, txn) => sum + txn.amount, 0);
    expect((await store.client.get("/v1/balance")).body.available).toBe(total);
    expect(await ctx.db.balanceTransaction.count({ where: { seller_id: store.sellerId } })).toBe(20);
    expect(await ctx.db.event.count({ where: { store_id: store.storeId, type: "transaction.paid" } })).toBe(20);
    for (const txn of charges) {
      expect((await store.client.get(`/v1/transactions/${txn.id}`)).body.status).toBe("paid");
    }
  });

  test("when a batch fails, then the worker's batcher logs it once, writes nothing, and leaves every item to be processed one by one", async () => {
    const store = await freshStore();
    const charges = [await charge(store.client, { amount: 1100 }), await charge(store.client, { amount: 1200 })];
    const itemIds = await notify(charges.map((txn) => paymentOf(txn)));
    const logger = createLogger({ level: "info", service: "test" });
    const logs = captureLogs(logger);
    // An invalid clock makes the batch throw while it builds the events: nothing has been written then.
    const settle = createPaymentSettlement(() => ({ ...ctx.deps, logger, now: () => new Date(Number.NaN) }));

    const outcomes = await Promise.all(itemIds.map((id) => settle(id)));

    expect(outcomes).toEqual([null, null]);
    expect(logs.lines.filter((line) => line.level === "warn").map((line) => line.message)).toEqual([
      "batched payment settlement failed; settling its items one by one",
    ]);
    for (const txn of charges) {
      expect((await store.client.get(`/v1/transactions/${txn.id}`)).body.status).toBe("pending");
    }
    const oneByOne = [];
    for (const id of itemIds) oneByOne.push(await processInboxItem(ctx.deps, id));
    expect(oneByOne).toEqual(["paid", "paid"]);
    expect((await store.client.get("/v1/balance")).body.available).toBe(2300);
  });

  describe("the items received together share one inbox job", () => {
    const worker = useWorkerDeps(ctx);

    const jobData = async (id: string) =>
      (await ctx.deps.producer.queueFor("inbox-processing", id).getJob(id))?.data as JobPayloads["inbox-processing"];
    const control = (id: string) => ({ id, defer: () => Promise.reject(new Error("not deferred here")) });

    test("when items are received within a few milliseconds, then one job names them all, by the first's id; items received apart have jobs of their own", async () => {
      const store = await freshStore();
      const charges = [];
      for (let i = 0; i < 4; i++) charges.push(await charge(store.client, { amount: 800 + i }));
      const apart = [...(await notify([paymentOf(charges[0])])), ...(await notify([paymentOf(charges[1])]))];
      const together = await notify(charges.slice(2).map((txn) => paymentOf(txn)));
      const [a, b, c] = [newId("inboxItem"), newId("inboxItem"), newId("inboxItem")];

      await Promise.all([enqueueReceivedInboxItems(ctx.deps, [a]), enqueueReceivedInboxItems(ctx.deps, [b, c])]);

      expect(await jobData(apart[0]!)).toEqual({ inboxItemId: apart[0] });
      expect(await jobData(apart[1]!)).toEqual({ inboxItemId: apart[1] });
      expect(await jobData(together[0]!)).toEqual({ inboxItemId: together[0], moreInboxItemIds: [together[1]] });
      expect(await jobData(together[1]!)).toBeUndefined();
      expect(await jobData(a)).toEqual({ inboxItemId: a, moreInboxItemIds: [b, c] });
    });

    test("when a shared job cannot be enqueued, then every caller resolves and one warning, in the log of the job's first caller, names the job", async () => {
      const logger = (service: string) => createLogger({ level: "info", service });
      const [earlier, first, second] = [logger("earlier"), logger("first"), logger("second")];
      const [earlierLogs, firstLogs, secondLogs] = [captureLogs(earlier), captureLogs(first), captureLogs(second)];
      // A queue that cannot take jobs, as when Redis is down.
      const producer = { ...ctx.deps.producer, enqueueBulk: () => Promise.reject(new Error("Connection is closed.")) };
      const [a, b, c, d] = [newId("inboxItem"), newId("inboxItem"), newId("inboxItem"), newId("inboxItem")];
      await enqueueReceivedInboxItems({ producer, logger: earlier }, [a]);

      await Promise.all([
        enqueueReceivedInboxItems({ producer, logger: first }, [b]),
        enqueueReceivedInboxItems({ producer, logger: second }, [c, d]),
      ]);

      const warning = (jobId: string) =>
        expect.objectContaining({ level: "warn", queue: "inbox-processing", count: 1, job_id: jobId });
      expect(earlierLogs.lines).toEqual([warning(a)]);
      expect(firstLogs.lines).toEqual([warning(b)]);
      expect(secondLogs.lines).toEqual([]);
    });

    test("when the reconciler offers the first attempts of payments settled together, then it names their shared job and adds none", async () => {
      const store = await freshStore();
      const charges = [];
      for (let i = 0; i < 3; i++) charges.push(await charge(store.client, { amount: 950 + i }));
      await settlePayments(ctx.deps, await notify(charges.map((txn) => paymentOf(txn))));
      const rows = await ctx.db.webhookDelivery.findMany({
        where: { store_id: store.storeId, event_type: "transaction.paid" },
      });
      const jobsOfStore = async () =>
        (await deliveryJobsIn(ctx.deps.producer, ["waiting", "delayed", "prioritized"])).filter((job) =>
          rows.some((row) => job.data.deliveries?.includes(row.id.slice(4))),
        );
      const [shared, ...others] = await jobsOfStore();
      expect(others).toEqual([]);
      expect(shared?.data.deliveries?.sort()).toEqual(rows.map((row) => row.id.slice(4)).sort());

      await enqueueDueDeliveries(worker.current);

      expect((await jobsOfStore()).map((job) => job.id)).toEqual([shared?.id]);
    });

    test("when payments settled together reach a rate-limited endpoint and an unlimited one, then only the unlimited endpoint's first attempts share the first event's job", async () => {
      const store = await freshStore();
      await createEndpointRow(ctx.db, ctx.config.encryptionKey, {
        storeId: store.storeId,
        url: "http://127.0.0.1:9/limited",
        rateLimit: 5,
      });
      const charges = [];
      for (let i = 0; i < 3; i++) charges.push(await charge(store.client, { amount: 970 + i }));

      await settlePayments(ctx.deps, await notify(charges.map((txn) => paymentOf(txn))));

      const rows = await ctx.db.webhookDelivery.findMany({
        where: { store_id: store.storeId, event_type: "transaction.paid" },
        include: { endpoint: true },
      });
      const first = rows.find((row) => row.endpoint?.rate_limit === null && row.fan_out_event_id === null)!.event_id;
      expect(
        rows
          .map((row) => [row.endpoint?.rate_limit ?? null, row.event_id === first, row.fan_out_event_id])
          .sort((a, b) => String(a).localeCompare(String(b))),
      ).toEqual(
        [
          [null, true, null],
          [null, false, first],
          [null, false, first],
          [5, true, null],
          [5, false, null],
          [5, false, null],
        ].sort((a, b) => String(a).localeCompare(String(b))),
      );
    });

    test("when the worker runs a job of several items and one fails, then the others are settled and the job fails with that item's error", async () => {
      const store = await freshStore();
      const charges = [];
      for (let i = 0; i < 3; i++) charges.push(await charge(store.client, { amount: 900 + i }));
      const itemIds = await notify(charges.map((txn) => paymentOf(txn)));
      const [failing] = itemIds;
      const deps: WorkerDeps = {
        ...worker.current,
        settlePayment: async (id) => {
          if (id === failing) throw new Error("connection lost");
          return worker.current.settlePayment(id);
        },
      };

      await expect(
        inboxProcessingProcessor(
          deps,
          { inboxItemId: itemIds[0]!, moreInboxItemIds: itemIds.slice(1) },
          control(failing!),
        ),
      ).rejects.toThrow("connection lost");

      const statuses = await Promise.all(
        charges.map(async (txn) => (await store.client.get(`/v1/transactions/${txn.id}`)).body.status),
      );
      expect(statuses).toEqual(["pending", "paid", "paid"]);

      // The retry settles what is left and changes nothing else.
      await inboxProcessingProcessor(
        worker.current,
        { inboxItemId: itemIds[0]!, moreInboxItemIds: itemIds.slice(1) },
        control(failing!),
      );

      expect((await store.client.get(`/v1/transactions/${charges[0].id}`)).body.status).toBe("paid");
      expect((await store.client.get("/v1/balance")).body.available).toBe(900 + 901 + 902);
      expect(await ctx.db.event.count({ where: { store_id: store.storeId, type: "transaction.paid" } })).toBe(3);
    });
  });
});
