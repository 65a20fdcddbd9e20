/**
 * A batch's one event, `transaction_batch.completed` (DESIGN §13 "Batches"), to its store's subscribed endpoints (a
 * batch has no postback URL): written in the statement that completes the batch, its object the batch as
 * `GET /v1/transaction-batches/{id}` returns it then.
 */
import type { EventsToWrite, NewTransactionBatch } from "@lm/db";
import { serializeTransactionBatch } from "@lm/wire";
import { planEvents } from "../events/record-event";

/** The `transaction_batch.completed` event of `batch` (as it reads once completed), at `now`, ready to write. */
export function planBatchCompletedEvent(batch: NewTransactionBatch, now: Date): EventsToWrite {
  return planEvents([
    {
      scope: { storeId: batch.store_id, mode: batch.mode },
      type: "transaction_batch.completed",
      object: serializeTransactionBatch(batch),
      subjectId: batch.id,
      now,
    },
  ]);
}
