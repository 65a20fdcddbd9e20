/**
 * Use case: accept a batch of due-date charges (DESIGN §13 "Batches", the standard's `lotecobv`). The API reads each
 * item as `POST /v1/transactions` reads its body; this writes the batch and every item in one statement, each item
 * `pending` with the id and txid its charge will have, or `failed` with its refusal, and enqueues the batch's job after
 * commit (DESIGN §1): the worker makes the charges ({@link continueTransactionBatch}). A batch none of whose items is
 * left for the worker is `completed` at once, with its `transaction_batch.completed` event in the same statement.
 *
 * An item refused as it is read (its body, or an immediate charge: see the API's `batchItemSchema`) is `failed` like an
 * item the worker's creation refuses, and never stops the others: the standard's batch reports each `cobv` of a
 * `lotecobv` on its own (`status` and `problema` per charge), and an integrator importing a month's invoices gets all
 * their problems in one read of the items rather than a 400 for the first. Only what makes the body unreadable as a
 * batch (not an array, no item, more than 1,000) refuses the whole request.
 */
import type { IdempotentReply, NewTransactionBatch, NewTransactionBatchItem } from "@lm/db";
import { serializeError, MAX_BATCH_ITEMS } from "@lm/wire";
import { acquirerFor, acquirerNotConfigured } from "../acquirers";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { encryptDocument } from "../document-at-rest";
import { parseTaxDocument } from "../documents";
import { validationFailed, type ApiError } from "../errors";
import { enqueueDeliveries } from "../events/record-event";
import { newId } from "../ids";
import { enqueueAfterCommit } from "../jobs/enqueue-after-commit";
import { externalIdTaken, type CreateTransactionInput } from "../transactions/create-transaction";
import { generateTxid } from "../transactions/txid";
import { planBatchCompletedEvent } from "./transaction-batch-events";

/** What an item keeps in a JSON column (its request, its refusal). */
type StoredJson = NewTransactionBatchItem["error"];

/** A due-date charge's creation request: `POST /v1/transactions`' body with `due_date`. */
export type DueDateChargeInput = CreateTransactionInput & { due_date: string };

/** One item of a batch as the API read it: a due-date charge's request, or its refusal. */
export type TransactionBatchItemInput = { input: DueDateChargeInput } | { refused: ApiError };

/** How a batch is written. */
export interface CreateTransactionBatchOptions {
  /** The creating request's `X-Request-Id`: the `request_id` of every item's refusal. */
  requestId: string;
  /**
   * The idempotent reply to store with the batch's own statement, given the batch: the merchant API keeps its reply
   * this way, so the reply and the batch commit together or not at all.
   */
  reply?: (batch: NewTransactionBatch) => IdempotentReply | undefined;
}

/** Associated data of an item's stored customer document: the batch, the item and the field. */
export function batchItemDocumentContext(batchId: string, index: number): string {
  return `${batchId}:${index}:customer_document`;
}

/**
 * Writes a batch of `items` for `merchant` and enqueues its job: each item `pending` with a charge id and txid of its
 * own, or `failed` with its refusal's envelope.
 * @returns the batch as written (`processing`, or `completed` when every item was refused)
 * @throws ApiError `validation_failed` (param `transactions`) for no item or more than {@link MAX_BATCH_ITEMS};
 *   `acquirer_not_configured` (503) in a mode without an acquirer, as `POST /v1/transactions` (nothing written)
 */
export async function createTransactionBatch(
  deps: UseCaseDeps,
  merchant: MerchantScope,
  items: TransactionBatchItemInput[],
  options: CreateTransactionBatchOptions,
): Promise<NewTransactionBatch> {
  if (items.length === 0 || items.length > MAX_BATCH_ITEMS) {
    throw validationFailed(`A batch holds 1 to ${MAX_BATCH_ITEMS} charges.`, "transactions");
  }
  if ((await acquirerFor(deps, merchant.mode)) === null) throw acquirerNotConfigured(merchant.mode, "register charges");

  const now = deps.now();
  const id = newId("transactionBatch", now.getTime());
  const rows = withoutRepeatedExternalIds(items).map((item, index) =>
    itemRow(deps, id, index, item, options.requestId, now),
  );
  const failed = rows.filter((row) => row.status === "failed").length;
  const completed = failed === rows.length;
  const batch: NewTransactionBatch = {
    id,
    store_id: merchant.storeId,
    mode: merchant.mode,
    status: completed ? "completed" : "processing",
    total: rows.length,
    succeeded: 0,
    failed,
    request_id: options.requestId,
    created_at: now,
    completed_at: completed ? now : null,
  };
  const deliveryIds = await deps.repos.transactionBatches.insertTransactionBatch({
    batch,
    items: rows,
    events: completed ? planBatchCompletedEvent(batch, now) : undefined,
    reply: options.reply?.(batch),
  });
  if (completed) await enqueueDeliveries(deps, deliveryIds);
  // The job id is the batch's: a repeat of this enqueue, or the reconciler's offer, is a no-op while it runs.
  else await enqueueAfterCommit(deps, "transaction-batch", [{ data: { batchId: id }, jobId: id }]);
  return batch;
}

/**
 * `items` with each one that repeats an earlier item's `external_id` refused as a charge with that `external_id`
 * would be (`invalid_state`, param `external_id`): its charges are made a page at a time, so without this which of the
 * two got the id would depend on timing; this way the first in the batch always does.
 */
function withoutRepeatedExternalIds(items: TransactionBatchItemInput[]): TransactionBatchItemInput[] {
  const seen = new Set<string>();
  return items.map((item) => {
    const externalId = "input" in item ? item.input.external_id : undefined;
    if (externalId === undefined) return item;
    if (!seen.has(externalId)) {
      seen.add(externalId);
      return item;
    }
    return { refused: externalIdTaken() };
  });
}

/**
 * Item `index` of batch `batchId` as written: a request's charge id and txid chosen now, and its customer's document
 * kept only as an envelope; a refusal as its envelope, `failed` at once.
 */
function itemRow(
  deps: UseCaseDeps,
  batchId: string,
  index: number,
  item: TransactionBatchItemInput,
  requestId: string,
  now: Date,
): NewTransactionBatchItem {
  const refused = (error: ApiError): NewTransactionBatchItem => ({
    index,
    status: "failed",
    request: null,
    transaction_id: null,
    txid: null,
    error: serializeError(error, requestId) as unknown as StoredJson,
    completed_at: now,
  });
  if ("refused" in item) return refused(item.refused);
  const { input } = item;
  const { customer } = input;
  const document = customer === undefined ? null : parseTaxDocument(customer.document);
  // The API's schema checked the document already; one that does not read is never kept, in clear least of all.
  if (customer !== undefined && document === null) {
    return refused(validationFailed("Document must be a valid CPF or CNPJ.", "customer.document"));
  }
  const context = batchItemDocumentContext(batchId, index);
  const stored =
    customer === undefined || document === null
      ? input
      : {
          ...input,
          customer: { ...customer, document: encryptDocument(deps.config.encryptionKey, document.digits, context) },
        };
  return {
    index,
    status: "pending",
    request: stored as unknown as StoredJson,
    transaction_id: newId("transaction", now.getTime()),
    txid: generateTxid(),
    error: null,
    completed_at: null,
  };
}
