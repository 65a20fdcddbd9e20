/**
 * Recoveries of an endpoint (`webhook_recoveries`, DESIGN §8 "Recover", §10 "Sweeps"): the API records what to
 * recover, the worker walks the window's events in pages by `(created_at, id)`, and each page's transaction writes its
 * new chains and moves the recovery's cursor together, so a recovery resumes where it stopped and writes no chain twice.
 */
import { onSql, onPrisma, inUnitOfWork, type Connection } from "../connection";
import type { DbClient } from "../client";
import type { Prisma, WebhookRecovery } from "../generated/client";
import { emptySql, plannedOnEachCall, sql, sqlQuery, type Sql, type SqlClient } from "../sql";

/** What the API records of a recovery. */
export interface NewWebhookRecovery {
  id: string;
  endpointId: string;
  since: Date;
  until: Date;
  /** The types the endpoint subscribes to; empty for every type. */
  eventTypes: string[];
  /** Most chains it writes. */
  maxEvents: number;
  createdAt: Date;
}

/** Records recovery `recovery`, to be paged by the worker. */
export async function insertWebhookRecovery(client: DbClient, recovery: NewWebhookRecovery): Promise<void> {
  await client.webhookRecovery.create({
    data: {
      id: recovery.id,
      endpoint_id: recovery.endpointId,
      since: recovery.since,
      until: recovery.until,
      event_types: recovery.eventTypes,
      max_events: recovery.maxEvents,
      created_at: recovery.createdAt,
    },
  });
}

/** A recovery with what its pages need of its endpoint: where the chains go (its current URL) and whose events. */
export type WebhookRecoveryWithEndpoint = WebhookRecovery & {
  endpoint: { store_id: string; mode: "live" | "test"; url: string };
};

/** Recovery `id` with its endpoint's store, mode and URL, or null when there is none. */
export function findWebhookRecovery(client: DbClient, id: string): Promise<WebhookRecoveryWithEndpoint | null> {
  return client.webhookRecovery.findUnique({
    where: { id },
    include: { endpoint: { select: { store_id: true, mode: true, url: true } } },
  });
}

/** Where a page starts: after this event, in `(created_at, id)` order. */
export interface RecoveryCursor {
  createdAt: Date;
  eventId: string;
}

/** One event of a recovery's window, and whether the endpoint missed it. */
export interface RecoveryPageEvent {
  id: string;
  created_at: Date;
  /** Its latest chain to the endpoint did not succeed, or it never had one. */
  missed: boolean;
}

/** What a page of {@link listRecoveryPage} reads. */
export interface RecoveryPageQuery {
  endpointId: string;
  storeId: string;
  mode: "live" | "test";
  since: Date;
  until: Date;
  /** The types the endpoint subscribes to; null for every type. */
  types: string[] | null;
  /** A type never recovered (pings). */
  excludedType: string;
  /**
   * A delivery id below every delivery of the window's events (made before `since`): deliveries are written with or
   * after their event, so older weeks of the partitioned table are not read.
   */
  deliveriesFrom: string;
  /** Null for the first page. */
  after: RecoveryCursor | null;
  limit: number;
}

/**
 * The ids of the events, among those `events` selects (a condition on `d.event_id`), whose latest chain to endpoint
 * `endpointId` succeeded: the one definition of "not missed" (DESIGN §8), for the API's count and the worker's pages.
 * Deliveries from `deliveriesFrom` on only (see {@link RecoveryPageQuery.deliveriesFrom}).
 */
export function deliveredEventIds(endpointId: string, deliveriesFrom: string, events: Sql): Sql {
  return sql`SELECT c.event_id FROM (
      SELECT d.event_id, bool_or(d.status = 'succeeded') AS succeeded,
             row_number() OVER (PARTITION BY d.event_id ORDER BY d.chain_id DESC) AS latest
      FROM webhook_deliveries d
      WHERE d.endpoint_id = ${endpointId} AND d.id >= ${deliveriesFrom}::text AND ${events}
      GROUP BY d.event_id, d.chain_id) c
    WHERE c.latest = 1 AND c.succeeded`;
}

/**
 * Up to `query.limit` events of the window (its store and mode, the subscribed types, pings left out) after
 * `query.after` in `(created_at, id)` order, each with whether the endpoint missed it. Two statements: the page's
 * events through `events (store_id, mode, created_at)`, then their deliveries to the endpoint through
 * `webhook_deliveries (event_id)`, one index scan per partition for the whole page; a page costs its own events
 * whatever the window's size. Both are {@link plannedOnEachCall}: on a plan cached while the week's partition was
 * empty, each page read every event of the week (`week-partition-plans.int.test.ts`).
 */
export async function listRecoveryPage(client: SqlClient, query: RecoveryPageQuery): Promise<RecoveryPageEvent[]> {
  const { after } = query;
  const from =
    after === null
      ? sql`e.created_at >= ${query.since}::timestamptz`
      : sql`e.created_at >= ${after.createdAt}::timestamptz
          AND (e.created_at > ${after.createdAt}::timestamptz OR e.id > ${after.eventId}::text)`;
  const events = await sqlQuery<{ id: string; created_at: Date }>(
    client,
    plannedOnEachCall(sql`
      SELECT e.id, e.created_at
      FROM events e
      WHERE e.store_id = ${query.storeId} AND e.mode = ${query.mode}::mode
        AND ${from} AND e.created_at <= ${query.until}::timestamptz
        AND e.type <> ${query.excludedType}
        ${query.types === null ? emptySql : sql`AND e.type = ANY(${query.types}::text[])`}
      ORDER BY e.created_at, e.id
      LIMIT ${query.limit}`),
  );
  if (events.length === 0) return [];
  const ids = events.map((event) => event.id);
  const delivered = await sqlQuery<{ event_id: string }>(
    client,
    plannedOnEachCall(deliveredEventIds(query.endpointId, query.deliveriesFrom, sql`d.event_id = ANY(${ids}::text[])`)),
  );
  const succeeded = new Set(delivered.map((row) => row.event_id));
  return events.map((event) => ({ ...event, missed: !succeeded.has(event.id) }));
}

/** How a page moves a recovery on. */
export interface RecoveryAdvance {
  id: string;
  /** The cursor the page started from (null for the first page): the move is refused if another run moved it. */
  from: RecoveryCursor | null;
  /** The page's last event. */
  to: RecoveryCursor;
  /** Chains the page wrote. */
  written: number;
  /** Set when this was the last page. */
  completedAt: Date | null;
}

/**
 * Moves recovery `advance.id` past a page, inside the page's transaction: the cursor, the chains and pages counted, and
 * the end when done. Only while the cursor is still `advance.from`, so two runs of one recovery never both write a page.
 * @returns whether it moved (false: another run moved it first, or it is complete; roll the page back)
 */
export async function advanceWebhookRecovery(tx: Prisma.TransactionClient, advance: RecoveryAdvance): Promise<boolean> {
  const { from, to } = advance;
  const moved = await tx.$executeRaw(sql`
    UPDATE webhook_recoveries
    SET cursor_created_at = ${to.createdAt}::timestamptz, cursor_event_id = ${to.eventId}::text,
        events = events + ${advance.written}, pages = pages + 1, completed_at = ${advance.completedAt}::timestamptz
    WHERE id = ${advance.id} AND completed_at IS NULL
      AND cursor_event_id IS NOT DISTINCT FROM ${from?.eventId ?? null}::text`);
  return moved === 1;
}

/** Marks recovery `id` complete without a page (its window has no event left). */
export async function completeWebhookRecovery(client: DbClient, id: string, at: Date): Promise<void> {
  await client.webhookRecovery.updateMany({ where: { id, completed_at: null }, data: { completed_at: at } });
}

/**
 * The ids of up to `limit` recoveries not complete, created before `createdBefore`, oldest first, through the partial
 * index `webhook_recoveries_running_idx` (`(id) WHERE completed_at IS NULL`, written out so it always applies): the
 * reconciler offers their jobs again, covering a job lost with Redis.
 */
export async function listRunningWebhookRecoveryIds(
  client: SqlClient,
  createdBefore: Date,
  limit: number,
): Promise<string[]> {
  const rows = await sqlQuery<{ id: string }>(
    client,
    sql`SELECT id FROM webhook_recoveries WHERE completed_at IS NULL AND created_at < ${createdBefore}::timestamptz
        ORDER BY id LIMIT ${limit}`,
  );
  return rows.map(({ id }) => id);
}

/** This repository bound to connection `c` (`createRepositories`): each function without its client. */
export function webhookRecoveriesRepository(c: Connection) {
  return {
    ...onSql(c, { listRecoveryPage, listRunningWebhookRecoveryIds }),
    ...onPrisma(c, { insertWebhookRecovery, findWebhookRecovery, completeWebhookRecovery }),
    ...inUnitOfWork(c, { advanceWebhookRecovery }),
  };
}
