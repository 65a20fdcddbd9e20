/**
 * Wire form of a batch of due-date charges and of its items (DESIGN §13 "Batches", the standard's `lotecobv`): the
 * replies of `/v1/transaction-batches` and the object of `transaction_batch.completed`.
 */
import { Type, type Static } from "@sinclair/typebox";
import type { TransactionBatch as TransactionBatchRow, TransactionBatchItem as TransactionBatchItemRow } from "@lm/db";
import { Mode } from "./common";
import { ErrorEnvelope } from "./errors";
import { iso, listOf, Nullable, StringEnum, Timestamp, wireObject } from "./schema";
import { Transaction } from "./transactions";

/** Most items a batch holds (DESIGN §13). */
export const MAX_BATCH_ITEMS = 1_000;

/** A batch of due-date charges, created by the worker one item at a time. */
export const TransactionBatch = wireObject(
  "TransactionBatch",
  Type.Object(
    {
      id: Type.String({ pattern: "^tbt_[0-9A-HJKMNP-TV-Z]{26}$" }),
      object: Type.Literal("transaction_batch"),
      mode: Mode,
      status: StringEnum(["processing", "completed"], {
        description:
          "`processing` while any item is `pending`; `completed` once every item's charge was created or refused (then `transaction_batch.completed` is sent).",
      }),
      total: Type.Integer({ minimum: 1, maximum: MAX_BATCH_ITEMS, description: "Items in the batch." }),
      succeeded: Type.Integer({ minimum: 0, description: "Items whose charge was created, so far." }),
      failed: Type.Integer({ minimum: 0, description: "Items refused, so far; each item says why." }),
      created_at: Timestamp,
      completed_at: Nullable(Timestamp),
    },
    { description: 'A batch of due-date charges (DESIGN §13 "Batches").' },
  ),
);
/** TransactionBatch as sent. */
export type TransactionBatch = Static<typeof TransactionBatch>;

/** A page of TransactionBatch objects. */
export const TransactionBatchList = listOf("TransactionBatchList", TransactionBatch);
/** TransactionBatchList as sent. */
export type TransactionBatchList = Static<typeof TransactionBatchList>;

/** One item of a batch: its charge once created, or why it was refused. */
export const TransactionBatchItem = wireObject(
  "TransactionBatchItem",
  Type.Object(
    {
      object: Type.Literal("transaction_batch_item"),
      index: Type.Integer({
        minimum: 0,
        maximum: MAX_BATCH_ITEMS - 1,
        description: "The item's position in the request's `transactions`, from 0.",
      }),
      status: StringEnum(["pending", "succeeded", "failed"], {
        description: "`pending` until the worker has created its charge (`succeeded`) or met its refusal (`failed`).",
      }),
      transaction: Nullable(Transaction, {
        description: "The charge, as `GET /v1/transactions/{id}` returns it now, once `succeeded`; null otherwise.",
      }),
      error: Nullable(ErrorEnvelope, {
        description:
          "Once `failed`: what `POST /v1/transactions` would have answered for this item's body (`param` names a field of the item), with the batch's creating request's `request_id`; null otherwise.",
      }),
    },
    { description: "One item of a batch of due-date charges." },
  ),
);
/** TransactionBatchItem as sent. */
export type TransactionBatchItem = Static<typeof TransactionBatchItem>;

/** A page of TransactionBatchItem objects. */
export const TransactionBatchItemList = listOf("TransactionBatchItemList", TransactionBatchItem);
/** TransactionBatchItemList as sent. */
export type TransactionBatchItemList = Static<typeof TransactionBatchItemList>;

/** Serializes batch `batch`. */
export function serializeTransactionBatch(batch: Omit<TransactionBatchRow, "number">): TransactionBatch {
  return {
    id: batch.id,
    object: "transaction_batch",
    mode: batch.mode,
    status: batch.status,
    total: batch.total,
    succeeded: batch.succeeded,
    failed: batch.failed,
    created_at: batch.created_at.toISOString(),
    completed_at: iso(batch.completed_at),
  };
}

/**
 * Serializes item `item` of a batch.
 * @param transaction - its charge's wire form as it reads now, for a `succeeded` item; null otherwise
 */
export function serializeTransactionBatchItem(
  item: TransactionBatchItemRow,
  transaction: Transaction | null,
): TransactionBatchItem {
  return {
    object: "transaction_batch_item",
    index: item.index,
    status: item.status,
    transaction: item.status === "succeeded" ? transaction : null,
    error: item.status === "failed" ? (item.error as ErrorEnvelope) : null,
  };
}
