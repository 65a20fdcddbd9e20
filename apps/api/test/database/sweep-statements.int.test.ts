import type { Pool } from "pg";
import {
  findDueCharges,
  findDueRecurrenceIds,
  findOrderedHead,
  findProcessableInboxItemIds,
  forEachDueDeliveryPage,
  listOrderedHeads,
  listRecentBalanceReconciliation,
  listRecoveryPage,
  listRunningWebhookRecoveryIds,
  type DbClient,
} from "@lm/db";
import { idFloor, LEDGER_SETTLE_MS, newId } from "@lm/domain";
import { createEndpointRow, createStoreRow, insertDueSweepRows, insertSweepHistory } from "@lm/testing";
import { useApiTestContext } from "../support/harness";

jest.setTimeout(120_000);

/** One node of a JSON plan of `EXPLAIN (ANALYZE, FORMAT JSON)`. */
interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
}

/** What a statement read of one table: its rows (returned by its scans, or read and filtered out) and its indexes. */
interface TableReads {
  rows: number;
  /** The indexes scanned, by the name they have on the table itself (a partition's index by its parent's). */
  indexes: Set<string>;
  /** Whether any scan read the table without an index. */
  seqScan: boolean;
}

/**
 * DESIGN §10 "Sweeps": each sweep's statements read only due rows, through the index built for them, whatever the
 * history. The file writes a history of 20,000 rows per swept table that no sweep must read (analysed, so the planner
 * knows it), then 30 due rows, and runs each sweep's statements under `EXPLAIN (ANALYZE, FORMAT JSON)`: the rows its
 * scans of each table returned or filtered out must be about the due rows, never the history, and the scans must go
 * through the sweep's index. Partitioned tables are read partition by partition; their indexes count by their
 * parent's name, and a scan of an empty partition (a week ahead) is no read.
 */
describe("the sweeps read their due rows through their indexes, whatever the history", () => {
  const ctx = useApiTestContext();
  const HISTORY = 20_000;
  const DUE = 30;
  /** Rows a scan may read beyond the due ones: a page's boundary, a partition's first index tuple. */
  const SLACK = 10;
  const now = new Date();
  const scope = { storeId: "sto_sweeps", sellerId: "sel_sweeps", endpointId: "we_sweeps", acquirerId: "acq_sweeps" };
  let parents: Map<string, string>;

  beforeAll(async () => {
    await insertSweepHistory(ctx.db.pool, scope, HISTORY, now);
    // The drift check's first tick sums the history once and keeps it in the balance's checkpoint.
    await listRecentBalanceReconciliation(ctx.db, {
      since: new Date(0),
      settledBelow: settledBelow(),
      maxSettledEntries: HISTORY,
      now,
    });
    await insertDueSweepRows(ctx.db.pool, scope, DUE, now);
    const { rows } = await ctx.db.pool.query<{ child: string; parent: string }>(
      `SELECT c.relname AS child, p.relname AS parent FROM pg_inherits i
       JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent WHERE c.relkind = 'i'`,
    );
    parents = new Map(rows.map(({ child, parent }) => [child, parent]));
  });

  const settledBelow = () => idFloor("balanceTransaction", now.getTime() - LEDGER_SETTLE_MS);

  /**
   * A client that runs each statement given to it under EXPLAIN ANALYZE and keeps the plans (it returns no rows); a
   * connection taken from it does the same with a cursor's query, and fetches nothing.
   */
  function explaining(plans: PlanNode[]): Pool & DbClient {
    const explain = async (text: string, values: unknown[] = []) => {
      const { rows } = await ctx.db.pool.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values);
      plans.push((rows[0] as { "QUERY PLAN": Array<{ Plan: PlanNode }> })["QUERY PLAN"][0]!.Plan);
    };
    // A connection of its own: the cursor's transaction and its settings apply to the explained query.
    const connect = async () => {
      const client = await ctx.db.pool.connect();
      return {
        query: async (text: string) => {
          const cursor = /^DECLARE \w+ NO SCROLL CURSOR FOR([\s\S]*)$/.exec(text.trim());
          if (text.startsWith("FETCH")) return { fields: [], rows: [] };
          if (!cursor) return client.query(text);
          const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${cursor[1]!}`);
          plans.push((rows[0] as { "QUERY PLAN": Array<{ Plan: PlanNode }> })["QUERY PLAN"][0]!.Plan);
          return { fields: [], rows: [] };
        },
        release: () => client.release(),
      };
    };
    return {
      query: async (config: { text: string; values: unknown[] }) => {
        await explain(config.text, config.values);
        return { fields: [], rows: [] };
      },
      connect,
      $queryRawUnsafe: async (text: string, ...values: unknown[]) => {
        await explain(text, values);
        return [];
      },
    } as unknown as Pool & DbClient;
  }

  /** What the plans read of `table` (its partitions included). */
  function reads(plans: PlanNode[], table: string): TableReads {
    const found: TableReads = { rows: 0, indexes: new Set(), seqScan: false };
    const visit = (node: PlanNode) => {
      const relation = node["Relation Name"];
      if (relation !== undefined && (relation === table || relation.startsWith(`${table}_`))) {
        const removed = (node["Rows Removed by Filter"] ?? 0) + (node["Rows Removed by Index Recheck"] ?? 0);
        const rows = (node["Actual Rows"] + removed) * node["Actual Loops"];
        found.rows += rows;
        // An empty partition (a week ahead) is read through whatever the planner finds cheapest, and nothing is read:
        // only the scans that read rows count.
        const index = node["Index Name"];
        if (index !== undefined && rows > 0) found.indexes.add(parents.get(index) ?? index);
        if (node["Node Type"] === "Seq Scan" && rows > 0) found.seqScan = true;
      }
      // A bitmap scan names its index on a child node without the relation.
      const bitmapIndex = node["Node Type"] === "Bitmap Index Scan" ? node["Index Name"] : undefined;
      const bitmapParent = bitmapIndex === undefined ? undefined : (parents.get(bitmapIndex) ?? bitmapIndex);
      if (bitmapParent?.startsWith(`${table}_`)) found.indexes.add(bitmapParent);
      for (const child of node.Plans ?? []) visit(child);
    };
    for (const plan of plans) visit(plan);
    return found;
  }

  test("when 10,000 pending deliveries wait for a retry a day away and 30 are due, then the sweep's cursor reads the 30 through the pending-due index", async () => {
    const plans: PlanNode[] = [];

    await forEachDueDeliveryPage(explaining(plans), now, 1000, async () => undefined);

    const read = reads(plans, "webhook_deliveries");
    expect(read.seqScan).toBe(false);
    expect(read.indexes).toEqual(new Set(["webhook_deliveries_unordered_due_idx"]));
    expect(read.rows).toBeGreaterThanOrEqual(DUE);
    expect(read.rows).toBeLessThanOrEqual(DUE + SLACK);
  });

  test("when the inbox holds 20,000 processed, duplicate and badly signed items and 30 to process, then the sweep reads the 30 through the processable index", async () => {
    const plans: PlanNode[] = [];

    await findProcessableInboxItemIds(explaining(plans), 1000);

    const read = reads(plans, "inbox_items");
    expect(read.seqScan).toBe(false);
    expect(read.indexes).toEqual(new Set(["inbox_items_processable_id_idx"]));
    expect(read.rows).toBeGreaterThanOrEqual(DUE);
    expect(read.rows).toBeLessThanOrEqual(DUE + SLACK);
  });

  test("when a seller's ledger holds 20,000 entries below its checkpoint and 30 after it, then the drift check reads the 30 entries, the balances changed recently and the open refunds only", async () => {
    const plans: PlanNode[] = [];

    await listRecentBalanceReconciliation(explaining(plans), {
      since: new Date(now.getTime() - 600_000),
      settledBelow: settledBelow(),
      maxSettledEntries: HISTORY,
      now,
    });

    const entries = reads(plans, "balance_transactions");
    expect(entries.seqScan).toBe(false);
    expect(entries.indexes).toEqual(new Set(["balance_transactions_seller_id_mode_id_idx"]));
    expect(entries.rows).toBeLessThanOrEqual(DUE + SLACK);
    const balances = reads(plans, "balances");
    expect(balances.seqScan).toBe(false);
    // The one balance changed in the window, not the 2,000 older ones.
    expect(balances.rows).toBeLessThanOrEqual(1 + SLACK);
    const refunds = reads(plans, "refunds");
    expect(refunds.seqScan).toBe(false);
    expect(refunds.indexes).toEqual(new Set(["refunds_open_seller_idx"]));
    expect(refunds.rows).toBeLessThanOrEqual(DUE / 2 + SLACK);
  });

  test("when 10,000 charges expired long ago and 10,000 are due tomorrow, then the expiry sweep's batch reads the 30 due ones", async () => {
    const plans: PlanNode[] = [];

    await findDueCharges(explaining(plans), now, 200);

    const read = reads(plans, "transactions");
    expect(read.seqScan).toBe(false);
    expect(read.indexes).toEqual(new Set(["transactions_status_expires_at_idx"]));
    expect(read.rows).toBeGreaterThanOrEqual(DUE);
    expect(read.rows).toBeLessThanOrEqual(DUE + SLACK);
  });

  test("when 2,000 recoveries are complete and 2 run, then the reconciler reads the 2 through the running index", async () => {
    const { store } = await createStoreRow(ctx.db, ctx.config.encryptionKey);
    const { endpoint } = await createEndpointRow(ctx.db, ctx.config.encryptionKey, {
      storeId: store.id,
      url: "http://127.0.0.1:9/r",
    });
    const recovery = (completed: boolean) => ({
      id: newId("webhookRecovery"),
      endpoint_id: endpoint.id,
      since: now,
      until: now,
      event_types: [],
      max_events: 1,
      created_at: new Date(now.getTime() - 3_600_000),
      completed_at: completed ? now : null,
    });
    await ctx.db.webhookRecovery.createMany({ data: Array.from({ length: 2_000 }, () => recovery(true)) });
    await ctx.db.webhookRecovery.createMany({ data: [recovery(false), recovery(false)] });
    await ctx.db.pool.query("ANALYZE webhook_recoveries");
    const plans: PlanNode[] = [];

    await listRunningWebhookRecoveryIds(explaining(plans), now, 100);

    const read = reads(plans, "webhook_recoveries");
    expect(read.seqScan).toBe(false);
    expect(read.indexes).toEqual(new Set(["webhook_recoveries_running_idx"]));
    expect(read.rows).toBe(2);
  });

  test("when 20,000 recurrences wait a day or ended and 30 are due, then the recurrence engine's sweep reads the 30 through the due index", async () => {
    const plans: PlanNode[] = [];

    await findDueRecurrenceIds(explaining(plans), now, 100);

    const read = reads(plans, "recurrences");
    expect(read.seqScan).toBe(false);
    expect(read.indexes).toEqual(new Set(["recurrences_due_idx"]));
    expect(read.rows).toBeGreaterThanOrEqual(DUE);
    expect(read.rows).toBeLessThanOrEqual(DUE + SLACK);
  });

  test("when a recovery's window holds 20,000 events, then a page from the middle reads its own 500 events and their deliveries only", async () => {
    const { store } = await createStoreRow(ctx.db, ctx.config.encryptionKey);
    const storeId = store.id;
    const start = now.getTime() - 3_600_000;
    await ctx.db.pool.query(
      `INSERT INTO events (id, store_id, mode, type, data, created_at)
       SELECT $3 || lpad(g::text, 12, '0'), $1, 'test', 'transaction.paid', '{}', $2::timestamptz + g * interval '1 ms'
       FROM generate_series(1, 20000) g`,
      [storeId, new Date(start), `${idFloor("event", start).slice(0, 18)}`],
    );
    await ctx.db.pool.query("ANALYZE events");
    const [middle] = (
      await ctx.db.pool.query<{ id: string; created_at: Date }>(
        "SELECT id, created_at FROM events WHERE store_id = $1 ORDER BY created_at, id OFFSET 10000 LIMIT 1",
        [storeId],
      )
    ).rows;
    const plans: PlanNode[] = [];

    await listRecoveryPage(explaining(plans), {
      endpointId: "we_recovery_window",
      storeId,
      mode: "test",
      since: new Date(start),
      until: now,
      types: null,
      excludedType: "webhook_endpoint.ping",
      deliveriesFrom: idFloor("delivery", start - 3_600_000),
      after: { createdAt: middle!.created_at, eventId: middle!.id },
      limit: 500,
    });

    const read = reads(plans, "events");
    expect(read.seqScan).toBe(false);
    expect(read.rows).toBeLessThanOrEqual(500 + SLACK);
    // The page's deliveries to the endpoint (none), never the 20,000 of the history.
    const deliveries = reads(plans, "webhook_deliveries");
    expect(deliveries.seqScan).toBe(false);
    expect(deliveries.rows).toBeLessThanOrEqual(SLACK);
  });

  test("when 3 endpoints each hold 300 ordered deliveries beside the history, then the ordered sweep reads each endpoint's head through the ordered index, and one endpoint's head is one look-up", async () => {
    const endpoints = ["we_ordered_1", "we_ordered_2", "we_ordered_3"];
    const { store } = await createStoreRow(ctx.db, ctx.config.encryptionKey);
    for (const [e, id] of endpoints.entries()) {
      await ctx.db.pool.query(
        `INSERT INTO webhook_endpoints (id, store_id, mode, url, events, secret_ciphertext, secret_prefix, ordering,
           updated_at)
         VALUES ($1, $2, 'test', 'http://127.0.0.1:9/h', '{*}', 'x', 'xxxxxx', 'fifo', now())`,
        [id, store.id],
      );
      await ctx.db.pool.query(
        `INSERT INTO webhook_deliveries (id, chain_id, event_id, event_type, store_id, destination_type, endpoint_id,
           url, attempt, status, scheduled_at, created_at, ordered)
         SELECT i, i, 'evt_' || lpad(g::text, 26, '0'), 'transaction.paid', $2::text, 'endpoint', $1::text,
           'http://127.0.0.1:9/h', 1, 'pending', now(), now(), true
         FROM generate_series(1, 300) g, LATERAL (SELECT $3 || lpad(($4::int * 1000 + g)::text, 16, '0') AS i) x`,
        [id, store.id, idFloor("delivery", now.getTime()).slice(0, -16), e],
      );
    }
    await ctx.db.pool.query("ANALYZE webhook_deliveries");
    const sweep: PlanNode[] = [];
    const one: PlanNode[] = [];

    await listOrderedHeads(explaining(sweep), 100);
    await findOrderedHead(explaining(one), "we_ordered_2");

    for (const plans of [sweep, one]) {
      const read = reads(plans, "webhook_deliveries");
      expect(read.seqScan).toBe(false);
      expect(read.indexes).toContain("webhook_deliveries_ordered_idx");
      expect(read.indexes).not.toContain("webhook_deliveries_unordered_due_idx");
      expect(read.rows).toBeLessThanOrEqual(2 * endpoints.length + SLACK);
    }
  });
});
