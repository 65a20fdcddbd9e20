/**
 * Writing a charge's state changes together with their events (DESIGN §1, §5): every change from `pending` is made
 * only while the charge still is (a locked read checked before the update, or a conditional update), so two writers
 * cannot both win, and is followed, in the same database transaction, by its `transaction.*` event and fan-out, whose
 * `data.object` is the charge as `GET` returns it at that moment. One charge at a time ({@link transitionTransaction}),
 * or a batch in one statement (the events of {@link planTransactionEvents} written by the batch's statement).
 */
import {
  lockChargeStatus,
  updateCharge,
  type EventsToWrite,
  type Prisma,
  type SqlClient,
  type SqlWrite,
  type Transaction,
} from "@lm/db";
import type { SubscribableEventType } from "../events/event-types";
import { planEvents, recordEvent, type EventInput, type RecordedEvent } from "../events/record-event";
import { serializeTransaction, withoutChargeFields } from "./transaction.serializer";

/** The `transaction.*` types of the event catalog. */
export type TransactionEventType = Extract<SubscribableEventType, `transaction.${string}`>;

/**
 * The `type` event of `transaction` as it reads at `now`, to its `postback_url` and subscribed endpoints; its object is
 * stored without the fields the charge keeps for good, which readers take from the charge (DESIGN §10 "No copies").
 */
export function transactionEvent(transaction: Transaction, type: TransactionEventType, now: Date): EventInput {
  return {
    scope: { storeId: transaction.store_id, mode: transaction.mode },
    type,
    object: withoutChargeFields(serializeTransaction(transaction, now)),
    postback: { transactionId: transaction.id, url: transaction.postback_url },
    now,
  };
}

/** Records `type` for `transaction` as it reads at `now` (see {@link transactionEvent}). */
export function recordTransactionEvent(
  tx: SqlClient,
  transaction: Transaction,
  type: TransactionEventType,
  now: Date,
): Promise<RecordedEvent> {
  return recordEvent(tx, transactionEvent(transaction, type, now));
}

/**
 * The `type` events of `transactions` (each as it reads after its change, at `now`), for a statement that writes
 * the charges' change and, for the charges it changed, their events (`changed`, in `eventWrites`).
 */
export function planTransactionEvents(
  transactions: Transaction[],
  type: TransactionEventType,
  now: Date,
): EventsToWrite {
  return planEvents(
    transactions.map((transaction) => ({ ...transactionEvent(transaction, type, now), subjectId: transaction.id })),
  );
}

/** The charge after a transition and the deliveries to enqueue after commit. */
export interface Transitioned {
  transaction: Transaction;
  deliveryIds: string[];
}

/**
 * Moves charge `id` out of `pending` when it still is and its `expires_at` is after `expiresAfter`, and records
 * `type`. The row is locked and read by id, then checked here: a `status = 'pending'` condition in the update would let
 * the planner, on statistics that counted few pending charges, read every pending charge through `(status,
 * expires_at)` (see `rowStatusIs` in `@lm/db`). Two writers cannot both win: the second waits for the first's lock and
 * then reads the changed row.
 * @param input.expiresAfter - e.g. now, so that an expired charge cannot be canceled, or a payment's time
 * @param input.data - the new status and its timestamps
 * @returns the updated charge, or `null` when it was not pending (or had expired): nothing was written
 */
export async function transitionTransaction(
  tx: Prisma.TransactionClient,
  input: {
    id: string;
    expiresAfter: Date;
    data: Prisma.TransactionUpdateInput;
    type: TransactionEventType;
    now: Date;
  },
): Promise<Transitioned | null> {
  const current = await lockChargeStatus(tx, input.id);
  if (current?.status !== "pending" || current.expires_at <= input.expiresAfter) return null;
  const transaction = await updateCharge(tx, input.id, { ...input.data, updated_at: input.now });
  const { deliveryIds } = await recordTransactionEvent(tx, transaction, input.type, input.now);
  return { transaction, deliveryIds };
}

/** Options of the use cases that write a charge from a merchant request (create, cancel). */
export interface TransactionWriteOptions {
  /**
   * A write committed atomically with the charge's own, given the written charge: the merchant API stores its
   * idempotent reply this way, so the reply and the write commit together or not at all. When it is conditional
   * (`orElse`) and changes no row, nothing is written and its error is thrown.
   */
  alsoWrite?: (transaction: Transaction) => SqlWrite | undefined;
}
