import { createDb, readWebhookEndpointStats, type Db } from "@lm/db";
import { newId } from "@lm/domain";
import { createEndpointRow, createEventRow, createStoreRow } from "@lm/testing";
import { useApiTestContext } from "../support/harness";
import { rowsReadBy } from "../support/rows-read";

/**
 * An endpoint's stats count its finished attempts through a partial index of them (`schema.prisma`): a delivery row
 * enters it once, when its attempt finishes, not also while pending, and the stats still read no row of the table.
 */
describe("the index of finished attempts", () => {
  let measured: Db;
  const ctx = useApiTestContext({}, async ({ config }) => {
    measured = createDb(config.databaseUrl, { maxConnections: 1 });
    return () => measured.$disconnect();
  });
  const FINISHED = 1_500;
  const SUCCEEDED = 1_000;
  const PENDING = 2_000;

  test("when an endpoint has 1,500 finished attempts and 2,000 pending rows, then the index holds the 1,500 and the stats count them without reading a row", async () => {
    const { store } = await createStoreRow(ctx.db, ctx.config.encryptionKey);
    const { endpoint } = await createEndpointRow(ctx.db, ctx.config.encryptionKey, {
      storeId: store.id,
      url: "http://127.0.0.1:9/hooks",
    });
    const event = await createEventRow(ctx.db, { storeId: store.id });
    const insert = (count: number, status: string, attemptedAt: Date | null) =>
      ctx.db.$executeRawUnsafe(
        `INSERT INTO webhook_deliveries
           (id, chain_id, attempt, status, event_id, event_type, store_id, destination_type, endpoint_id, url,
            scheduled_at, attempted_at)
         SELECT id, id, 1, $7::delivery_status, $2, $3, $4, 'endpoint', $5, $6, now(), $8 FROM unnest($1::text[]) AS id`,
        Array.from({ length: count }, () => newId("delivery")),
        event.id,
        event.type,
        store.id,
        endpoint.id,
        endpoint.url,
        status,
        attemptedAt,
      );
    const attemptedAt = new Date();
    await insert(SUCCEEDED, "succeeded", attemptedAt);
    await insert(FINISHED - SUCCEEDED, "failed", attemptedAt);
    await insert(PENDING, "pending", null);
    // The visibility map, which lets an index-only scan skip the rows, and the index's entry count.
    await ctx.db.$executeRawUnsafe("VACUUM ANALYZE webhook_deliveries");

    const [index] = await ctx.db.$queryRawUnsafe<Array<{ entries: number }>>(
      `SELECT sum(c.reltuples)::int AS entries FROM pg_partition_tree('webhook_deliveries_finished_attempts_idx') p
       JOIN pg_class c ON c.oid = p.relid WHERE p.isleaf`,
    );
    let stats: Awaited<ReturnType<typeof readWebhookEndpointStats>> | undefined;
    const read = await rowsReadBy(measured, "webhook_deliveries", async () => {
      stats = await readWebhookEndpointStats(measured.pool, endpoint.id, new Date(Date.now() - 60_000), "ping");
    });

    expect(index?.entries).toBe(FINISHED);
    expect(stats).toEqual(expect.objectContaining({ finished: FINISHED, succeeded: SUCCEEDED }));
    expect(read).toBe(0);
  });
});
