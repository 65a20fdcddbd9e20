/**
 * Batches of due-date charges (`transaction_batches` and `transaction_batch_items`, DESIGN §13 "Batches"). The API
 * writes a batch with all its items in one statement before its job is enqueued (DESIGN §1); the worker reads the
 * pending items a page at a time, records each page's outcomes with the batch's counts in one statement, and completes
 * the batch with its `transaction_batch.completed` event in another. Item rows are written and updated from arrays
 * (`unnest`), so each statement has one text whatever the batch's size, and is prepared once (see `sqlQuery`).
 */
import { onSql, onPrisma, type Connection } from "../connection";
import type { DbClient } from "../client";
import type {
  Mode,
  Prisma,
  TransactionBatch,
  TransactionBatchItem,
  TransactionBatchItemStatus,
} from "../generated/client";
import type { PageArgs } from "../page";
import { insertWrite, runWrites, sql, sqlQuery, type SqlClient } from "../sql";
import { changeRowsWithEvents, eventWrites, writtenDeliveryIds, type EventsToWrite } from "./events.repository";
import { idempotentReplyWrite, type IdempotentReply } from "./idempotency-keys.repository";

/** A batch as the API writes it (`number` is PostgreSQL's). */
export type NewTransactionBatch = Omit<TransactionBatch, "number">;

/** An item as the API writes it. */
export type NewTransactionBatchItem = Omit<TransactionBatchItem, "batch_id">;

/** What the API writes at once: the batch, its items, and its events when it is complete already. */
export interface TransactionBatchToWrite {
  batch: NewTransactionBatch;
  items: NewTransactionBatchItem[];
  /** `transaction_batch.completed` of a batch none of whose items is left for the worker; else none. */
  events?: EventsToWrite;
  /** The request's idempotent reply. */
  reply?: IdempotentReply;
}

/** The JSON text of each of `values`, SQL NULL for null: a `jsonb[]` parameter. */
function jsonArray(values: Array<Prisma.JsonValue | null>): Array<string | null> {
  return values.map((value) => (value === null ? null : JSON.stringify(value)));
}

/**
 * Inserts the batch, its items, its events (if any) and their first deliveries, and the idempotent reply, in ONE
 * statement.
 * @returns the ids of the delivery rows written
 * @throws `reply.takenOver()` when the reply's claim was taken over (nothing written)
 */
export async function insertTransactionBatch(client: SqlClient, toWrite: TransactionBatchToWrite): Promise<string[]> {
  const { batch, items, events, reply } = toWrite;
  const itemRows = sql`INSERT INTO transaction_batch_items
      (batch_id, index, status, request, transaction_id, txid, error, completed_at)
    SELECT ${batch.id}, i.index, i.status::transaction_batch_item_status, i.request, i.transaction_id, i.txid, i.error,
      i.completed_at
    FROM unnest(${items.map((item) => item.index)}::int[], ${items.map((item) => item.status)}::text[],
      ${jsonArray(items.map((item) => item.request))}::jsonb[], ${items.map((item) => item.transaction_id)}::text[],
      ${items.map((item) => item.txid)}::text[], ${jsonArray(items.map((item) => item.error))}::jsonb[],
      ${items.map((item) => item.completed_at)}::timestamptz[])
      AS i(index, status, request, transaction_id, txid, error, completed_at)`;
  const eventRows = events === undefined ? [] : Object.values(eventWrites(events));
  const written = await runWrites(client, [
    insertWrite("transaction_batches", [batch], { mode: "mode", status: "transaction_batch_status" }),
    { sql: itemRows },
    ...eventRows,
    ...(reply ? [idempotentReplyWrite(reply)] : []),
  ]);
  return events === undefined ? [] : writtenDeliveryIds(events, written[3] ?? 0);
}

/** Batch `id`, or null. By id alone: the caller checks the store and mode. */
export function findTransactionBatchById(db: DbClient, id: string): Promise<TransactionBatch | null> {
  return db.transactionBatch.findUnique({ where: { id } });
}

/** One page of a store's batches of `mode`, in the page's order. */
export function listTransactionBatchesPage(
  db: DbClient,
  scope: { storeId: string; mode: Mode },
  page: PageArgs,
): Promise<TransactionBatch[]> {
  return db.transactionBatch.findMany({
    where: { store_id: scope.storeId, mode: scope.mode, ...(page.id === undefined ? {} : { id: page.id }) },
    orderBy: page.orderBy,
    take: page.take,
  });
}

/** One page of a batch's items: after or before an index, in index order or its reverse, optionally of one status. */
export interface BatchItemsPage {
  status?: TransactionBatchItemStatus;
  /** `{gt}` after a `starting_after` index, `{lt}` before an `ending_before` one. */
  index?: { gt: number } | { lt: number };
  /** `asc` (the request's order) normally; `desc` when walking back from `ending_before`. */
  order: "asc" | "desc";
  take: number;
}

/** One page of batch `batchId`'s items (see {@link BatchItemsPage}), through the primary key `(batch_id, index)`. */
export function listTransactionBatchItemsPage(
  db: DbClient,
  batchId: string,
  page: BatchItemsPage,
): Promise<TransactionBatchItem[]> {
  return db.transactionBatchItem.findMany({
    where: {
      batch_id: batchId,
      ...(page.status === undefined ? {} : { status: page.status }),
      ...(page.index === undefined ? {} : { index: page.index }),
    },
    orderBy: { index: page.order },
    take: page.take,
  });
}

/** Up to `limit` of batch `batchId`'s `pending` items after index `afterIndex`, in index order. */
export function listPendingTransactionBatchItems(
  db: DbClient,
  batchId: string,
  afterIndex: number,
  limit: number,
): Promise<TransactionBatchItem[]> {
  return db.transactionBatchItem.findMany({
    where: { batch_id: batchId, status: "pending", index: { gt: afterIndex } },
    orderBy: { index: "asc" },
    take: limit,
  });
}

/** How one item ended. */
export interface TransactionBatchItemOutcome {
  index: number;
  status: Exclude<TransactionBatchItemStatus, "pending">;
  /** The refusal's envelope of a `failed` item; null for a `succeeded` one. */
  error: Prisma.JsonValue | null;
}

/**
 * ONE statement: records `outcomes` on batch `batchId`'s items still `pending` (an item another run recorded first is
 * left as it is) and adds those it recorded to the batch's `succeeded` and `failed`.
 * @returns how many items of each status this call recorded
 */
export async function recordTransactionBatchItemOutcomes(
  client: SqlClient,
  batchId: string,
  outcomes: TransactionBatchItemOutcome[],
  at: Date,
): Promise<{ succeeded: number; failed: number }> {
  const [recorded] = await sqlQuery<{ succeeded: number; failed: number }>(
    client,
    sql`WITH outcome AS (
          SELECT * FROM unnest(${outcomes.map((o) => o.index)}::int[], ${outcomes.map((o) => o.status)}::text[],
            ${jsonArray(outcomes.map((o) => o.error))}::jsonb[]) AS o(index, status, error)
        ), recorded AS (
          UPDATE transaction_batch_items i
          SET status = outcome.status::transaction_batch_item_status, error = outcome.error, completed_at = ${at}
          FROM outcome
          WHERE i.batch_id = ${batchId} AND i.index = outcome.index AND i.status = 'pending'
          RETURNING i.status
        ), counted AS (
          SELECT count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded,
            count(*) FILTER (WHERE status = 'failed')::int AS failed
          FROM recorded
        ), counts_added AS (
          -- Run though nothing reads it, as every data-modifying CTE is.
          UPDATE transaction_batches b SET succeeded = b.succeeded + counted.succeeded, failed = b.failed + counted.failed
          FROM counted WHERE b.id = ${batchId}
          RETURNING 1
        )
        SELECT succeeded, failed FROM counted`,
  );
  return recorded ?? { succeeded: 0, failed: 0 };
}

/** How many of batch `batchId`'s items are in each status. */
export async function countTransactionBatchItems(
  client: SqlClient,
  batchId: string,
): Promise<Record<TransactionBatchItemStatus, number>> {
  const [counts] = await sqlQuery<Record<TransactionBatchItemStatus, number>>(
    client,
    sql`SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending,
          count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded,
          count(*) FILTER (WHERE status = 'failed')::int AS failed
        FROM transaction_batch_items WHERE batch_id = ${batchId}`,
  );
  return counts ?? { pending: 0, succeeded: 0, failed: 0 };
}

/**
 * ONE statement: batch `input.id` becomes `completed` at `input.at` with its final counts, and its events of
 * `input.events` are written, only while it is `processing` and none of its items is `pending` (so of two runs that
 * finish together, one completes it and writes its event).
 * @returns whether this call completed it, and the ids of the delivery rows written
 */
export async function completeTransactionBatch(
  client: SqlClient,
  input: { id: string; succeeded: number; failed: number; at: Date; events: EventsToWrite },
): Promise<{ completed: boolean; deliveryIds: string[] }> {
  const { changedIds, deliveryIds } = await changeRowsWithEvents(client, {
    changes: sql`completed AS (
          UPDATE transaction_batches b
          SET status = 'completed', succeeded = ${input.succeeded}, failed = ${input.failed}, completed_at = ${input.at}
          WHERE b.id = ${input.id} AND b.status = 'processing'
            AND NOT EXISTS (SELECT 1 FROM transaction_batch_items i WHERE i.batch_id = b.id AND i.status = 'pending')
          RETURNING b.id
        )`,
    changed: "completed",
    events: input.events,
  });
  return { completed: changedIds.length === 1, deliveryIds };
}

/**
 * The ids of up to `limit` batches still `processing`, created before `createdBefore`, oldest first, through the
 * partial index `transaction_batches_processing_idx` (`(id) WHERE status = 'processing'`, written out so it always
 * applies): the reconciler offers their jobs again, covering a job lost with Redis.
 */
export async function listProcessingTransactionBatchIds(
  client: SqlClient,
  createdBefore: Date,
  limit: number,
): Promise<string[]> {
  const rows = await sqlQuery<{ id: string }>(
    client,
    sql`SELECT id FROM transaction_batches WHERE status = 'processing' AND created_at < ${createdBefore}::timestamptz
        ORDER BY id LIMIT ${limit}`,
  );
  return rows.map(({ id }) => id);
}

/** This repository bound to connection `c` (`createRepositories`): each function without its client. */
export function transactionBatchesRepository(c: Connection) {
  return {
    ...onSql(c, {
      insertTransactionBatch,
      recordTransactionBatchItemOutcomes,
      countTransactionBatchItems,
      completeTransactionBatch,
      listProcessingTransactionBatchIds,
    }),
    ...onPrisma(c, {
      findTransactionBatchById,
      listTransactionBatchesPage,
      listTransactionBatchItemsPage,
      listPendingTransactionBatchItems,
    }),
  };
}
