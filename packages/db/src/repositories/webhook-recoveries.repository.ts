/**
 * Recoveries of an endpoint (`webhook_recoveries`, DESIGN §8 "Recover", §10 "Sweeps"): the API records what to
 * recover, the worker walks the window's events in pages by `(created_at, id)`, and each page's transaction writes its
 * new chains and moves the recovery's cursor together, so a recovery resumes where it stopped and writes no chain twice.
 */
import type { DbClient } from "../client";
import type { Prisma, WebhookRecovery } from "../generated/client";
import { emptySql, sql, sqlQuery, type Sql, type SqlClient } from "../sql";

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
  /** Null for the first page. */
  after: RecoveryCursor | null;
  limit: number;
}

/**
 * SQL true when the endpoint `endpointId` missed event `e`: its latest chain to the endpoint did not succeed, or it
 * never had one (DESIGN §8). The one definition of "missed", for the API's count and the worker's pages.
 */
export function missedByEndpoint(endpointId: string): Sql {
  return sql`NOT EXISTS (
          SELECT 1 FROM webhook_deliveries d
          WHERE d.event_id = e.id AND d.endpoint_id = ${endpointId} AND d.status = 'succeeded'
            AND d.chain_id = (
              SELECT latest.chain_id FROM webhook_deliveries latest
              WHERE latest.event_id = e.id AND latest.endpoint_id = ${endpointId}
              ORDER BY latest.chain_id DESC LIMIT 1))`;
}

/**
 * Up to `query.limit` events of the window (its store and mode, the subscribed types, pings left out) after
 * `query.after` in `(created_at, id)` order, each with whether the endpoint missed it. Read through
 * `events (store_id, mode, created_at)`, so a page costs its own events whatever the window's size.
 */
export function listRecoveryPage(client: SqlClient, query: RecoveryPageQuery): Promise<RecoveryPageEvent[]> {
  const { after } = query;
  const from =
    after === null
      ? sql`e.created_at >= ${query.since}::timestamptz`
      : sql`e.created_at >= ${after.createdAt}::timestamptz
          AND (e.created_at > ${after.createdAt}::timestamptz OR e.id > ${after.eventId}::text)`;
  return sqlQuery<RecoveryPageEvent>(
    client,
    sql`
      SELECT e.id, e.created_at, ${missedByEndpoint(query.endpointId)} AS missed
      FROM events e
      WHERE e.store_id = ${query.storeId} AND e.mode = ${query.mode}::mode
        AND ${from} AND e.created_at <= ${query.until}::timestamptz
        AND e.type <> ${query.excludedType}
        ${query.types === null ? emptySql : sql`AND e.type = ANY(${query.types}::text[])`}
      ORDER BY e.created_at, e.id
      LIMIT ${query.limit}`,
  );
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
