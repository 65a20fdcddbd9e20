/**
 * Webhook delivery rows (`webhook_deliveries`, DESIGN §4 "Delivery rows"): one row per attempt of a chain to an
 * account endpoint or a charge's postback URL. The worker's hot path (the batched load of pending rows and the batched
 * write of attempts) is plain SQL, each statement over many rows at once so that the worker can batch concurrent jobs
 * into one statement; every write is conditional on the row still being `pending`, so a job that runs twice writes
 * once. The panel's reads and a seller's manual chains are Prisma.
 */
import { onSql, onPrisma, onPool, type Connection } from "../connection";
import type { Pool } from "pg";
import type { DbClient } from "../client";
import type { PageArgs } from "../page";
import type { Event, Prisma, Transaction, WebhookDelivery, WebhookEndpoint } from "../generated/client";
import { emptySql, plannedOnEachCall, rawSql, rowStatusIs, sql, sqlQuery, type Sql, type SqlClient } from "../sql";
import { CHARGE_COLUMN_NAMES } from "./charges.repository";
import { ORDERED_BY_ENDPOINT } from "./events.repository";

/** A pending delivery row with what its attempt needs, as {@link loadPendingDeliveries} reads it. */
export type LoadedDelivery = WebhookDelivery & {
  event: Event;
  /** The account endpoint, for `destination_type` `endpoint`. */
  endpoint: WebhookEndpoint | null;
  /** The store's encrypted postback secret, for `destination_type` `postback`; null when none is configured. */
  postbackSecretCiphertext: string | null;
  /**
   * For a charge's event, the charge, whose fixed fields the event's row leaves out (DESIGN §10 "No copies"); else
   * null.
   */
  charge: Transaction | null;
};

/** The outcome of an attempt as written on its row by {@link writeDeliveryAttempts} (DESIGN §4 "Delivery rows"). */
export interface DeliveryAttemptRow {
  /** The delivery row, `whd_…`. */
  id: string;
  status: "succeeded" | "failed" | "dead";
  /** The URL the attempt went to (an endpoint's URL at send time), or the row's URL when nothing was sent. */
  url: string;
  /** One of SPEC "Delivery error values"; null for a success. */
  error: string | null;
  responseStatus: number | null;
  responseBodyExcerpt: string | null;
  /** Wall time of the POST, ms; null when nothing was sent. */
  durationMs: number | null;
  attemptedAt: Date;
  /** When the next attempt of the chain is due; null when none follows. */
  nextAttemptAt: Date | null;
}

/**
 * Every column of each table the load reads, by name (a prepared statement must not select `*`, see `sqlQuery`). As
 * records of every field of the model, they stop compiling when a migration adds a column that is not read.
 */
const DELIVERY_FIELDS: Record<keyof WebhookDelivery, true> = {
  id: true,
  event_id: true,
  event_type: true,
  store_id: true,
  destination_type: true,
  endpoint_id: true,
  transaction_id: true,
  url: true,
  attempt: true,
  chain_id: true,
  status: true,
  error: true,
  response_status: true,
  response_body_excerpt: true,
  duration_ms: true,
  scheduled_at: true,
  attempted_at: true,
  next_attempt_at: true,
  manual: true,
  job_given_up_at: true,
  job_error: true,
  ordered: true,
  fan_out_event_id: true,
  created_at: true,
};
const EVENT_FIELDS: Record<keyof Event, true> = {
  id: true,
  store_id: true,
  mode: true,
  type: true,
  data: true,
  created_at: true,
};
const ENDPOINT_FIELDS: Record<keyof WebhookEndpoint, true> = {
  id: true,
  store_id: true,
  mode: true,
  url: true,
  events: true,
  description: true,
  signature_scheme: true,
  secret_ciphertext: true,
  secret_prefix: true,
  public_key: true,
  previous_secret_ciphertext: true,
  previous_secret_expires_at: true,
  enabled: true,
  disabled_reason: true,
  auto_disabled_at: true,
  consecutive_dead_chains: true,
  last_succeeded_at: true,
  ordering: true,
  rate_limit: true,
  paused: true,
  headers_ciphertext: true,
  stop_noticed_at: true,
  deleted_at: true,
  created_at: true,
  updated_at: true,
};
const DELIVERY_COLUMNS = Object.keys(DELIVERY_FIELDS);
const EVENT_COLUMNS = Object.keys(EVENT_FIELDS);
const ENDPOINT_COLUMNS = Object.keys(ENDPOINT_FIELDS);

/**
 * The select list of {@link loadPendingDeliveries}: the row's columns, then its event's, endpoint's and charge's,
 * prefixed.
 */
const LOADED_DELIVERY_COLUMNS = rawSql(
  [
    DELIVERY_COLUMNS.map((c) => `d.${c}`).join(", "),
    EVENT_COLUMNS.map((c) => `e.${c} AS "event.${c}"`).join(", "),
    ENDPOINT_COLUMNS.map((c) => `w.${c} AS "endpoint.${c}"`).join(", "),
    CHARGE_COLUMN_NAMES.map((c) => `t.${c} AS "charge.${c}"`).join(", "),
  ].join(",\n    "),
);

/** The fields of `row` named `<prefix>.<column>`, without the prefix. */
function nested<T>(row: Record<string, unknown>, prefix: string, columns: readonly string[]): T {
  return Object.fromEntries(columns.map((column) => [column, row[`${prefix}.${column}`]])) as T;
}

/**
 * Loads the pending rows among `ids` with their events, endpoints, (for postbacks) their stores' secrets and (for a
 * charge's events) the charge, in one statement for any number of rows. Plain SQL rather than Prisma's `include`
 * (three statements and the rows joined in JavaScript): measured on 100 rows, 1.2 ms of CPU per load instead of 8 ms.
 * @param client - the worker's pool (its batcher loads the rows of many jobs at once)
 * @returns the rows found still `pending`, keyed by id (a missing or no longer pending id is absent)
 */
export async function loadPendingDeliveries(client: SqlClient, ids: string[]): Promise<Map<string, LoadedDelivery>> {
  const rows = await sqlQuery<Record<string, unknown>>(
    client,
    sql`
  SELECT ${LOADED_DELIVERY_COLUMNS},
    s.postback_secret_ciphertext AS "postbackSecretCiphertext"
  FROM webhook_deliveries d
  JOIN events e ON e.id = d.event_id
  LEFT JOIN webhook_endpoints w ON w.id = d.endpoint_id
  LEFT JOIN stores s ON s.id = d.store_id AND d.destination_type = 'postback'
  LEFT JOIN transactions t ON e.data ->> 'object' = 'transaction' AND t.id = e.data ->> 'id'
  WHERE d.id = ANY(${[...new Set(ids)]}::text[]) AND ${rowStatusIs("d.status", "pending")}`,
  );
  return new Map(
    rows.map((row) => {
      const delivery = loadedDeliveryOf(row);
      return [delivery.id, delivery];
    }),
  );
}

/** A row selected with {@link LOADED_DELIVERY_COLUMNS} and `postbackSecretCiphertext`, as a {@link LoadedDelivery}. */
function loadedDeliveryOf(row: Record<string, unknown>): LoadedDelivery {
  return {
    ...(Object.fromEntries(DELIVERY_COLUMNS.map((c) => [c, row[c]])) as WebhookDelivery),
    event: nested<Event>(row, "event", EVENT_COLUMNS),
    endpoint: row["endpoint.id"] === null ? null : nested<WebhookEndpoint>(row, "endpoint", ENDPOINT_COLUMNS),
    postbackSecretCiphertext: (row.postbackSecretCiphertext as string | null) ?? null,
    charge: row["charge.id"] === null ? null : nested<Transaction>(row, "charge", CHARGE_COLUMN_NAMES),
  };
}

/**
 * Delivery row `id` of seller `sellerId`, whatever its status, loaded as an attempt loads it (its event, endpoint,
 * charge and the store's postback secret): what the dashboard shows of the request an attempt sent (DESIGN §15). An
 * event older than `eventsKeptSince` is gone, and its rows with it.
 * @returns the row, or null when it is unknown, another seller's or past retention
 */
export async function loadSellerDelivery(
  client: SqlClient,
  sellerId: string,
  id: string,
  eventsKeptSince: Date,
): Promise<LoadedDelivery | null> {
  const [row] = await sqlQuery<Record<string, unknown>>(
    client,
    sql`
  SELECT ${LOADED_DELIVERY_COLUMNS},
    s.postback_secret_ciphertext AS "postbackSecretCiphertext"
  FROM webhook_deliveries d
  JOIN events e ON e.id = d.event_id AND e.created_at >= ${eventsKeptSince}::timestamptz
  JOIN stores s ON s.id = e.store_id AND s.seller_id = ${sellerId}
  LEFT JOIN webhook_endpoints w ON w.id = d.endpoint_id
  LEFT JOIN transactions t ON e.data ->> 'object' = 'transaction' AND t.id = e.data ->> 'id'
  WHERE d.id = ${id}`,
  );
  return row === undefined ? null : loadedDeliveryOf(row);
}

/**
 * `last_succeeded_at` is refreshed at most this often on a run of successes: the auto-disable rule reads it in days
 * (DESIGN §4), and skipping the write keeps the endpoint's row unlocked.
 */
const LAST_SUCCESS_PRECISION_MS = 60_000;

/**
 * Records attempt outcomes in one statement, each only while its row is still `pending`, and resets the endpoint of
 * every success written (DESIGN §4 "Auto-disable", §8 "Early warning": a success ends the run of dead chains and sets
 * `last_succeeded_at` to the attempt's time). The rows arrive as one array per column. An endpoint already reset is
 * left alone and unlocked: one whose run is 0 and whose last success is less than {@link LAST_SUCCESS_PRECISION_MS}
 * older than this one, so thousands of successes a second to one endpoint do not queue on its row. The endpoints to
 * reset are locked in id order, so two batches of different workers cannot deadlock on them; a batch that waited
 * re-checks the condition on the row the other committed and skips what it reset.
 * @param client - the worker's pool (batched writes) or the transaction that also writes the next attempt
 * @returns ids of the rows written
 */
export async function writeDeliveryAttempts(client: SqlClient, rows: DeliveryAttemptRow[]): Promise<Set<string>> {
  const column = <T>(pick: (row: DeliveryAttemptRow) => T) => rows.map(pick);
  const iso = (date: Date | null) => (date === null ? null : date.toISOString());
  const written = await sqlQuery<{ id: string }>(
    client,
    sql`
  WITH written AS (
    UPDATE webhook_deliveries AS d
    SET status = v.status::delivery_status, url = v.url, error = v.error, response_status = v.response_status,
        response_body_excerpt = v.excerpt, duration_ms = v.duration_ms, attempted_at = v.attempted_at,
        next_attempt_at = v.next_attempt_at
    FROM unnest(${column((r) => r.id)}::text[], ${column((r) => r.status)}::text[], ${column((r) => r.url)}::text[],
                ${column((r) => r.error)}::text[], ${column((r) => r.responseStatus)}::int[],
                ${column((r) => r.responseBodyExcerpt)}::text[], ${column((r) => r.durationMs)}::int[],
                ${column((r) => iso(r.attemptedAt))}::timestamptz[], ${column((r) => iso(r.nextAttemptAt))}::timestamptz[])
      AS v(id, status, url, error, response_status, excerpt, duration_ms, attempted_at, next_attempt_at)
    WHERE d.id = v.id AND ${rowStatusIs("d.status", "pending")}
    RETURNING d.id, d.endpoint_id, d.status, d.attempted_at
  ), succeeded AS (
    SELECT endpoint_id, max(attempted_at) AS at FROM written
    WHERE status = 'succeeded' AND endpoint_id IS NOT NULL
    GROUP BY endpoint_id
  ), stale AS (
    SELECT w.id, s.at FROM webhook_endpoints w JOIN succeeded s ON s.endpoint_id = w.id
    WHERE w.consecutive_dead_chains <> 0 OR w.last_succeeded_at IS NULL
       OR w.last_succeeded_at < s.at - ${rawSql(`interval '${LAST_SUCCESS_PRECISION_MS} milliseconds'`)}
    ORDER BY w.id
    FOR UPDATE OF w
  ), reset AS (
    UPDATE webhook_endpoints w
    SET consecutive_dead_chains = 0, last_succeeded_at = greatest(w.last_succeeded_at, stale.at), updated_at = now()
    FROM stale WHERE w.id = stale.id
  )
  SELECT id FROM written`,
  );
  return new Set(written.map((row) => row.id));
}

/** A delivery row to insert (attempt 1 of a chain, or the next attempt of one). */
export type NewWebhookDelivery = Prisma.WebhookDeliveryUncheckedCreateInput;

/**
 * Writes one delivery row: attempt 1 of a new chain (a manual resend) or the next attempt of a chain (a retry).
 * @returns the row as written
 * @throws Prisma's error on a duplicate id or a missing event, endpoint or charge
 */
export function insertWebhookDelivery(client: DbClient, data: NewWebhookDelivery): Promise<WebhookDelivery> {
  return client.webhookDelivery.create({ data });
}

/**
 * The delivery row `id`, for one the caller just wrote (a ping's attempt 1).
 * @throws Prisma's `P2025` error when there is no such row
 */
export function findWebhookDeliveryOrThrow(client: DbClient, id: string): Promise<WebhookDelivery> {
  return client.webhookDelivery.findUniqueOrThrow({ where: { id } });
}

/** A delivery row with its account endpoint's URL, deletion and delivery controls (null for a postback's). */
export type WebhookDeliveryWithEndpoint = WebhookDelivery & {
  endpoint: Pick<WebhookEndpoint, "url" | "deleted_at" | "paused" | "ordering"> | null;
};

/** The columns of a delivery row `d`, by name (a prepared statement must not select `*`, see `sqlQuery`). */
const DELIVERY_ROW_COLUMNS = rawSql(DELIVERY_COLUMNS.map((c) => `d.${c}`).join(", "));

/**
 * The delivery row `id` of an event of a store of `sellerId`, created at or after `eventsKeptSince` (an older event
 * is gone, DESIGN §10 "Retention"), with its endpoint's current URL and deletion, as a resend needs them. Deliveries
 * name their event without a foreign key (events are partitioned), so the event is joined by id.
 * @returns null when there is no such row, it is another seller's, or its event is gone
 */
export async function findSellerWebhookDelivery(
  client: DbClient,
  sellerId: string,
  id: string,
  eventsKeptSince: Date,
): Promise<WebhookDeliveryWithEndpoint | null> {
  const [row] = await sqlQuery<Record<string, unknown>>(
    client,
    sql`SELECT ${DELIVERY_ROW_COLUMNS}, w.id AS "endpoint.id", w.url AS "endpoint.url",
          w.deleted_at AS "endpoint.deleted_at", w.paused AS "endpoint.paused", w.ordering AS "endpoint.ordering"
        FROM webhook_deliveries d
        JOIN events e ON e.id = d.event_id AND e.created_at >= ${eventsKeptSince}::timestamptz
        JOIN stores s ON s.id = e.store_id AND s.seller_id = ${sellerId}
        LEFT JOIN webhook_endpoints w ON w.id = d.endpoint_id
        WHERE d.id = ${id}`,
  );
  if (row === undefined) return null;
  const delivery = Object.fromEntries(DELIVERY_COLUMNS.map((c) => [c, row[c]])) as WebhookDelivery;
  const endpoint =
    row["endpoint.id"] === null
      ? null
      : nested<WebhookEndpoint>(row, "endpoint", ["url", "deleted_at", "paused", "ordering"]);
  return { ...delivery, endpoint };
}

/** Filters of an endpoint's delivery list; each is optional and they combine with AND. */
export interface EndpointDeliveryFilters {
  status?: WebhookDelivery["status"];
  event_type?: string;
}

/** One page of endpoint `endpointId`'s delivery rows (every attempt) matching `filters`, in the page's order. */
export function listEndpointWebhookDeliveriesPage(
  client: DbClient,
  endpointId: string,
  filters: EndpointDeliveryFilters,
  page: PageArgs,
): Promise<WebhookDelivery[]> {
  return client.webhookDelivery.findMany({
    where: {
      endpoint_id: endpointId,
      ...(filters.status === undefined ? {} : { status: filters.status }),
      ...(filters.event_type === undefined ? {} : { event_type: filters.event_type }),
      ...(page.id === undefined ? {} : { id: page.id }),
    },
    orderBy: page.orderBy,
    take: page.take,
  });
}

/** Filters of a seller's delivery search (`GET /v1/me/webhook-deliveries`); each is optional, they combine with AND. */
export interface WebhookDeliverySearch {
  /** The event's mode. */
  mode?: Event["mode"];
  destination?: WebhookDelivery["destination_type"];
  /** `txn_…`: the charge's postback attempts and every attempt of its events. */
  transaction_id?: string;
  /** `evt_…`. */
  event_id?: string;
  status?: WebhookDelivery["status"];
}

/**
 * One page of `sellerId`'s delivery rows, account endpoints' and postbacks' alike, matching `filters`: the rows of
 * events of the seller's stores (joined by id: deliveries name their event without a foreign key, events being
 * partitioned), so a delivery whose event is gone is not listed.
 */
export function searchWebhookDeliveriesPage(
  client: DbClient,
  sellerId: string,
  filters: WebhookDeliverySearch,
  page: PageArgs,
): Promise<WebhookDelivery[]> {
  const when = (value: unknown, condition: Sql) => (value === undefined ? emptySql : sql`AND ${condition}`);
  const cursor =
    page.id === undefined ? emptySql : "lt" in page.id ? sql`AND d.id < ${page.id.lt}` : sql`AND d.id > ${page.id.gt}`;
  return sqlQuery<WebhookDelivery>(
    client,
    sql`SELECT ${DELIVERY_ROW_COLUMNS}
        FROM webhook_deliveries d
        JOIN events e ON e.id = d.event_id
        JOIN stores s ON s.id = e.store_id AND s.seller_id = ${sellerId}
        WHERE true ${when(filters.mode, sql`e.mode = ${filters.mode}::mode`)}
          ${when(filters.destination, sql`d.destination_type = ${filters.destination}::destination_type`)}
          ${when(filters.event_id, sql`d.event_id = ${filters.event_id}`)}
          ${when(filters.status, sql`d.status = ${filters.status}::delivery_status`)}
          ${when(
            filters.transaction_id,
            // A charge's events name it in `data.object.id`; its postback rows name it in `transaction_id`.
            sql`(d.transaction_id = ${filters.transaction_id} OR e.data ->> 'id' = ${filters.transaction_id})`,
          )}
          ${cursor}
        ORDER BY d.id ${rawSql(page.orderBy.id === "asc" ? "ASC" : "DESC")} LIMIT ${page.take}`,
  );
}

/**
 * Writes on delivery rows `ids` (one job's) that the worker gave their job up for good (`job_given_up_at` = `at`,
 * `job_error` = `reason`), on each row still `pending` and not already marked: the reconciler no longer offers it, and
 * a row that moved on meanwhile (attempted) is left alone.
 * @param reason - the last try's error, storable text of at most 300 characters
 * @returns whether a row was marked
 */
export async function markDeliveriesGivenUp(
  client: DbClient,
  ids: string[],
  reason: string,
  at: Date,
): Promise<boolean> {
  const { count } = await client.webhookDelivery.updateMany({
    where: { id: { in: ids }, status: "pending", job_given_up_at: null },
    data: { job_given_up_at: at, job_error: reason },
  });
  return count > 0;
}

/** What a recovery writes: attempt 1 of a new manual chain to one endpoint for each of its events. */
export interface RecoveryDeliveries {
  endpointId: string;
  /** The endpoint's current URL. */
  url: string;
  /** The new rows' ids (each its own chain), `deliveryIds[i]` for `eventIds[i]`. */
  deliveryIds: string[];
  eventIds: string[];
  /** The rows' `scheduled_at` and `created_at`: due at once. */
  now: Date;
}

/**
 * Writes a recovery's rows in one statement (DESIGN §8 "Recover"): attempt 1 of a new manual chain, `pending` and due
 * `now`, to endpoint `endpointId` for each event, with the event's type and store, `ordered` while the endpoint is
 * FIFO or paused ({@link ORDERED_BY_ENDPOINT}).
 */
export async function insertRecoveryDeliveries(client: DbClient, rows: RecoveryDeliveries): Promise<void> {
  const { endpointId, url, deliveryIds, eventIds, now } = rows;
  await client.$executeRaw(sql`
        INSERT INTO webhook_deliveries
          (id, chain_id, event_id, event_type, store_id, destination_type, endpoint_id, url, attempt, status,
           scheduled_at, created_at, manual, ordered)
        SELECT v.id, v.id, e.id, e.type, e.store_id, 'endpoint', ${endpointId}, ${url}, 1, 'pending',
               ${now}, ${now}, true, ${ORDERED_BY_ENDPOINT}
        FROM unnest(${deliveryIds}::text[], ${eventIds}::text[]) AS v(id, event_id)
        JOIN events e ON e.id = v.event_id
        JOIN webhook_endpoints w ON w.id = ${endpointId}`);
}

/**
 * What gives a delivery its job and that job's queue shard (`deliveryJob` in packages/domain, DESIGN §10 "Redis"): its
 * id, its destination's columns, whether it is the first attempt of its event's fan-out, and the event whose fan-out
 * job sends it when that is not its own.
 */
export type DeliveryRoute = Pick<
  WebhookDelivery,
  "id" | "endpoint_id" | "url" | "event_id" | "attempt" | "manual" | "fan_out_event_id"
>;
const DELIVERY_ROUTE_COLUMNS = "id, endpoint_id, url, event_id, attempt, manual, fan_out_event_id";

/**
 * Calls `onPage` with the pending deliveries due by `dueBy` whose job was not given up, `pageSize` at a time, until
 * none is left: the reconciler's sweep (DESIGN §1, §10 "Sweeps"). Ordered rows are not among them: their heads are
 * offered through {@link listOrderedHeads}. One statement reads them, through a cursor in a
 * read-only transaction on a connection of its own, so each due row is read once whatever the plan (pages taken by
 * `LIMIT` from a partitioned table were sorted anew from every remaining due row), and only due rows are read: the
 * partial index `webhook_deliveries_unordered_due_idx` (see `schema.prisma`) holds the pending rows by `scheduled_at`,
 * the transaction reads no table without an index nor compiles its plan, and a retry that waits for its time is never
 * read. The status is written out in the text, as the index's predicate.
 * @param onPage - offers a page; the cursor waits for it
 * @throws what the database or `onPage` throws (the transaction is rolled back)
 */
export async function forEachDueDeliveryPage(
  pool: Pool,
  dueBy: Date,
  pageSize: number,
  onPage: (page: DeliveryRoute[]) => Promise<void>,
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN READ ONLY");
    // The statistics see pending rows and rows scheduled in the past, but not that the pending ones are mostly in the
    // future (retries), so they expect a quarter of the table to be due: they would read all of it without an index,
    // and compile the plan (JIT) for rows that are not there.
    await client.query("SET LOCAL enable_seqscan = off");
    await client.query("SET LOCAL jit = off");
    // A literal time (an ISO string), not a parameter: DECLARE takes none through the simple protocol.
    await client.query(`DECLARE due_deliveries NO SCROLL CURSOR FOR
      SELECT ${DELIVERY_ROUTE_COLUMNS} FROM webhook_deliveries
      WHERE status = 'pending' AND job_given_up_at IS NULL AND ordered IS NULL
        AND scheduled_at <= '${dueBy.toISOString()}'::timestamptz`);
    for (;;) {
      const { rows } = await client.query<DeliveryRoute>(`FETCH FORWARD ${pageSize} FROM due_deliveries`);
      if (rows.length > 0) await onPage(rows);
      if (rows.length < pageSize) break;
    }
    await client.query("COMMIT");
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/**
 * The {@link DeliveryRoute} of each of `ids` that has a row, by primary key, in one statement, {@link plannedOnEachCall}
 * (rows just written, in the week's partition, which may have been empty when a plan was cached).
 */
export function findDeliveryRoutes(client: SqlClient, ids: string[]): Promise<DeliveryRoute[]> {
  return sqlQuery<DeliveryRoute>(
    client,
    plannedOnEachCall(
      sql`SELECT ${rawSql(DELIVERY_ROUTE_COLUMNS)} FROM webhook_deliveries WHERE id = ANY(${ids}::text[])`,
    ),
  );
}

/**
 * SQL true for a row `d` among its endpoint's ordered deliveries still waiting (DESIGN §16): the predicate of
 * `webhook_deliveries_ordered_idx`, written out as it is there so that the planner uses that index.
 */
const ORDERED_PENDING = rawSql("d.status = 'pending' AND d.ordered AND d.job_given_up_at IS NULL");

/** An ordered delivery at the head of its endpoint, with what its turn needs. */
export type OrderedHead = DeliveryRoute & Pick<WebhookDelivery, "scheduled_at"> & { paused: boolean };

/** The columns of an {@link OrderedHead} `d` of endpoint `w`. */
const ORDERED_HEAD_COLUMNS = rawSql(
  "d.id, d.endpoint_id, d.url, d.event_id, d.attempt, d.manual, d.fan_out_event_id, d.scheduled_at, w.paused",
);

/**
 * Marks delivery `id` ordered (DESIGN §16), while it is pending: a row of a FIFO endpoint written before the endpoint
 * was, or a row a pause holds. It then leaves the reconciler's due sweep for its endpoint's order.
 */
export async function markDeliveryOrdered(client: SqlClient, id: string): Promise<void> {
  await sqlQuery(
    client,
    sql`UPDATE webhook_deliveries d SET ordered = true
        WHERE d.id = ${id} AND ${rowStatusIs("d.status", "pending")} AND d.ordered IS NULL`,
  );
}

/**
 * Marks every pending delivery of endpoint `endpointId` made from `madeSince` on (a delivery id floor) ordered (DESIGN
 * §16), for an endpoint just made FIFO, so that the deliveries already waiting (retries among them) take their places
 * in its order. A row made before is no longer waiting on the retry schedule (its job was given up, or a pause already
 * ordered it), so only the endpoint's recent rows are read (`(endpoint_id, id)` from the floor), once per change.
 * @returns how many rows were marked
 */
export async function markEndpointDeliveriesOrdered(
  client: SqlClient,
  endpointId: string,
  madeSince: string,
): Promise<number> {
  const marked = await sqlQuery<{ id: string }>(
    client,
    sql`UPDATE webhook_deliveries d SET ordered = true
        WHERE d.endpoint_id = ${endpointId} AND d.id >= ${madeSince}
          AND ${rowStatusIs("d.status", "pending")} AND d.job_given_up_at IS NULL AND d.ordered IS NULL
        RETURNING d.id`,
  );
  return marked.length;
}

/**
 * The head of endpoint `endpointId`'s ordered deliveries: of its pending ordered rows whose job was not given up, the
 * one of the earliest event (event ids sort by creation time), then the earliest row; null when there is none. One
 * look-up in `webhook_deliveries_ordered_idx`.
 */
export async function findOrderedHead(client: SqlClient, endpointId: string): Promise<OrderedHead | null> {
  const [head] = await sqlQuery<OrderedHead>(
    client,
    sql`SELECT ${ORDERED_HEAD_COLUMNS}
        FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
        WHERE d.endpoint_id = ${endpointId} AND ${ORDERED_PENDING}
        ORDER BY d.event_id, d.id LIMIT 1`,
  );
  return head ?? null;
}

/**
 * The head ({@link findOrderedHead}) of every endpoint that has ordered deliveries waiting, in one statement whose
 * cost grows with the number of such endpoints, not of their rows: a loose index scan of
 * `webhook_deliveries_ordered_idx`, each step the first row of the next endpoint (DESIGN §10 "Sweeps").
 * @param limit - most heads read
 */
export function listOrderedHeads(client: SqlClient, limit: number): Promise<OrderedHead[]> {
  return sqlQuery<OrderedHead>(
    client,
    sql`WITH RECURSIVE heads AS (
          (SELECT d.endpoint_id, d.id FROM webhook_deliveries d WHERE ${ORDERED_PENDING}
           ORDER BY d.endpoint_id, d.event_id, d.id LIMIT 1)
          UNION ALL
          SELECT next.endpoint_id, next.id FROM heads h CROSS JOIN LATERAL (
            SELECT d.endpoint_id, d.id FROM webhook_deliveries d
            WHERE ${ORDERED_PENDING} AND d.endpoint_id > h.endpoint_id
            ORDER BY d.endpoint_id, d.event_id, d.id LIMIT 1) next
        )
        SELECT ${ORDERED_HEAD_COLUMNS}
        FROM (SELECT * FROM heads LIMIT ${limit}) h
        JOIN webhook_deliveries d ON d.id = h.id
        JOIN webhook_endpoints w ON w.id = h.endpoint_id`,
  );
}

/**
 * Ends, as `dead` with error `paused_too_long` (DESIGN §16 "Pause"), up to `limit` of endpoint `endpointId`'s ordered
 * deliveries whose event was made before `eventsBefore` (an event id floor), oldest first, while the endpoint is still
 * paused.
 * @returns the ids of the rows ended (fewer than `limit` when no more are due)
 */
export async function expirePausedDeliveries(
  client: SqlClient,
  input: { endpointId: string; eventsBefore: string; now: Date; limit: number },
): Promise<string[]> {
  const rows = await sqlQuery<{ id: string }>(
    client,
    sql`UPDATE webhook_deliveries AS target
        SET status = 'dead', error = 'paused_too_long', attempted_at = ${input.now}, next_attempt_at = NULL
        FROM (
          SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.paused
          WHERE d.endpoint_id = ${input.endpointId} AND ${ORDERED_PENDING} AND d.event_id < ${input.eventsBefore}
          ORDER BY d.event_id, d.id LIMIT ${input.limit}
        ) old
        WHERE target.id = old.id AND ${rowStatusIs("target.status", "pending")}
        RETURNING target.id`,
  );
  return rows.map((row) => row.id);
}

/** This repository bound to connection `c` (`createRepositories`): each function without its client. */
export function deliveriesRepository(c: Connection) {
  return {
    ...onSql(c, {
      loadPendingDeliveries,
      loadSellerDelivery,
      writeDeliveryAttempts,
      findDeliveryRoutes,
      markDeliveryOrdered,
      markEndpointDeliveriesOrdered,
      findOrderedHead,
      listOrderedHeads,
      expirePausedDeliveries,
    }),
    ...onPrisma(c, {
      insertWebhookDelivery,
      findWebhookDeliveryOrThrow,
      findSellerWebhookDelivery,
      listEndpointWebhookDeliveriesPage,
      searchWebhookDeliveriesPage,
      markDeliveriesGivenUp,
      insertRecoveryDeliveries,
    }),
    ...onPool(c, { forEachDueDeliveryPage }),
  };
}
