/**
 * The statements of the delivery hot path (DESIGN §4 "Delivery rows"), each over many rows at once so that the worker
 * can batch concurrent jobs into one statement: one read loads the pending rows of many jobs with their events,
 * endpoints and postback secrets, and one statement records the outcomes of many attempts. Every write is conditional
 * on the row still being `pending`, so a job that runs twice writes once.
 */
import { Prisma, type DbClient, type Event, type WebhookDelivery, type WebhookEndpoint } from "@lm/db";
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

/** Loads the pending rows among `ids`, keyed by id (two statements for any number of rows). */
export async function loadPendingDeliveries(db: DbClient, ids: string[]): Promise<Map<string, LoadedDelivery>> {
  const rows = await db.webhookDelivery.findMany({
    where: { id: { in: [...new Set(ids)] }, status: "pending" },
    include: { event: true, endpoint: true },
  });
  const postbackStores = [...new Set(rows.filter((r) => r.destination_type === "postback").map((r) => r.store_id))];
  const stores =
    postbackStores.length === 0
      ? []
      : await db.store.findMany({
          where: { id: { in: postbackStores } },
          select: { id: true, postback_secret_ciphertext: true },
        });
  const secrets = new Map(stores.map((store) => [store.id, store.postback_secret_ciphertext]));
  return new Map(
    rows.map((row) => [
      row.id,
      {
        ...row,
        postbackSecretCiphertext: row.destination_type === "postback" ? (secrets.get(row.store_id) ?? null) : null,
      },
    ]),
  );
}

/**
 * Records attempt outcomes in one statement, each only if its row is still `pending`.
 * @returns ids of the rows written
 */
export async function writeAttemptRows(db: DbClient, rows: AttemptRow[]): Promise<Set<string>> {
  const column = <T>(pick: (row: AttemptRow) => T) => rows.map(pick);
  const iso = (date: Date | null) => (date === null ? null : date.toISOString());
  const written = await db.$queryRaw<Array<{ id: string }>>(Prisma.sql`
    UPDATE webhook_deliveries AS d
    SET status = v.status::delivery_status, url = v.url, error = v.error, response_status = v.response_status,
        response_body_excerpt = v.excerpt, duration_ms = v.duration_ms, attempted_at = v.attempted_at,
        next_attempt_at = v.next_attempt_at
    FROM unnest(
      ${column((r) => r.id)}::text[], ${column((r) => r.status)}::text[], ${column((r) => r.url)}::text[],
      ${column((r) => r.error)}::text[],
      ${column((r) => r.responseStatus)}::int[], ${column((r) => r.responseBodyExcerpt)}::text[],
      ${column((r) => r.durationMs)}::int[], ${column((r) => iso(r.attemptedAt))}::timestamptz[],
      ${column((r) => iso(r.nextAttemptAt))}::timestamptz[]
    ) AS v(id, status, url, error, response_status, excerpt, duration_ms, attempted_at, next_attempt_at)
    WHERE d.id = v.id AND d.status = 'pending'
    RETURNING d.id`);
  return new Set(written.map((row) => row.id));
}
