import { expireCharges, settlePaymentRows, type EventsToWrite } from "@lm/db";
import { ALL_EVENT_TYPES, newId } from "@lm/domain";
import { createTestMerchant, waitUntil } from "@lm/testing";
import { useApiTestContext } from "../support/harness";
import { chargeBody, merchantClient } from "../support/merchant-client";
import { holdInTransaction, lockWaiters } from "../support/row-locks";

/**
 * Two batch statements over the same charges (two settlements of one notification received twice, a settlement and
 * the expiry sweep) must lock them in one order, whatever order each was given them in; otherwise each holds a charge
 * the other waits for and PostgreSQL ends one with `deadlock detected`. The race is made certain: with a table of
 * production's size the planner looks a batch's charges up one by one in the batch's order, and the test holds the
 * middle charge's lock until both batches wait for it.
 */
describe("batch statements over the same charges lock them in one order", () => {
  const ctx = useApiTestContext();
  const noEvents: EventsToWrite = { events: [], deliveryIds: [], everyType: ALL_EVENT_TYPES };

  beforeAll(async () => {
    const filler = await createTestMerchant(ctx.db);
    await ctx.db.$executeRaw`
      INSERT INTO transactions (id, store_id, mode, status, amount, txid, br_code, qr_code_png_base64, expires_in,
        expires_at, updated_at)
      SELECT 'txn_filler' || g, ${filler.storeId}, 'test', 'canceled', 100, 'filler' || g, '', '', 60, now(), now()
      FROM generate_series(1, 20000) AS g`;
    await ctx.db.$executeRaw`ANALYZE transactions`;
  }, 60_000);

  /** Ten pending charges of a fresh store, in creation (and id) order. */
  async function pendingCharges() {
    const merchant = await createTestMerchant(ctx.db);
    const client = merchantClient(ctx.app, merchant.testKey);
    const charges: Array<{ id: string; amount: number }> = [];
    for (let i = 0; i < 10; i++) {
      charges.push((await client.post("/v1/transactions", chargeBody({ amount: 900 + i })).expect(201)).body);
    }
    return { merchant, client, ids: charges.map(({ id }) => id).sort(), charges };
  }

  /**
   * Runs `batch` over `ids` ascending and over `ids` descending at once while the middle charge is locked, and lets
   * it go once both wait.
   * @returns the ids both batches changed, as `changed` reads them from each result
   * @throws what a batch threw (PostgreSQL's `deadlock detected`)
   */
  async function raceInOppositeOrders<T>(
    ids: string[],
    batch: (ids: string[]) => Promise<T>,
    changed: (result: T) => string[],
  ): Promise<string[]> {
    const middle = ids[5];
    const held = await holdInTransaction(
      ctx.db,
      (tx) => tx.$queryRaw`SELECT 1 FROM transactions WHERE id = ${middle} FOR UPDATE`,
    );
    const batches = Promise.allSettled([batch(ids), batch([...ids].reverse())]);
    await waitUntil("both batches wait for the middle charge", async () => (await lockWaiters(ctx.db)) === 2);
    await held.release();
    return (await batches).flatMap((outcome) => {
      if (outcome.status === "rejected") throw outcome.reason;
      return changed(outcome.value);
    });
  }

  test("when two settlements name the same charges in opposite orders, then neither deadlocks and each charge is paid once", async () => {
    const { client, ids, charges } = await pendingCharges();
    const amountOf = new Map(charges.map((charge) => [charge.id, charge.amount]));
    const now = new Date();
    const settle = (order: string[]) =>
      settlePaymentRows(ctx.db.pool, {
        payments: order.map((id) => ({
          charge: {
            id,
            paid_at: now,
            payment_end_to_end_id: `E00000000${id.slice(-23)}`,
            payment_amount: amountOf.get(id) as number,
            payer_name: "Pagador",
            payer_document: null,
            payer_document_masked: null,
            payment_components: null,
          },
          balanceTransactionId: newId("balanceTransaction", now.getTime()),
          inboxItemId: newId("inboxItem", now.getTime()),
          inboxNote: null,
        })),
        now,
        events: noEvents,
      });

    const paid = await raceInOppositeOrders(ids, settle, (result) => result.paidIds);

    expect(paid.sort()).toEqual(ids);
    const total = charges.reduce((sum, charge) => sum + charge.amount, 0);
    expect((await client.get("/v1/balance").expect(200)).body.available).toBe(total);
  });

  test("when two expiry batches name the same charges in opposite orders, then neither deadlocks and each charge expires once", async () => {
    const { client, ids } = await pendingCharges();
    const afterTheirDeadline = new Date(Date.now() + 2 * 24 * 3600 * 1000);
    const expire = (order: string[]) =>
      expireCharges(ctx.db.pool, { ids: order, now: afterTheirDeadline, events: noEvents });

    const expired = await raceInOppositeOrders(ids, expire, (result) => result.expiredIds);

    expect(expired.sort()).toEqual(ids);
    for (const id of ids) expect((await client.get(`/v1/transactions/${id}`).expect(200)).body.status).toBe("expired");
  });
});
