import { createDb, createRepositories, listHistoryPartitions, type Db } from "@lm/db";
import { boundTime, newId, WEEK_MS, WEEKS_AHEAD, weekStart } from "@lm/domain";
import {
  createTestDatabase,
  createTestMerchant,
  createTransactionRow,
  testConfig,
  type TestDatabase,
} from "@lm/testing";
import { runOps } from "../src/run";

const DAY_MS = 86_400_000;

describe('ops retention:run (DESIGN §10 "Retention")', () => {
  let database: TestDatabase;
  let db: Db;
  let storeId: string;
  let sellerId: string;
  let acquirerId: string;
  let userId: string;
  const ops = (now: Date, ...argv: string[]) =>
    runOps(argv, {
      config: testConfig(database.url, { RETENTION_DAYS: "90" }),
      repos: createRepositories(db),
      now: () => now,
    });

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb(database.url, { maxConnections: 2 });
    ({ storeId, sellerId } = await createTestMerchant(db));
    acquirerId = newId("acquirer");
    await db.$executeRaw`INSERT INTO acquirers (id, slug, secret_ciphertext, updated_at)
      VALUES (${acquirerId}, ${acquirerId}, 'x', now())`;
    const [user] = await db.$queryRaw<Array<{ id: string }>>`INSERT INTO users (id, email, name, role, updated_at)
      VALUES (gen_random_uuid(), ${`${acquirerId}@example.com`}, 'Ana', 'owner', now()) RETURNING id::text`;
    userId = user!.id;
  });
  afterAll(async () => {
    await db.$disconnect();
    await database.drop();
  });

  /** An event, one delivery of it and an inbox item, with ids (and so weeks) of instant `at`. */
  async function historyAt(at: Date) {
    const eventId = newId("event", at.getTime());
    await db.$executeRaw`INSERT INTO events (id, store_id, mode, type, data, created_at)
      VALUES (${eventId}, ${storeId}, 'test', 'transaction.paid', '{}', ${at})`;
    const deliveryId = newId("delivery", at.getTime());
    await db.$executeRaw`INSERT INTO webhook_deliveries (id, chain_id, attempt, status, event_id, event_type, store_id,
        destination_type, url, scheduled_at, created_at)
      VALUES (${deliveryId}, ${deliveryId}, 1, 'succeeded', ${eventId}, 'transaction.paid', ${storeId}, 'endpoint',
        'https://hooks.example.com', ${at}, ${at})`;
    const inboxId = newId("inboxItem", at.getTime());
    await db.$executeRaw`INSERT INTO inbox_items (id, acquirer_id, provider_event_id, signature_valid, raw_body, headers,
        received_at)
      VALUES (${inboxId}, ${acquirerId}, ${inboxId}, true, '\\x7b7d', '{}', ${at})`;
    return { eventId, deliveryId, inboxId };
  }

  /** A session and an idempotency key that ended at `endedAt`. */
  async function endedAt(endedAt: Date) {
    await db.$executeRaw`INSERT INTO sessions (id, token_hash, user_id, persistent, last_seen_at, expires_at,
        absolute_expires_at)
      VALUES (gen_random_uuid(), ${newId("request")}, ${userId}::uuid, false, ${endedAt}, ${endedAt}, ${endedAt})`;
    await db.$executeRaw`INSERT INTO idempotency_keys (id, store_id, mode, key, request_hash, created_at, expires_at)
      VALUES (${newId("request")}, ${storeId}, 'test', ${newId("request")}, 'h', ${endedAt}, ${endedAt})`;
  }

  /** Rows of the financial tables, which retention never touches. */
  async function financialCounts() {
    const [counts] = await db.$queryRaw<Array<Record<string, number>>>`SELECT
      (SELECT count(*)::int FROM transactions) AS transactions,
      (SELECT count(*)::int FROM balance_transactions) AS balance_transactions,
      (SELECT count(*)::int FROM refunds) AS refunds,
      (SELECT count(*)::int FROM withdrawals) AS withdrawals`;
    return counts;
  }

  test("when the history is older than RETENTION_DAYS, then its weeks are dropped, the rows counted in --json, weeks made ahead, and financial rows kept", async () => {
    const now = new Date();
    const later = new Date(now.getTime() + 140 * DAY_MS);
    const old = [await historyAt(new Date(now.getTime() - DAY_MS)), await historyAt(now)];
    await endedAt(new Date(now.getTime() - DAY_MS));
    const charge = await createTransactionRow(db, { storeId, postbackUrl: null });
    await db.$executeRaw`INSERT INTO balance_transactions (id, seller_id, mode, type, amount, source_id)
      VALUES (${newId("balanceTransaction")}, ${sellerId}, 'test', 'payment', 1990, ${charge.id})`;
    const financial = await financialCounts();
    // Every history row so far is old: these two and the merchant's own events.
    const history = async () => ({
      events: await db.event.count(),
      webhook_deliveries: await db.webhookDelivery.count(),
      inbox_items: await db.inboxItem.count(),
    });
    const before = await history();

    const out = await ops(later, "retention:run", "--json");

    expect(out.exitCode).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({
      removed: {
        ...before,
        idempotency_keys: 1,
        sessions: 1,
        two_factor_challenges: 0,
        mailed_tokens: 0,
        trusted_devices: 0,
      },
    });
    expect(before.events).toBeGreaterThanOrEqual(old.length);
    expect(await history()).toEqual({ events: 0, webhook_deliveries: 0, inbox_items: 0 });
    expect(await financialCounts()).toEqual(financial);
    const keptSince = later.getTime() - 90 * DAY_MS;
    for (const table of ["events", "webhook_deliveries", "inbox_items"] as const) {
      const partitions = await listHistoryPartitions(db.pool, table);
      const ends = partitions.map(({ to }) => boundTime(to!));
      expect(Math.max(...ends)).toBe(weekStart(later.getTime()) + (WEEKS_AHEAD + 1) * WEEK_MS);
      expect(partitions.every(({ from }) => from !== null)).toBe(true);
      // Events keep their week one retry chain longer; nothing ending more than a week before the cutoff is left.
      expect(Math.min(...ends)).toBeGreaterThan(keptSince - WEEK_MS);
    }
  });

  test("when history is younger than RETENTION_DAYS, then a run removes nothing and the rows stay, and the text names every table", async () => {
    const later = new Date(Date.now() + 140 * DAY_MS);
    const young = await historyAt(new Date(later.getTime() - 89 * DAY_MS));
    await endedAt(new Date(later.getTime() - 29 * DAY_MS));

    const out = await ops(later, "retention:run");

    expect(out.exitCode).toBe(0);
    expect(out.stdout).toMatch(/^events: 0 rows removed$/m);
    expect(out.stdout).toMatch(/^sessions: 0 rows removed$/m);
    expect(out.stdout).toMatch(/^idempotency_keys: 1 rows removed$/m);
    expect(await db.event.count({ where: { id: young.eventId } })).toBe(1);
    expect(await db.webhookDelivery.count({ where: { id: young.deliveryId } })).toBe(1);
    expect(await db.inboxItem.count({ where: { id: young.inboxId } })).toBe(1);
  });

  test("when two runs need the same new weeks at once, then both succeed and each week is made once", async () => {
    const muchLater = new Date(Date.now() + 200 * DAY_MS);

    const [first, second] = await Promise.all([
      ops(muchLater, "retention:run", "--json"),
      ops(muchLater, "retention:run", "--json"),
    ]);

    expect([first.exitCode, second.exitCode]).toEqual([0, 0]);
    const partitions = await listHistoryPartitions(db.pool, "events");
    expect(new Set(partitions.map((p) => p.from)).size).toBe(partitions.length);
    const ends = partitions.map(({ to }) => boundTime(to!));
    expect(Math.max(...ends)).toBe(weekStart(muchLater.getTime()) + (WEEKS_AHEAD + 1) * WEEK_MS);
  }, 30_000);
});
