/**
 * Writing a charge's state changes together with their events (DESIGN §1, §5): every change from `pending` is a
 * conditional update (so two writers cannot both win) followed, in the same database transaction, by its
 * `transaction.*` event and fan-out, whose `data.object` is the charge as `GET` returns it at that moment.
 */
import type { Prisma, SqlClient, Transaction } from "@lm/db";
import type { SubscribableEventType } from "../events/event-types";
import { recordEvent, type RecordedEvent } from "../events/record-event";
import { serializeTransaction } from "./transaction.serializer";

/** The `transaction.*` types of the event catalog. */
export type TransactionEventType = Extract<SubscribableEventType, `transaction.${string}`>;

/** Records `type` for `transaction` as it reads at `now`, fanned out to its `postback_url` and subscribed endpoints. */
export function recordTransactionEvent(
  tx: SqlClient,
  transaction: Transaction,
  type: TransactionEventType,
  now: Date,
): Promise<RecordedEvent> {
  return recordEvent(tx, {
    scope: { storeId: transaction.store_id, mode: transaction.mode },
    type,
    object: serializeTransaction(transaction, now) as unknown as Record<string, unknown>,
    postback: { transactionId: transaction.id, url: transaction.postback_url },
    now,
  });
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
   * Runs inside the database transaction of the write, just before it commits, with the written charge: the
   * merchant API stores its idempotent reply here, so the reply and the write commit together or not at all. `tx` is
   * a Prisma transaction or, on creation, a `pg` one.
   */
  beforeCommit?: (tx: SqlClient, transaction: Transaction) => Promise<void>;
}
