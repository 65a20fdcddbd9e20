import { createDb, createRepositories, loadPendingDeliveries, writeDeliveryAttempts, type Db } from "@lm/db";
import {
  cancelTransaction,
  expireDueTransactions,
  findTransaction,
  newId,
  recordGivenUpJob,
  settlePayments,
  settleRefund,
  settleWithdrawal,
  simulatePayment,
  submitRefund,
  submitWithdrawal,
  type UseCaseDeps,
} from "@lm/domain";
import { createLogger } from "@lm/logging";
import { createEndpointRow, createEventRow, createStoreRow } from "@lm/testing";
import { closeWorkerDeps, createWorkerDeps, type WorkerDeps } from "../../../worker/src/deps";
import { enqueueDueDeliveries } from "../../../worker/src/sweepers/due-deliveries";
import { enqueueStrandedInboxItems } from "../../../worker/src/sweepers/stranded-inbox-items";
import { useApiTestContext } from "../support/harness";
import { rowsReadBy, withoutAutovacuum } from "../support/rows-read";

/**
 * The batch statements of the hot paths name their rows by id and update them only while they are still `pending`. The
 * planner must find those rows by primary key whatever its statistics say: statistics gathered while few rows were
 * pending (a young database, a drained queue) estimate one pending row, and a plan through the `(status, …)` index then
 * reads every pending row for each batch, so a backlog drains in quadratic time, exactly when it matters. A single
 * charge's transition, and a charge's read by id, must read its own row only. The reconciler's sweeps must read each
 * pending delivery once, neither every due row for each page nor every delivery ever made, and only the inbox items
 * still to process; a statement naming inbox items still to process by id must read those items only. A refund's or a
 * withdrawal's claim of a request to the acquirer, and its settlement, must read its own row (and, for a refund that
 * succeeds, its charge's other refunds), however many others wait. The file builds that situation (100,000 settled
 * rows analysed, then 3,000 pending ones: enough rows for the planner to prefer looking ids up to reading the table)
 * and counts the rows of the table that each statement read (PostgreSQL's own counters, on a connection of its own).
 */
describe("batch statements and the reconciler read the rows they name, whatever the planner's statistics", () => {
  let measured: Db;
  let worker: WorkerDeps;
  const ctx = useApiTestContext({}, async ({ config }) => {
    measured = createDb(config.databaseUrl, { maxConnections: 1 });
    worker = createWorkerDeps(config, { logger: createLogger({ level: "error", service: "worker", silent: true }) });
    return async () => {
      await closeWorkerDeps(worker);
      await measured.$disconnect();
    };
  });
  const SETTLED = 100_000;
  const BACKLOG = 3000;
  let measuredDeps: UseCaseDeps;
  let deliveries: string[];
  let charges: { storeId: string; payable: string[] };

  beforeAll(async () => {
    await withoutAutovacuum(ctx.db, "webhook_deliveries", "transactions");
    measuredDeps = { ...ctx.deps, repos: createRepositories(measured) };
    deliveries = await deliveryBacklog();
    charges = await chargeBacklog();
  }, 60_000);

  /** `count` new ids of `prefix`. */
  const newIds = (prefix: "delivery" | "transaction" | "refund" | "withdrawal", count = BACKLOG) =>
    Array.from({ length: count }, () => newId(prefix));

  /** {@link SETTLED} succeeded deliveries of a store's endpoint, analysed, then {@link BACKLOG} pending ones. */
  async function deliveryBacklog(): Promise<string[]> {
    const { store } = await createStoreRow(ctx.db, ctx.config.encryptionKey);
    const { endpoint } = await createEndpointRow(ctx.db, ctx.config.encryptionKey, {
      storeId: store.id,
      url: "http://127.0.0.1:9/hooks",
    });
    const event = await createEventRow(ctx.db, { storeId: store.id });
    const insert = (ids: string[], status: string) =>
      ctx.db.$executeRawUnsafe(
        `INSERT INTO webhook_deliveries
           (id, chain_id, attempt, status, event_id, event_type, store_id, destination_type, endpoint_id, url,
            scheduled_at)
         SELECT id, id, 1, $2::delivery_status, $3, $4, $5, 'endpoint', $6, $7, now() FROM unnest($1::text[]) AS id`,
        ids,
        status,
        event.id,
        event.type,
        store.id,
        endpoint.id,
        endpoint.url,
      );
    await insert(newIds("delivery", SETTLED), "succeeded");
    await ctx.db.$executeRawUnsafe("ANALYZE webhook_deliveries");
    const pending = newIds("delivery");
    await insert(pending, "pending");
    return pending;
  }

  /**
   * {@link SETTLED} expired charges of a store, analysed, then {@link BACKLOG} pending ones due in an hour (`payable`)
   * and as many due a minute ago (for the expiry sweep).
   */
  async function chargeBacklog(): Promise<typeof charges> {
    const { store } = await createStoreRow(ctx.db, ctx.config.encryptionKey);
    await insertCharges(store.id, newIds("transaction", SETTLED), "expired", new Date(Date.now() - 86_400_000));
    await ctx.db.$executeRawUnsafe("ANALYZE transactions");
    const payable = newIds("transaction");
    await insertCharges(store.id, payable, "pending", new Date(Date.now() + 3_600_000));
    await insertCharges(store.id, newIds("transaction"), "pending", new Date(Date.now() - 60_000));
    return { storeId: store.id, payable };
  }

  /** Test-mode charges `ids` of `storeId`, written in one statement. */
  const insertCharges = (storeId: string, ids: string[], status: string, expiresAt: Date) =>
    ctx.db.$executeRawUnsafe(
      `INSERT INTO transactions
         (id, store_id, mode, status, amount, txid, br_code, qr_code_png_base64, expires_in, expires_at, updated_at)
       SELECT id, $2, 'test', $3::transaction_status, 1990, md5(id), '000201', '', 60, $4, now()
       FROM unnest($1::text[]) AS id`,
      ids,
      storeId,
      status,
      expiresAt,
    );

  test("when 100 of 3,000 pending deliveries are loaded, then 100 delivery rows are read", async () => {
    const batch = deliveries.slice(0, 100);

    let loaded = 0;
    const read = await rowsReadBy(measured, "webhook_deliveries", async () => {
      loaded = (await loadPendingDeliveries(measured.pool, batch)).size;
    });

    expect(loaded).toBe(100);
    expect(read).toBe(100);
  });

  test("when the attempts of 100 of 3,000 pending deliveries are written, then 100 delivery rows are read", async () => {
    const batch = deliveries.slice(100, 200);
    const attemptedAt = new Date();

    let written = 0;
    const read = await rowsReadBy(measured, "webhook_deliveries", async () => {
      const rows = batch.map((id) => ({
        id,
        status: "succeeded" as const,
        url: "http://127.0.0.1:9/hooks",
        error: null,
        responseStatus: 200,
        responseBodyExcerpt: "",
        durationMs: 3,
        attemptedAt,
        nextAttemptAt: null,
      }));
      written = (await writeDeliveryAttempts(measured.pool, rows)).size;
    });

    expect(written).toBe(100);
    expect(read).toBe(100);
  });

  test("when 50 of 6,000 pending charges are paid in one batch, then 200 charge rows are read: to find, lock, update and reference them", async () => {
    const paying = charges.payable.slice(0, 50);
    // On the measured connection too: each reads its charge, and another connection's counters reach the statistics
    // up to 10 s later, inside a later test's measure (the cancel below once counted these 50 reads).
    for (const id of paying) await simulatePayment(measuredDeps, { storeId: charges.storeId, mode: "test" }, id);
    const items = await ctx.db.inboxItem.findMany({ where: { processed_at: null }, select: { id: true } });

    let outcomes: Array<"paid" | null> = [];
    const read = await rowsReadBy(measured, "transactions", async () => {
      outcomes = await settlePayments(
        measuredDeps,
        items.map((item) => item.id),
      );
    });

    expect(outcomes).toEqual(Array(50).fill("paid"));
    // By txid, by id to lock them in id order, by id for the update, and by id again for the foreign key of each inbox
    // item that names its charge.
    expect(read).toBe(200);
  });

  test("when a sweep expires 200 of 3,000 due charges, then 200 charge rows are read to find them, 200 to lock them in id order and 200 to update them", async () => {
    let expired = 0;
    const read = await rowsReadBy(measured, "transactions", async () => {
      expired = await expireDueTransactions(measuredDeps, 200);
    });

    expect(expired).toBe(200);
    expect(read).toBe(600);
  });

  test("when one of 3,000 pending charges is canceled, then its row is read and no other", async () => {
    const id = charges.payable[100] as string;

    let status = "";
    const read = await rowsReadBy(measured, "transactions", async () => {
      ({ status } = await cancelTransaction(measuredDeps, { storeId: charges.storeId, mode: "test" }, id));
    });

    expect(status).toBe("canceled");
    // The charge's read, its lock and its update.
    expect(read).toBe(3);
  });

  test("when a charge of a store the statistics have not seen is read ten times, then each read reads its row only", async () => {
    // A young store: the statistics were taken before its 3,000 charges existed, so the planner expects as few rows
    // for its (store, mode) as for the id, and a plan through (store_id, mode, external_id) reads all of them.
    const { store } = await createStoreRow(ctx.db, ctx.config.encryptionKey);
    const ids = newIds("transaction");
    await insertCharges(store.id, ids, "pending", new Date(Date.now() + 3_600_000));
    const id = ids[1234] as string;

    const found: string[] = [];
    // Ten reads: from the sixth on, a prepared statement may run on its generic plan.
    const read = await rowsReadBy(measured, "transactions", async () => {
      for (let i = 0; i < 10; i++)
        found.push((await findTransaction(measuredDeps.repos, { storeId: store.id, mode: "test" }, id)).id);
    });

    expect(found).toEqual(Array(10).fill(id));
    expect(read).toBe(10);
  });

  /** Each pending row once, and at most one row more per query: pages of 1,000 and the empty one that ends them. */
  const onceEach = (pending: number) => pending + Math.ceil(pending / 1000) + 1;

  /** Runs the reconciler's sweep on the measured connection: every pending delivery (all are due) offered, read once. */
  async function expectSweepToReadEachPendingDeliveryOnce(): Promise<void> {
    // Counted on the measured connection, whose statistics are flushed before the measure starts: counted through
    // another, the rows this count reads could reach the statistics within the measure.
    const counted = await measured.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'",
    );
    const pending = counted.rows[0]?.n ?? 0;

    let offered = 0;
    const read = await rowsReadBy(measured, "webhook_deliveries", async () => {
      offered = await enqueueDueDeliveries({ ...worker, repos: measuredDeps.repos });
    });

    expect(offered).toBe(pending);
    expect(read).toBeGreaterThanOrEqual(pending);
    expect(read).toBeLessThanOrEqual(onceEach(pending));
  }

  test("when the reconciler sweeps 2,900 due deliveries among 100,000 settled ones, then it reads each pending row once", async () => {
    await expectSweepToReadEachPendingDeliveryOnce();
  });

  test("when the statistics know of the pending deliveries, then the reconciler's sweep still reads each pending row once", async () => {
    await ctx.db.$executeRawUnsafe("ANALYZE webhook_deliveries");

    await expectSweepToReadEachPendingDeliveryOnce();
  });

  /** `count` inbox items of `acquirerId` received an hour ago (processed at `processedAt`, or not), their ids. */
  async function insertInboxItems(acquirerId: string, count: number, processedAt: Date | null): Promise<string[]> {
    const ids = Array.from({ length: count }, () => newId("inboxItem"));
    await ctx.db.$executeRawUnsafe(
      `INSERT INTO inbox_items (id, acquirer_id, provider_event_id, event_type, signature_valid, raw_body, headers,
                                received_at, processed_at, end_to_end_id)
       SELECT id, $2, id, 'pix', true, '\\x7b7d', '{}', now() - interval '1 hour', $3, id FROM unnest($1::text[]) AS id`,
      ids,
      acquirerId,
      processedAt,
    );
    return ids;
  }

  describe("the inbox, analysed while every item was processed", () => {
    let acquirerId: string;
    beforeAll(async () => {
      await withoutAutovacuum(ctx.db, "inbox_items");
      acquirerId = (
        await ctx.db.acquirer.create({
          data: { id: newId("acquirer"), slug: "batch-statements", secret_ciphertext: "unused" },
        })
      ).id;
      await insertInboxItems(acquirerId, SETTLED, new Date());
      await ctx.db.$executeRawUnsafe("ANALYZE inbox_items");
    }, 60_000);

    test("when the inbox sweep runs over 100,000 processed items and 10 still to process, then it reads those 10", async () => {
      await insertInboxItems(acquirerId, 10, null);

      let offered = 0;
      const read = await rowsReadBy(measured, "inbox_items", async () => {
        offered = await enqueueStrandedInboxItems({ ...worker, repos: measuredDeps.repos });
      });

      expect(offered).toBe(10);
      expect(read).toBeLessThanOrEqual(onceEach(10));
    });

    test("when 50 of a backlog of 3,000 unprocessed items are loaded for settlement, then 50 item rows are read", async () => {
      const backlog = await insertInboxItems(acquirerId, BACKLOG, null);

      let outcomes: Array<"paid" | null> = [];
      const read = await rowsReadBy(measured, "inbox_items", async () => {
        outcomes = await settlePayments(measuredDeps, backlog.slice(0, 50));
      });

      // Their bodies (`{}`) are no payment: each is left to processing one by one, after the batch read them.
      expect(outcomes).toEqual(Array(50).fill(null));
      expect(read).toBe(50);
    });

    test("when the given-up job of one of 3,000 unprocessed items is written on it, then its row only is read", async () => {
      const [id] = await insertInboxItems(acquirerId, 1, null);
      const inboxItemId = id as string;

      let marked = false;
      const read = await rowsReadBy(measured, "inbox_items", async () => {
        marked = await recordGivenUpJob(measuredDeps, {
          queue: "inbox-processing",
          jobId: inboxItemId,
          data: { inboxItemId },
          error: new Error("boom"),
        });
      });

      expect(marked).toBe(true);
      expect(read).toBe(1);
    });
  });

  describe("refunds and withdrawals waiting for the acquirer, analysed while every one was settled", () => {
    let sellerId: string;
    let storeId: string;
    /** The paid charge of every refund but the test's own: {@link SETTLED} failed, then succeeded and processing. */
    let refundedCharge: string;
    let processingRefunds: string[];
    let processingWithdrawals: string[];
    /** The sandbox, which holds the money of these rows (registered at no bank). */
    const sandboxReporter = { acquirerId: "acq_sandbox", sandbox: true, mode: "test" } as const;

    beforeAll(async () => {
      await withoutAutovacuum(ctx.db, "refunds", "withdrawals");
      const { store } = await createStoreRow(ctx.db, ctx.config.encryptionKey);
      [sellerId, storeId] = [store.seller_id, store.id];
      // Enough reserved for any settlement of the tests.
      await ctx.db.$executeRawUnsafe(
        "INSERT INTO balances (seller_id, mode, available, reserved) VALUES ($1, 'test', 0, 1000000)",
        sellerId,
      );
      refundedCharge = await insertPaidCharge();
      // Refused by the acquirer, each with its return's id: the statistics count no open and no succeeded refund.
      await insertRefunds(newIds("refund", SETTLED), refundedCharge, "failed");
      await ctx.db.$executeRawUnsafe("ANALYZE refunds");
      await insertRefunds(newIds("refund"), refundedCharge, "succeeded");
      processingRefunds = newIds("refund");
      await insertRefunds(processingRefunds, refundedCharge, "processing");

      const payoutKeyId = newId("payoutKey");
      await ctx.db.payoutKey.create({
        data: { id: payoutKeyId, seller_id: sellerId, type: "email", key: "p@example.com", key_masked: "p***" },
      });
      await insertWithdrawals(newIds("withdrawal", SETTLED), payoutKeyId, "completed");
      await ctx.db.$executeRawUnsafe("ANALYZE withdrawals");
      processingWithdrawals = newIds("withdrawal");
      await insertWithdrawals(processingWithdrawals, payoutKeyId, "processing");
    }, 60_000);

    /** A test charge of the store, paid (1990 centavos) through the sandbox, its id. */
    async function insertPaidCharge(): Promise<string> {
      const [id] = newIds("transaction", 1) as [string];
      await insertCharges(storeId, [id], "paid", new Date(Date.now() + 3_600_000));
      await ctx.db.transaction.update({
        where: { id },
        data: { paid_at: new Date(), payment_end_to_end_id: `E${id}`, payment_amount: 1990 },
      });
      return id;
    }

    /**
     * Test-mode refunds `ids` of 100 centavos of `chargeId`, requested once: a settled one carries its return's id, a
     * `processing` one waits for the acquirer to accept it. Its end-to-end id begins with its time, as real ones and
     * our ids do, so that both indexes follow the rows' order and cost the planner the same (with random end-to-end
     * ids, the primary key would look cheaper and hide the plan under test).
     */
    const insertRefunds = (ids: string[], chargeId: string, status: "processing" | "succeeded" | "failed") =>
      ctx.db.$executeRawUnsafe(
        `INSERT INTO refunds
           (id, transaction_id, store_id, seller_id, mode, amount, status, end_to_end_id, submit_attempts)
         SELECT id, $2, $3, $4, 'test', 100, $5::refund_status, CASE WHEN $6 THEN NULL ELSE 'D' || id END, 1
         FROM unnest($1::text[]) AS id`,
        ids,
        chargeId,
        storeId,
        sellerId,
        status,
        status === "processing",
      );

    /** Test-mode withdrawals `ids` of 100 centavos to `payoutKeyId`, requested once, as {@link insertRefunds}. */
    const insertWithdrawals = (ids: string[], payoutKeyId: string, status: "processing" | "completed") =>
      ctx.db.$executeRawUnsafe(
        `INSERT INTO withdrawals (id, seller_id, mode, amount, status, payout_key_id, end_to_end_id, submit_attempts)
         SELECT id, $2, 'test', 100, $3::withdrawal_status, $4, CASE WHEN $5 THEN NULL ELSE 'E' || id END, 1
         FROM unnest($1::text[]) AS id`,
        ids,
        sellerId,
        status,
        payoutKeyId,
        status === "processing",
      );

    test.each([
      ["refunds", () => processingRefunds[100] as string, submitRefund],
      ["withdrawals", () => processingWithdrawals[100] as string, submitWithdrawal],
    ] as const)(
      "when one of 3,000 processing %s is submitted again, then its row only is read: to load, claim and record it",
      async (table, processingId, submit) => {
        const id = processingId();

        let outcome = "";
        const read = await rowsReadBy(measured, table, async () => {
          outcome = await submit(measuredDeps, id);
        });

        expect(outcome).toBe("sent");
        const [row] = await ctx.db.$queryRawUnsafe<
          { status: string; submit_attempts: number; end_to_end_id: unknown }[]
        >(`SELECT status::text, submit_attempts, end_to_end_id FROM ${table} WHERE id = $1`, id);
        expect(row).toEqual({ status: "processing", submit_attempts: 2, end_to_end_id: expect.any(String) });
        // Its load, its claim, and the record of the end-to-end id the acquirer accepted it under.
        expect(read).toBe(3);
      },
    );

    test("when a refund of a charge succeeds while 3,000 others of another charge have succeeded and 3,000 wait, then its charge's refunds only are read", async () => {
      const chargeId = await insertPaidCharge();
      const [id] = newIds("refund", 1) as [string];
      await insertRefunds([id], chargeId, "processing");
      const outcome = {
        refundId: id,
        returnId: `D${id}`,
        amount: 100,
        status: "succeeded",
        reason: null,
        paymentEndToEndId: null,
        nature: null,
      } as const;

      let result = "";
      const read = await rowsReadBy(measured, "refunds", async () => {
        ({ result } = await measuredDeps.repos.transaction((tx) =>
          settleRefund(tx, outcome, sandboxReporter, new Date()),
        ));
      });

      expect(result).toBe("succeeded");
      // Its load, its update, its read for the event, and the sum of its charge's succeeded refunds.
      expect(read).toBe(4);
    });

    test("when one of 3,000 processing withdrawals completes, then its row only is read", async () => {
      const id = processingWithdrawals[200] as string;
      const outcome = {
        withdrawalId: id,
        endToEndId: `E${id}`,
        amount: 100,
        status: "succeeded",
        reason: null,
      } as const;

      let result = "";
      const read = await rowsReadBy(measured, "withdrawals", async () => {
        ({ result } = await measuredDeps.repos.transaction((tx) =>
          settleWithdrawal(tx, outcome, sandboxReporter, new Date()),
        ));
      });

      expect(result).toBe("completed");
      // Its load, its update and its read for the event. (Its update's `status IN ('pending', 'processing')` found it
      // by primary key too, 3 rows read: two status values cost more than one id. Compared as text, it always will.)
      expect(read).toBe(3);
    });
  });
});
