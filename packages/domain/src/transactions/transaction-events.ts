/**
 * Writing a charge's state changes together with their events (DESIGN §1, §5): every change from `pending` is a
 * conditional update (so two writers cannot both win) followed, in the same database transaction, by its
 * `transaction.*` event and fan-out, whose `data.object` is the charge as `GET` returns it at that moment.
 */
import type { Prisma, SqlClient, SqlWrite, Transaction } from "@lm/db";
import type { SubscribableEventType } from "../events/event-types";
import { planEvent, recordEvent, type EventInput, type PlannedEvent, type RecordedEvent } from "../events/record-event";
import { serializeTransaction } from "./transaction.serializer";

/** The `transaction.*` types of the event catalog. */
export type TransactionEventType = Extract<SubscribableEventType, `transaction.${string}`>;

/** The `type` event of `transaction` as it reads at `now`, to its `postback_url` and subscribed endpoints. */
export function transactionEvent(transaction: Transaction, type: TransactionEventType, now: Date): EventInput {
  return {
    scope: { storeId: transaction.store_id, mode: transaction.mode },
    type,
    object: serializeTransaction(transaction, now) as unknown as Record<string, unknown>,
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

/** The writes of `type` for `transaction`, to run in the statement that writes the charge (see {@link planEvent}). */
export function planTransactionEvent(transaction: Transaction, type: TransactionEventType, now: Date): PlannedEvent {
  return planEvent(transactionEvent(transaction, type, now));
}

/** The charge after a transition and the deliveries to enqueue after commit. */
export interface Transitioned {
  transaction: Transaction;
  deliveryIds: string[];
}

/**
 * Moves charge `id` out of `pending` when it still is and `guard` holds, and records `type`.
 * @param input.guard - extra conditions, e.g. `{expires_at: {gt: now}}` so an expired charge cannot be canceled
 * @param input.data - the new status and its timestamps
 * @returns the updated charge, or `null` when it was not pending (or the guard failed): nothing was written
 */
export async function transitionTransaction(
  tx: Prisma.TransactionClient,
  input: {
    id: string;
    guard?: Prisma.TransactionWhereInput;
    data: Prisma.TransactionUpdateManyMutationInput;
    type: TransactionEventType;
    now: Date;
  },
): Promise<Transitioned | null> {
  const { count } = await tx.transaction.updateMany({
    where: { ...input.guard, id: input.id, status: "pending" },
    data: { ...input.data, updated_at: input.now },
  });
  if (count === 0) return null;
  const transaction = await tx.transaction.findUniqueOrThrow({ where: { id: input.id } });
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
