import {
  createDb,
  findDeliveryRoutes,
  findProcessableInboxItems,
  loadPendingDeliveries,
  findProcessableInboxItemIds,
  listRecoveryPage,
  storeInboxItems,
  writeDeliveryAttempts,
  type Db,
} from "@lm/db";
import { applyRetention, newId, WEEK_MS } from "@lm/domain";
import { createEndpointRow, createEventRow, createStoreRow } from "@lm/testing";
import { useApiTestContext } from "../support/harness";
import { rowsReadBy, withoutAutovacuum } from "../support/rows-read";

/**
 * `inbox_items`, `events` and `webhook_deliveries` are partitioned by week, and a week's partition is made ahead,
 * empty (DESIGN §10 "Retention"). A lookup in them that PostgreSQL ran on a generic plan cached while the week's
 * partition was empty read that partition with a sequential scan for the rest of the connection's life, every row of
 * it on every call, while the week filled it. The file builds that situation on a fresh database: each statement runs
 * ten times (past the five calls after which PostgreSQL may cache a generic plan) while the partition holds a few
 * rows, then the partition gains 5,000 rows that no `ANALYZE` sees; the next call must read only the rows it names
 * (PostgreSQL's own counters, on a connection of its own). The fan-out's route read and a recovery's page read every
 * row of the week on their cached plans, hence `plannedOnEachCall`; the inbox item's insert did too, until its
 * duplicate check became a database function whose kept plan never scans a partition sequentially; the other lookups
 * tested here (a settlement's load of its items, the inbox sweep, an attempt's load of its rows and the write of its
 * outcome) hold on theirs.
 */
describe("lookups in a week's partition filled after they first ran", () => {
  let measured: Db;
  const ctx = useApiTestContext({}, async ({ config }) => {
    measured = createDb(config.databaseUrl, { maxConnections: 1 });
    return () => measured.$disconnect();
  });
  const GROWTH = 5_000;
  const FIRST_CALLS = 10;

  beforeAll(async () => {
    // The weeks ahead, made as the worker's retention job makes them (the tests below fill up to three of them).
    await applyRetention(ctx.deps, new Date());
    // Autovacuum's `ANALYZE` of a partition would make a new plan and hide the one under test.
    await withoutAutovacuum(ctx.db, "inbox_items", "webhook_deliveries", "events");
  });

  /**
   * `count` inbox items of `acquirerId` (payments received) made at `at`, processed at `processedAt` or still to
   * process, their ids.
   */
  async function insertInboxItems(
    acquirerId: string,
    count: number,
    at = Date.now(),
    processedAt: Date | null = null,
  ): Promise<string[]> {
    const ids = Array.from({ length: count }, () => newId("inboxItem", at));
    await ctx.db.$executeRawUnsafe(
      `INSERT INTO inbox_items (id, acquirer_id, provider_event_id, event_type, signature_valid, raw_body, headers,
                                received_at, end_to_end_id, processed_at)
       SELECT id, $2, id, 'pix', true, '\\x7b7d', '{}', now(), id, $3 FROM unnest($1::text[]) AS id`,
      ids,
      acquirerId,
      processedAt,
    );
    return ids;
  }

  const createAcquirer = (slug: string) =>
    ctx.db.acquirer.create({ data: { id: newId("acquirer"), slug, secret_ciphertext: "secret" } });

  test("when a notification is stored after the week's inbox grew by 5,000 items, then its duplicate check reads no item", async () => {
    const acquirer = await createAcquirer("week-partition-plans");
    const store = (providerEventId: string) =>
      storeInboxItems(measured.pool, {
        acquirer: { id: acquirer.id, secretCiphertext: "secret" },
        signatureValid: true,
        rawBody: Buffer.from("{}"),
        headers: {},
        receivedAt: new Date(),
        duplicateError: "duplicate",
        items: [{ id: newId("inboxItem"), providerEventId, eventType: "pix", endToEndId: null, error: null }],
      });
    for (let i = 0; i < FIRST_CALLS; i++) await store(`E${i}`);
    await insertInboxItems(acquirer.id, GROWTH, Date.now(), new Date());

    let stored: Array<{ error: string | null }> = [];
    const read = await rowsReadBy(measured, "inbox_items", async () => {
      stored = await store("E-new");
    });
    const repeated = await store("E-new");

    expect(stored).toEqual([expect.objectContaining({ error: null })]);
    expect(repeated).toEqual([expect.objectContaining({ error: "duplicate" })]);
    expect(read).toBe(0);
  });

  test("when 5 items are loaded for settlement after the week's inbox grew by 5,000 items, then 5 items are read", async () => {
    const acquirer = await createAcquirer("week-partition-plans-settlement");
    // A week of its own, ahead: the test above filled this one.
    const nextWeek = Date.now() + WEEK_MS;
    const first = await insertInboxItems(acquirer.id, 5, nextWeek);
    for (let i = 0; i < FIRST_CALLS; i++) await findProcessableInboxItems(measured.pool, first);
    await insertInboxItems(acquirer.id, GROWTH, nextWeek, new Date());
    const ids = await insertInboxItems(acquirer.id, 5, nextWeek);

    let found = 0;
    const read = await rowsReadBy(measured, "inbox_items", async () => {
      found = (await findProcessableInboxItems(measured.pool, ids)).length;
    });

    expect(found).toBe(5);
    expect(read).toBe(5);
  });

  test("when the inbox sweep runs after the week's inbox grew by 5,000 processed items, then it reads the 5 to process", async () => {
    const acquirer = await createAcquirer("week-partition-plans-sweep");
    // A week of its own, ahead of the two above.
    const inTwoWeeks = Date.now() + 2 * WEEK_MS;
    await insertInboxItems(acquirer.id, 5, inTwoWeeks, new Date());
    const sweep = () => findProcessableInboxItemIds(measured.pool, 100);
    for (let i = 0; i < FIRST_CALLS; i++) await sweep();
    await insertInboxItems(acquirer.id, GROWTH, inTwoWeeks, new Date());
    const toProcess = await insertInboxItems(acquirer.id, 5, inTwoWeeks);

    let found: string[] = [];
    const read = await rowsReadBy(measured, "inbox_items", async () => {
      found = await sweep();
    });

    // The items still to process (those of the tests above too), and no processed one.
    expect(found).toEqual(expect.arrayContaining(toProcess));
    expect(found.length).toBeLessThan(100);
    expect(read).toBeLessThanOrEqual(found.length);
  });

  /** Weeks ahead whose partitions (made ahead, empty) the delivery tests fill, one each. */
  let weeksAhead = 0;

  /**
   * A store's endpoint and event, and `insert(count)`: that many pending deliveries of the event, their ids, in a week
   * ahead that no other test writes to.
   */
  async function deliveriesInAWeekOfTheirOwn() {
    weeksAhead += 1;
    const createdAt = Date.now() + weeksAhead * WEEK_MS;
    const { store } = await createStoreRow(ctx.db, ctx.config.encryptionKey);
    const { endpoint } = await createEndpointRow(ctx.db, ctx.config.encryptionKey, {
      storeId: store.id,
      url: "http://127.0.0.1:9/hooks",
    });
    const event = await createEventRow(ctx.db, { storeId: store.id });
    const insert = (count: number) => {
      const ids = Array.from({ length: count }, () => newId("delivery", createdAt));
      return ctx.db
        .$executeRawUnsafe(
          `INSERT INTO webhook_deliveries
             (id, chain_id, attempt, status, event_id, event_type, store_id, destination_type, endpoint_id, url,
              scheduled_at)
           SELECT id, id, 1, 'pending', $2, $3, $4, 'endpoint', $5, $6, now() FROM unnest($1::text[]) AS id`,
          ids,
          event.id,
          event.type,
          store.id,
          endpoint.id,
          endpoint.url,
        )
        .then(() => ids);
    };
    return { insert };
  }

  /**
   * The rows of `table` that `statement` reads for 5 deliveries once the week's deliveries grew by {@link GROWTH}, after
   * it ran {@link FIRST_CALLS} times on 5 others.
   */
  async function rowsReadAfterGrowth(table: string, statement: (ids: string[]) => Promise<number>): Promise<number> {
    const { insert } = await deliveriesInAWeekOfTheirOwn();
    const first = await insert(5);
    for (let i = 0; i < FIRST_CALLS; i++) await statement(first);
    await insert(GROWTH);
    const ids = await insert(5);

    let found = 0;
    const read = await rowsReadBy(measured, table, async () => {
      found = await statement(ids);
    });
    expect(found).toBe(5);
    return read;
  }

  test("when a fan-out's 5 rows are routed after the week's deliveries grew by 5,000 rows, then 5 rows are read", async () => {
    const read = await rowsReadAfterGrowth(
      "webhook_deliveries",
      async (ids) => (await findDeliveryRoutes(measured.pool, ids)).length,
    );

    expect(read).toBe(5);
  });

  test("when a fan-out's 5 rows are loaded for their attempts after the week's deliveries grew by 5,000 rows, then 5 rows are read", async () => {
    const read = await rowsReadAfterGrowth(
      "webhook_deliveries",
      async (ids) => (await loadPendingDeliveries(measured.pool, ids)).size,
    );

    expect(read).toBe(5);
  });

  test("when 5 attempts are written after the week's deliveries grew by 5,000 rows, then 5 rows are read", async () => {
    const attempt = (id: string) => ({
      id,
      status: "failed" as const,
      url: "http://127.0.0.1:9/hooks",
      error: "connection_error",
      responseStatus: null,
      responseBodyExcerpt: null,
      durationMs: 1,
      attemptedAt: new Date(),
      nextAttemptAt: null,
    });
    const read = await rowsReadAfterGrowth(
      "webhook_deliveries",
      async (ids) => (await writeDeliveryAttempts(measured.pool, ids.map(attempt))).size,
    );

    expect(read).toBe(5);
  });

  test("when a recovery reads a page after the week's events grew by 5,000 of another store, then it reads its 5 events", async () => {
    const { store } = await createStoreRow(ctx.db, ctx.config.encryptionKey);
    const { endpoint } = await createEndpointRow(ctx.db, ctx.config.encryptionKey, {
      storeId: store.id,
      url: "http://127.0.0.1:9/hooks",
    });
    const { store: other } = await createStoreRow(ctx.db, ctx.config.encryptionKey);
    const insertEvents = (storeId: string, count: number) =>
      ctx.db.$executeRawUnsafe(
        `INSERT INTO events (id, store_id, mode, type, data, created_at)
         SELECT id, $2, 'test', 'transaction.paid', '{}', now() FROM unnest($1::text[]) AS id`,
        Array.from({ length: count }, () => newId("event")),
        storeId,
      );
    const since = new Date(Date.now() - 3_600_000);
    const page = () =>
      listRecoveryPage(measured.pool, {
        endpointId: endpoint.id,
        storeId: store.id,
        mode: "test",
        since,
        until: new Date(Date.now() + 3_600_000),
        types: null,
        excludedType: "ping",
        deliveriesFrom: newId("delivery", since.getTime()),
        after: null,
        limit: 100,
      });
    await insertEvents(store.id, 5);
    for (let i = 0; i < FIRST_CALLS; i++) await page();
    await insertEvents(other.id, GROWTH);

    let missed = 0;
    const read = await rowsReadBy(measured, "events", async () => {
      missed = (await page()).filter((event) => event.missed).length;
    });

    expect(missed).toBe(5);
    expect(read).toBe(5);
  });
});
