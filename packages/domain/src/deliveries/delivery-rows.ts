/**
 * The statements of the delivery hot path (DESIGN §4 "Delivery rows"), each over many rows at once so that the worker
 * can batch concurrent jobs into one statement: one read loads the pending rows of many jobs with their events,
 * endpoints and postback secrets, and one statement records the outcomes of many attempts. Every write is conditional
 * on the row still being `pending`, so a job that runs twice writes once.
 */
import { rowStatusIs, sqlQuery, type Event, type SqlClient, type WebhookDelivery, type WebhookEndpoint } from "@lm/db";
import type { DeliveryError } from "../webhooks/retry-policy";

/** A pending delivery row with what its attempt needs. */
export type LoadedDelivery = WebhookDelivery & {
  event: Event;
  /** The account endpoint, for `destination_type` `endpoint`. */
  endpoint: WebhookEndpoint | null;
  /** The store's encrypted postback secret, for `destination_type` `postback`; null when none is configured. */
  postbackSecretCiphertext: string | null;
};

/** The outcome of an attempt as written on its row (DESIGN §4 "Delivery rows"). */
export interface AttemptRow {
  id: string;
  status: "succeeded" | "failed" | "dead";
  /** The URL the attempt went to (an endpoint's URL at send time), or the row's URL when nothing was sent. */
  url: string;
  error: DeliveryError | null;
  responseStatus: number | null;
  responseBodyExcerpt: string | null;
  durationMs: number | null;
  attemptedAt: Date;
  nextAttemptAt: Date | null;
}

/**
 * Access to delivery rows as the attempt needs it; the worker batches both across concurrent jobs (group commit).
 */
export interface DeliveryRows {
  /** The row `id` with its event, endpoint and postback secret; null when it is missing or no longer `pending`. */
  loadPending(id: string): Promise<LoadedDelivery | null>;
  /** Writes an attempt's outcome; resolves false when the row was no longer `pending` (another run wrote it). */
  write(row: AttemptRow): Promise<boolean>;
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
  secret_ciphertext: true,
  secret_prefix: true,
  previous_secret_ciphertext: true,
  previous_secret_expires_at: true,
  enabled: true,
  disabled_reason: true,
  auto_disabled_at: true,
  consecutive_dead_chains: true,
  last_succeeded_at: true,
  deleted_at: true,
  created_at: true,
  updated_at: true,
};
const DELIVERY_COLUMNS = Object.keys(DELIVERY_FIELDS);
const EVENT_COLUMNS = Object.keys(EVENT_FIELDS);
const ENDPOINT_COLUMNS = Object.keys(ENDPOINT_FIELDS);

/**
 * One statement for any number of rows: the pending deliveries among `$1` with their events, endpoints and (for
 * postbacks) their stores' secrets. Plain SQL rather than Prisma's `include` (three statements and the rows joined in
 * JavaScript): measured on 100 rows, 1.2 ms of CPU per load instead of 8 ms (issue 13).
 */
const LOAD_PENDING_SQL = `
  SELECT ${DELIVERY_COLUMNS.map((c) => `d.${c}`).join(", ")},
    ${EVENT_COLUMNS.map((c) => `e.${c} AS "event.${c}"`).join(", ")},
    ${ENDPOINT_COLUMNS.map((c) => `w.${c} AS "endpoint.${c}"`).join(", ")},
    s.postback_secret_ciphertext AS "postbackSecretCiphertext"
  FROM webhook_deliveries d
  JOIN events e ON e.id = d.event_id
  LEFT JOIN webhook_endpoints w ON w.id = d.endpoint_id
  LEFT JOIN stores s ON s.id = d.store_id AND d.destination_type = 'postback'
  WHERE d.id = ANY($1::text[]) AND ${rowStatusIs("d.status", "pending").text}`;

/** The fields of `row` named `<prefix>.<column>`, without the prefix. */
function nested<T>(row: Record<string, unknown>, prefix: string, columns: readonly string[]): T {
  return Object.fromEntries(columns.map((column) => [column, row[`${prefix}.${column}`]])) as T;
}

/** Loads the pending rows among `ids`, keyed by id, in one statement. */
export async function loadPendingDeliveries(db: SqlClient, ids: string[]): Promise<Map<string, LoadedDelivery>> {
  const rows = await sqlQuery<Record<string, unknown>>(db, LOAD_PENDING_SQL, [[...new Set(ids)]]);
  return new Map(
    rows.map((row) => {
      const delivery: LoadedDelivery = {
        ...(Object.fromEntries(DELIVERY_COLUMNS.map((c) => [c, row[c]])) as WebhookDelivery),
        event: nested<Event>(row, "event", EVENT_COLUMNS),
        endpoint: row["endpoint.id"] === null ? null : nested<WebhookEndpoint>(row, "endpoint", ENDPOINT_COLUMNS),
        postbackSecretCiphertext: (row.postbackSecretCiphertext as string | null) ?? null,
      };
      return [delivery.id, delivery];
    }),
  );
}

/**
 * `last_succeeded_at` is refreshed at most this often on a run of successes: the auto-disable rule reads it in days
 * (DESIGN §4), and skipping the write keeps the endpoint's row unlocked.
 */
const LAST_SUCCESS_PRECISION_MS = 60_000;

/**
 * Records the outcomes of `$1` … `$9` (one array per column), each only while its row is still `pending`, and resets
 * the endpoint of every success written (DESIGN §4 "Auto-disable", §8 "Early warning": a success ends the run of dead
 * chains and sets `last_succeeded_at` to the attempt's time). An endpoint already reset is left alone and unlocked:
 * one whose run is 0 and whose last success is less than {@link LAST_SUCCESS_PRECISION_MS} older than this one, so
 * thousands of successes a second to one endpoint do not queue on its row. The endpoints to reset are locked in id
 * order, so two batches of different workers cannot deadlock on them; a batch that waited re-checks the condition on
 * the row the other committed and skips what it reset.
 */
const WRITE_ATTEMPTS_SQL = `
  WITH written AS (
    UPDATE webhook_deliveries AS d
    SET status = v.status::delivery_status, url = v.url, error = v.error, response_status = v.response_status,
        response_body_excerpt = v.excerpt, duration_ms = v.duration_ms, attempted_at = v.attempted_at,
        next_attempt_at = v.next_attempt_at
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::int[], $8::timestamptz[],
                $9::timestamptz[])
      AS v(id, status, url, error, response_status, excerpt, duration_ms, attempted_at, next_attempt_at)
    WHERE d.id = v.id AND ${rowStatusIs("d.status", "pending").text}
    RETURNING d.id, d.endpoint_id, d.status, d.attempted_at
  ), succeeded AS (
    SELECT endpoint_id, max(attempted_at) AS at FROM written
    WHERE status = 'succeeded' AND endpoint_id IS NOT NULL
    GROUP BY endpoint_id
  ), stale AS (
    SELECT w.id, s.at FROM webhook_endpoints w JOIN succeeded s ON s.endpoint_id = w.id
    WHERE w.consecutive_dead_chains <> 0 OR w.last_succeeded_at IS NULL
       OR w.last_succeeded_at < s.at - interval '${LAST_SUCCESS_PRECISION_MS} milliseconds'
    ORDER BY w.id
    FOR UPDATE OF w
  ), reset AS (
    UPDATE webhook_endpoints w
    SET consecutive_dead_chains = 0, last_succeeded_at = greatest(w.last_succeeded_at, stale.at), updated_at = now()
    FROM stale WHERE w.id = stale.id
  )
  SELECT id FROM written`;

/**
 * Records attempt outcomes in one statement, each only if its row is still `pending`; a success also resets its
 * endpoint's run of dead chains (see {@link WRITE_ATTEMPTS_SQL}).
 * @param db - the worker's pool (batched writes) or the transaction that also writes the next attempt
 * @returns ids of the rows written
 */
export async function writeAttemptRows(db: SqlClient, rows: AttemptRow[]): Promise<Set<string>> {
  const column = <T>(pick: (row: AttemptRow) => T) => rows.map(pick);
  const iso = (date: Date | null) => (date === null ? null : date.toISOString());
  const written = await sqlQuery<{ id: string }>(db, WRITE_ATTEMPTS_SQL, [
    column((r) => r.id),
    column((r) => r.status),
    column((r) => r.url),
    column((r) => r.error),
    column((r) => r.responseStatus),
    column((r) => r.responseBodyExcerpt),
    column((r) => r.durationMs),
    column((r) => iso(r.attemptedAt)),
    column((r) => iso(r.nextAttemptAt)),
  ]);
  return new Set(written.map((row) => row.id));
}
