/**
 * The worker's part of a batch (DESIGN §13 "Batches", §1): its `transaction-batch` job makes each pending item's charge
 * through `createTransaction`, the one creation (so each charge is registered at the mode's acquirer, written with its
 * `transaction.created` event and announced exactly as one made by `POST /v1/transactions`), a page of items at a
 * time, recording each page's outcomes; then it completes the batch with its `transaction_batch.completed` event.
 *
 * Safe to run again at any point, and at once with itself: an item's charge has the id and txid chosen when the batch
 * was written, so a run that repeats a creation (the worker died after writing a charge and before recording its item,
 * or two runs meet on one page) finds the charge already made (`transactions.id` and `.txid` are unique) and records it
 * as the item's; an item's outcome is recorded only while it is still `pending`, and the batch is completed only once.
 * A run that dies leaves its job to BullMQ (a stalled job runs again) or, if Redis lost it, to the reconciler, which
 * offers every batch still `processing` (`apps/worker/src/sweepers/processing-batches.ts`).
 *
 * Where the mode's acquirer registers batches (a bank: `PUT /lotecobv/{id}`, the batch's `number` as the standard's
 * integer id), each run first plans every pending item and has the bank register them all in one request
 * ({@link registerAtBank}); a charge the bank refused fails its item with the bank's reason, one it registered is then
 * made reading the bank's charge back, and one it is still working on waits for a later run (the reconciler offers the
 * batch again). The sandbox registers nothing, so test charges are made one by one.
 */
import { isTransientConnectionError, type TransactionBatch, type TransactionBatchItem } from "@lm/db";
import { MAX_BATCH_ITEMS, serializeError } from "@lm/wire";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { decryptDocument } from "../document-at-rest";
import { ApiError } from "../errors";
import { enqueueDeliveries } from "../events/record-event";
import { acquirerFor, type ChargeRegistration } from "../acquirers";
import { createTransaction, planTransaction } from "../transactions/create-transaction";
import type { TransactionBatchItemOutcome } from "@lm/db";
import { batchItemDocumentContext, type DueDateChargeInput } from "./create-transaction-batch";
import { planBatchCompletedEvent } from "./transaction-batch-events";

/**
 * Items whose charges are made at once, and recorded together. Each creation waits on PostgreSQL (and, in live mode,
 * on the bank) more than it computes, so a page of them overlaps those waits.
 */
export const BATCH_PAGE_SIZE = 20;

/** What one run of {@link continueTransactionBatch} did. */
export interface BatchRunProgress {
  /** Items this run recorded as `succeeded` (a charge made, or found made by an earlier run). */
  succeeded: number;
  /** Items this run recorded as `failed`. */
  failed: number;
  /** Whether the batch is complete (by this run or another); false also when there is no such batch. */
  completed: boolean;
}

/**
 * Runs batch `batchId` from its first pending item to its end (the `transaction-batch` job), then completes it.
 * @param options.maxItems - stop after this many items, leaving the rest `pending` (tests stand in for a crash)
 * @returns what this run did
 * @throws what a transient database or Redis failure throws (the job runs again later); nothing else: an item's
 *   refusal, or an error of our own while making its charge, is that item's `failed` outcome
 */
export async function continueTransactionBatch(
  deps: UseCaseDeps,
  batchId: string,
  options: { maxItems?: number } = {},
): Promise<BatchRunProgress> {
  const progress: BatchRunProgress = { succeeded: 0, failed: 0, completed: false };
  const batch = await deps.repos.transactionBatches.findTransactionBatchById(batchId);
  if (batch === null) return progress;
  if (batch.status === "completed") return { ...progress, completed: true };
  const store = await deps.repos.sellers.getStoreById(batch.store_id);
  const merchant = { storeId: batch.store_id, mode: batch.mode, storeName: store.name };

  const atBank = await registerAtBank(deps, merchant, batch);
  if (atBank !== null) {
    const recorded = await deps.repos.transactionBatches.recordTransactionBatchItemOutcomes(
      batchId,
      atBank.refused,
      deps.now(),
    );
    progress.failed += recorded.failed;
  }

  let after = -1;
  let left = options.maxItems ?? Infinity;
  while (left > 0) {
    const page = await deps.repos.transactionBatches.listPendingTransactionBatchItems(
      batchId,
      after,
      Math.min(BATCH_PAGE_SIZE, left),
    );
    if (page.length === 0) break;
    after = page[page.length - 1]!.index;
    left -= page.length;
    // Items the bank has not settled yet wait for a later run.
    const items = atBank === null ? page : page.filter((item) => atBank.registered.has(item.txid ?? ""));
    if (items.length === 0) continue;
    const outcomes = await makeCharges(deps, merchant, batch, items, atBank !== null);
    const recorded = await deps.repos.transactionBatches.recordTransactionBatchItemOutcomes(
      batchId,
      outcomes,
      deps.now(),
    );
    progress.succeeded += recorded.succeeded;
    progress.failed += recorded.failed;
  }
  return { ...progress, completed: await completeIfDone(deps, batch) };
}

/**
 * The outcome of each of `items`: its charge made now, or found made by an earlier run, or its refusal.
 * @throws the first transient database or Redis failure met, once every item's creation has ended (the charges made
 *   meanwhile are found by the next run)
 */
async function makeCharges(
  deps: UseCaseDeps,
  merchant: MerchantScope & { storeName: string },
  batch: TransactionBatch,
  items: TransactionBatchItem[],
  registered: boolean,
): Promise<TransactionBatchItemOutcome[]> {
  const chargeIds = items.flatMap((item) => (item.transaction_id === null ? [] : [item.transaction_id]));
  const made = new Set((await deps.repos.charges.findChargesByIds(chargeIds)).map((charge) => charge.id));
  const settled = await Promise.allSettled(
    items.map((item) =>
      item.transaction_id !== null && made.has(item.transaction_id)
        ? Promise.resolve<TransactionBatchItemOutcome>({ index: item.index, status: "succeeded", error: null })
        : makeCharge(deps, merchant, batch, item, registered),
    ),
  );
  const outage = settled.find((result) => result.status === "rejected");
  if (outage) throw outage.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<TransactionBatchItemOutcome>).value);
}

/**
 * Makes item `item`'s charge with `createTransaction` under its pre-assigned id and txid (`registered`: a bank
 * registered it in the batch, so its charge is read back).
 * @returns `succeeded`, or `failed` with the envelope of what refused it: the creation's `ApiError`, or an
 *   `internal_error` for an error of ours (logged), so that one item never holds the batch
 * @throws a transient database or Redis failure
 */
async function makeCharge(
  deps: UseCaseDeps,
  merchant: MerchantScope & { storeName: string },
  batch: TransactionBatch,
  item: TransactionBatchItem,
  registered: boolean,
): Promise<TransactionBatchItemOutcome> {
  try {
    await createTransaction(deps, merchant, storedInput(deps, batch.id, item), {
      preassigned: preassignedOf(item),
      registered,
    });
    return { index: item.index, status: "succeeded", error: null };
  } catch (err) {
    return failedItem(deps, batch, item, err);
  }
}

/**
 * The `failed` outcome of item `item` for `err`: the envelope of the creation's `ApiError`, or an `internal_error` for
 * an error of ours (logged), so that one item never holds the batch.
 * @throws `err` when it is a transient database or Redis failure (the run is tried again)
 */
function failedItem(
  deps: UseCaseDeps,
  batch: TransactionBatch,
  item: TransactionBatchItem,
  err: unknown,
): TransactionBatchItemOutcome {
  if (isTransientConnectionError(err)) throw err;
  if (!(err instanceof ApiError)) {
    deps.logger.error("batch item failed", { batch_id: batch.id, index: item.index, err });
  }
  const refusal = err instanceof ApiError ? err : new ApiError("internal_error", "An internal error occurred.");
  const error = serializeError(refusal, batch.request_id) as unknown as TransactionBatchItemOutcome["error"];
  return { index: item.index, status: "failed", error };
}

/**
 * A pending item's pre-assigned charge id and txid.
 * @throws Error when it has none (only an item refused as it was read lacks them, and it is never pending)
 */
function preassignedOf(item: TransactionBatchItem): { id: string; txid: string } {
  if (item.transaction_id === null || item.txid === null) throw new Error("a pending batch item has no charge id");
  return { id: item.transaction_id, txid: item.txid };
}

/**
 * Has the mode's acquirer register every pending item of `batch` at once, when it registers batches (a bank's
 * `PUT /lotecobv/{id}`), after planning each one (`planTransaction`: an item it refuses fails here, never sent).
 * @returns null when the acquirer has no batches (each charge is then registered on its own); else the items' txids
 *   the bank registered, and the `failed` outcomes of the items refused (by the plan or by the bank)
 * @throws ApiError `acquirer_unavailable` or `acquirer_rejected` when the bank cannot take the batch (the run is tried
 *   again); a transient database or Redis failure
 */
async function registerAtBank(
  deps: UseCaseDeps,
  merchant: MerchantScope & { storeName: string },
  batch: TransactionBatch,
): Promise<{ registered: Set<string>; refused: TransactionBatchItemOutcome[] } | null> {
  const acquirer = await acquirerFor(deps, merchant.mode);
  if (acquirer?.registerChargeBatch === undefined) return null;
  const pending = await deps.repos.transactionBatches.listPendingTransactionBatchItems(batch.id, -1, MAX_BATCH_ITEMS);
  const refused: TransactionBatchItemOutcome[] = [];
  const planned: Array<{ item: TransactionBatchItem; registration: ChargeRegistration }> = [];
  for (const item of pending) {
    try {
      const { registration } = await planTransaction(deps, merchant, storedInput(deps, batch.id, item), {
        preassigned: preassignedOf(item),
      });
      planned.push({ item, registration });
    } catch (err) {
      refused.push(failedItem(deps, batch, item, err));
    }
  }
  const registered = new Set<string>();
  if (planned.length === 0) return { registered, refused };
  const outcomes = await acquirer.registerChargeBatch({
    number: Number(batch.number),
    description: `Lote ${batch.id}`,
    charges: planned.map(({ registration }) => registration),
  });
  for (const { item, registration } of planned) {
    const outcome = outcomes.get(registration.txid);
    if (outcome?.status === "registered") registered.add(registration.txid);
    if (outcome?.status === "refused") {
      const reason = new ApiError("acquirer_rejected", `The acquirer refused the charge: ${outcome.reason}`);
      refused.push(failedItem(deps, batch, item, reason));
    }
  }
  return { registered, refused };
}

/** Item `item`'s creation request as the API read it, its customer's document decrypted. */
function storedInput(deps: UseCaseDeps, batchId: string, item: TransactionBatchItem): DueDateChargeInput {
  const input = item.request as unknown as DueDateChargeInput;
  if (input.customer === undefined) return input;
  const context = batchItemDocumentContext(batchId, item.index);
  const document = decryptDocument(deps.config.encryptionKey, input.customer.document, context);
  return { ...input, customer: { ...input.customer, document } };
}

/**
 * Completes `batch` with its final counts and `transaction_batch.completed` when none of its items is pending, and
 * enqueues the event's deliveries.
 * @returns whether the batch is complete (by this call or another run)
 */
async function completeIfDone(deps: UseCaseDeps, batch: TransactionBatch): Promise<boolean> {
  const counts = await deps.repos.transactionBatches.countTransactionBatchItems(batch.id);
  if (counts.pending > 0) return false;
  const now = deps.now();
  const completed = {
    ...batch,
    status: "completed" as const,
    succeeded: counts.succeeded,
    failed: counts.failed,
    completed_at: now,
  };
  const { deliveryIds } = await deps.repos.transactionBatches.completeTransactionBatch({
    id: batch.id,
    succeeded: counts.succeeded,
    failed: counts.failed,
    at: now,
    events: planBatchCompletedEvent(completed, now),
  });
  await enqueueDeliveries(deps, deliveryIds);
  return true;
}
