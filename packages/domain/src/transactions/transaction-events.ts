/**
 * Writing a charge's state changes together with their events (DESIGN §1, §5): every change from `pending` is made
 * only while the charge still is (a locked read checked before the update, or a conditional update), so two writers
 * cannot both win, and is followed, in the same database transaction, by its `transaction.*` event and fan-out, whose
 * `data.object` is the charge as `GET` returns it at that moment. One charge at a time ({@link transitionTransaction}),
 * or a batch in one statement (the events of {@link planTransactionEvents} written by the batch's statement).
 */
import type { EventsToWrite, IdempotentReply, Transaction, Repositories } from "@lm/db";
import { withoutChargeFields } from "@lm/wire";
import type { SubscribableEventType } from "../events/event-types";
import { planEvents, recordEvent, type EventInput, type RecordedEvent } from "../events/record-event";
import { transactionObject } from "./due-date-charge";

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
    object: withoutChargeFields(transactionObject(transaction, now)),
    postback: { transactionId: transaction.id, url: transaction.postback_url },
    now,
  };
}

/** Records `type` for `transaction` as it reads at `now` (see {@link transactionEvent}). */
export function recordTransactionEvent(
  tx: Repositories,
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

/** Options of the use cases that write a charge from a merchant request (create, cancel). */
export interface TransactionWriteOptions {
  /**
   * The idempotent reply to store with the charge's own writes, given the written charge: the merchant API keeps its
   * reply this way, so the reply and the write commit together or not at all. When its claim was taken over, nothing
   * is written and its error is thrown.
   */
  reply?: (transaction: Transaction) => IdempotentReply | undefined;
}
