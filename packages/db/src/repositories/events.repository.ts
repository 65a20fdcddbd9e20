/**
 * Events and the first delivery rows of their fan-out (DESIGN §1 "Write, then enqueue", §4 "Delivery rows"). Every
 * event is written the same way, one or a batch, alone or inside the statement of the change it describes: the
 * `events` rows from arrays, then ONE insert of their first deliveries, the destinations known in advance (a charge's
 * `postback_url`, a ping's endpoint) together with every endpoint subscribed to the event, which that insert selects
 * itself. Recording events therefore costs no round trip of its own: charge creation writes its event in the
 * charge's statement, and a batch of expired or paid charges reads no endpoints before its statement.
 */
import { onSql, onPrisma, type Connection } from "../connection";
import type { Event, Prisma } from "../generated/client";
import type { PageArgs } from "../page";
import { emptySql, rawSql, runWrites, sql, sqlQuery, type Sql, type SqlClient, type SqlWrite } from "../sql";
import type { DbClient } from "../client";
import { idempotentReplyWrite, type IdempotentReply } from "./idempotency-keys.repository";

/** A first delivery whose destination is known before the statement: a charge's postback URL, or a ping's endpoint. */
export interface KnownDestination {
  destination_type: "endpoint" | "postback";
  endpoint_id: string | null;
  transaction_id: string | null;
  url: string;
  /** The seller asked for this chain (a ping) rather than the event's fan-out. */
  manual: boolean;
  /** The row's `ordered` (DESIGN §16): true for an endpoint that is FIFO or paused, else null. */
  ordered: true | null;
}

/** An event to write and where its first deliveries go. */
export interface EventToWrite {
  event: Event;
  /**
   * The id of the row whose change the event describes. In a statement that changes rows conditionally (see
   * {@link eventWrites}' `changed`), the event and its deliveries are written only when that row was changed.
   */
  subjectId: string;
  known: KnownDestination[];
  /**
   * Also deliver to every enabled, not-deleted endpoint of the event's store and mode subscribed to its type or to
   * every type (`everyType` in the endpoint's `events`).
   */
  fanOut: boolean;
}

/**
 * Events to write together, with the ids their first deliveries take: the n-th delivery written (events in order,
 * each event's known destinations first, then its subscribed endpoints by endpoint id) takes `deliveryIds[n]`, so the
 * ids written are exactly the first `count` of them, however many endpoints each event found.
 */
export interface EventsToWrite {
  events: EventToWrite[];
  /** At least as many ids as deliveries can be written; a shortfall fails the statement (a delivery without an id). */
  deliveryIds: string[];
  /** The subscription value that means every type (the domain's `ALL_EVENT_TYPES`). */
  everyType: string;
}

/**
 * Most events whose first attempts share one fan-out job (DESIGN §10 "Redis"): the events of a batch go in groups of
 * this many, each sent by its first event's job, so that a job's rows stay a small share of a worker's attempts at
 * once (`WORKER_CONCURRENCY`) and of a destination's.
 */
export const MAX_EVENTS_PER_FAN_OUT_JOB = 20;

/**
 * The two writes of `batch`, for {@link runWrites} or as CTEs of a statement of the caller's: the `events` rows, then
 * their first delivery rows (attempt 1, `pending`, due at the event's time). The first attempts of each group of
 * {@link MAX_EVENTS_PER_FAN_OUT_JOB} events share the fan-out job of the group's first event: the others' rows name it
 * in `fan_out_event_id` (null on the first event's own rows), so that whoever makes their job, the writer after commit
 * or the reconciler, names the same one. The rows whose endpoint paces them (a rate limit, FIFO order or a pause,
 * DESIGN §16; and a known endpoint's, whose controls are not read here) keep their own event's job: a job that holds
 * rows waiting for their turn goes back to the queue as a whole, so a shared one would pace every row it holds at the
 * slowest row's rhythm.
 * @param changed - in a statement that changes rows conditionally, the name of its CTE of changed rows (with an `id`
 *   column): an event whose subject is not among them is not written, and neither are its deliveries
 */
export function eventWrites(batch: EventsToWrite, changed?: string): { events: SqlWrite; deliveries: SqlWrite } {
  const { events, everyType } = batch;
  const onlyChanged = changed === undefined ? emptySql : rawSql(`JOIN ${changed} ON ${changed}.id = e.subject_id`);
  const eventRows = sql`unnest(
      ${events.map(({ event }) => event.id)}::text[], ${events.map(({ subjectId }) => subjectId)}::text[],
      ${events.map(({ event }) => event.store_id)}::text[], ${events.map(({ event }) => event.mode)}::mode[],
      ${events.map(({ event }) => event.type)}::text[],
      ${events.map(({ event }) => JSON.stringify(event.data))}::jsonb[],
      ${events.map(({ event }) => event.created_at)}::timestamptz[], ${events.map(({ fanOut }) => fanOut)}::boolean[])
    WITH ORDINALITY AS e(id, subject_id, store_id, mode, type, data, created_at, fan_out, ord)`;
  const known = events.flatMap(({ known: destinations }, i) => destinations.map((row) => ({ ...row, ord: i + 1 })));
  return {
    events: {
      sql: sql`INSERT INTO events (id, store_id, mode, type, data, created_at)
        SELECT e.id, e.store_id, e.mode, e.type, e.data, e.created_at FROM ${eventRows} ${onlyChanged}`,
    },
    deliveries: {
      sql: sql`INSERT INTO webhook_deliveries (id, chain_id, attempt, status, event_id, event_type, store_id,
          scheduled_at, created_at, manual, destination_type, endpoint_id, transaction_id, url, ordered, fan_out_event_id)
        WITH e AS (SELECT e.* FROM ${eventRows} ${onlyChanged})
        SELECT (${batch.deliveryIds}::text[])[d.n], (${batch.deliveryIds}::text[])[d.n], 1, 'pending', d.event_id,
          d.type, d.store_id, d.created_at, d.created_at, d.manual, d.destination_type, d.endpoint_id,
          d.transaction_id, d.url, d.ordered,
          CASE WHEN NOT d.paced AND d.ordered IS NULL THEN
            NULLIF((${events.map(({ event }) => event.id)}::text[])[(d.ord - 1) / ${MAX_EVENTS_PER_FAN_OUT_JOB} *
              ${MAX_EVENTS_PER_FAN_OUT_JOB} + 1], d.event_id)
          END
        FROM (
          SELECT row_number() OVER (ORDER BY x.ord, x.part, x.endpoint_id) AS n, x.*
          FROM (
            SELECT e.ord, 0 AS part, e.id AS event_id, e.type, e.store_id, e.created_at, k.manual,
              k.destination_type, k.endpoint_id, k.transaction_id, k.url, k.ordered,
              k.destination_type = 'endpoint' AS paced
            FROM e
            JOIN unnest(${known.map((row) => row.ord)}::bigint[], ${known.map((row) => row.manual)}::boolean[],
                        ${known.map((row) => row.destination_type)}::destination_type[],
                        ${known.map((row) => row.endpoint_id)}::text[], ${known.map((row) => row.transaction_id)}::text[],
                        ${known.map((row) => row.url)}::text[], ${known.map((row) => row.ordered)}::boolean[])
              AS k(ord, manual, destination_type, endpoint_id, transaction_id, url, ordered) ON k.ord = e.ord
            UNION ALL
            SELECT e.ord, 1, e.id, e.type, e.store_id, e.created_at, false, 'endpoint', w.id, NULL, w.url,
              ${ORDERED_BY_ENDPOINT}, w.rate_limit IS NOT NULL
            FROM e
            JOIN webhook_endpoints w ON w.store_id = e.store_id AND w.mode = e.mode AND ${subscribedTo(everyType)}
            WHERE e.fan_out
          ) x
        ) d`,
    },
  };
}

/**
 * The `ordered` of a delivery row written for endpoint `w` (DESIGN §16): true while the endpoint is FIFO or paused (the
 * row waits its turn in the endpoint's order), else null. A recovery's rows are written the same way.
 */
export const ORDERED_BY_ENDPOINT = rawSql("CASE WHEN w.paused OR w.ordering = 'fifo' THEN true END");

/**
 * SQL true for an endpoint `w` that receives the events `e`: enabled, not deleted, subscribed to the event's type or
 * to every type.
 */
function subscribedTo(everyType: string): Sql {
  return sql`w.enabled AND w.deleted_at IS NULL AND (e.type = ANY(w.events) OR ${everyType} = ANY(w.events))`;
}

/**
 * Writes `batch`'s events and first deliveries in one statement with `client` (a pool: the statement is atomic; a
 * transaction: commit them with the change they describe).
 * @returns the ids of the delivery rows written, to enqueue after commit
 */
export async function insertEvents(client: SqlClient, batch: EventsToWrite): Promise<string[]> {
  const { events, deliveries } = eventWrites(batch);
  const [, written] = await runWrites(client, [events, deliveries]);
  return writtenDeliveryIds(batch, written ?? 0);
}

/**
 * Runs ONE statement that changes rows conditionally and writes the events of the rows it changed: `changes` are the
 * statement's CTEs, one of them named `changed` returning the `id` of each row it changed (events whose subject is
 * not among them are not written, see {@link eventWrites}); the events and their first deliveries follow as the CTEs
 * `events_written` and `deliveries_written`.
 * @returns the ids `changed` returned and the ids of the delivery rows written
 */
export async function changeRowsWithEvents(
  client: SqlClient,
  input: { changes: Sql; changed: string; events: EventsToWrite },
): Promise<{ changedIds: string[]; deliveryIds: string[] }> {
  const { events, deliveries } = eventWrites(input.events, input.changed);
  const [result] = await sqlQuery<{ ids: string[]; deliveries: number }>(
    client,
    sql`WITH ${input.changes}, events_written AS (${events.sql} RETURNING 1),
          deliveries_written AS (${deliveries.sql} RETURNING 1)
        SELECT ARRAY(SELECT id FROM ${rawSql(input.changed)}) AS ids,
          (SELECT count(*) FROM deliveries_written)::int AS deliveries`,
  );
  return { changedIds: result?.ids ?? [], deliveryIds: writtenDeliveryIds(input.events, result?.deliveries ?? 0) };
}

/**
 * Runs `subject` (the insert of the row the events are about), the events of `batch` and their first deliveries, and
 * `reply` (the request's idempotent reply), in ONE statement: no `BEGIN`/`COMMIT` round trips, the subscribed
 * endpoints selected inside it.
 * @returns the ids of the delivery rows written
 * @throws what `subject` throws (a unique violation, say); `reply.takenOver()` when its claim was taken over (nothing
 *   written)
 */
export async function insertWithEvents(
  client: SqlClient,
  subject: SqlWrite,
  batch: EventsToWrite,
  reply?: IdempotentReply,
): Promise<string[]> {
  const { events, deliveries } = eventWrites(batch);
  const written = await runWrites(client, [
    subject,
    events,
    deliveries,
    ...(reply ? [idempotentReplyWrite(reply)] : []),
  ]);
  return writtenDeliveryIds(batch, written[2] ?? 0);
}

/** The ids of the first `count` delivery rows of `batch`: those a statement that wrote `count` of them wrote. */
export function writtenDeliveryIds(batch: EventsToWrite, count: number): string[] {
  return batch.deliveryIds.slice(0, count);
}

/**
 * Event `id` when it belongs to `store_id` and `mode` and was created at or after `keptSince` (an older one is gone,
 * DESIGN §10 "Retention"), else null.
 */
export function findStoreEvent(
  db: DbClient,
  scope: { storeId: string; mode: Event["mode"] },
  id: string,
  keptSince: Date,
): Promise<Event | null> {
  return db.event.findFirst({
    where: { id, store_id: scope.storeId, mode: scope.mode, created_at: { gte: keptSince } },
  });
}

/** Filters of an event list; they combine with AND. */
export interface EventListFilters {
  /** Exact type, e.g. `transaction.paid`. */
  type?: string;
  /** Only events created strictly after this instant. */
  createdAfter?: Date;
  /** Only events created strictly before this instant. */
  createdBefore?: Date;
  /** Only events created at or after this instant: older ones are gone (DESIGN §10 "Retention"). */
  keptSince: Date;
}

/** One page of a store's events of `mode` matching `filters`, in the page's order. */
export function listStoreEvents(
  db: DbClient,
  scope: { storeId: string; mode: Event["mode"] },
  filters: EventListFilters,
  page: PageArgs,
): Promise<Event[]> {
  const createdAt: Prisma.DateTimeFilter = {
    gte: filters.keptSince,
    ...(filters.createdAfter === undefined ? {} : { gt: filters.createdAfter }),
    ...(filters.createdBefore === undefined ? {} : { lt: filters.createdBefore }),
  };
  return db.event.findMany({
    where: {
      store_id: scope.storeId,
      mode: scope.mode,
      ...(filters.type === undefined ? {} : { type: filters.type }),
      created_at: createdAt,
      ...(page.id === undefined ? {} : { id: page.id }),
    },
    orderBy: page.orderBy,
    take: page.take,
  });
}

/** This repository bound to connection `c` (`createRepositories`): each function without its client. */
export function eventsRepository(c: Connection) {
  return {
    ...onSql(c, { insertEvents, changeRowsWithEvents }),
    ...onPrisma(c, { findStoreEvent, listStoreEvents }),
  };
}
