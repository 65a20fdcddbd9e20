/**
 * Writing a charge's state changes together with their events (DESIGN §1, §5): every change from `pending` is made
 * only while the charge still is (a locked read checked before the update, or a conditional update), so two writers
 * cannot both win, and is followed, in the same database transaction, by its `transaction.*` event and fan-out, whose
 * `data.object` is the charge as `GET` returns it at that moment. One charge at a time ({@link transitionTransaction}),
 * or a batch in one statement ({@link planBatchTransitions}).
 */
import { sqlQuery, type Event, type Prisma, type SqlClient, type SqlWrite, type Transaction } from "@lm/db";
import type { SubscribableEventType } from "../events/event-types";
import {
  fanOutEvent,
  planEvent,
  recordEvent,
  scopeKey,
  subscribedEndpoints,
  type EventInput,
  type PlannedEvent,
  type RecordedEvent,
} from "../events/record-event";
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
  const [current] = await sqlQuery<Pick<Transaction, "status" | "expires_at">>(
    tx,
    "SELECT status, expires_at FROM transactions WHERE id = $1 FOR UPDATE",
    [input.id],
  );
  if (current?.status !== "pending" || current.expires_at <= input.expiresAfter) return null;
  const transaction = await tx.transaction.update({
    where: { id: input.id },
    data: { ...input.data, updated_at: input.now },
  });
  const { deliveryIds } = await recordTransactionEvent(tx, transaction, input.type, input.now);
  return { transaction, deliveryIds };
}

/** A charge a batch statement is to change: as it reads after the change, with that change's event and fan-out. */
export interface BatchTransition {
  transaction: Transaction;
  event: Event;
  deliveries: Prisma.WebhookDeliveryCreateManyInput[];
}

/**
 * Plans the `type` event and first delivery rows of each of `changed` (the charges as they read after the change),
 * with the subscribed endpoints of all their stores read in one query, for a statement that writes them with
 * {@link batchEventWritesSql}.
 */
export async function planBatchTransitions(
  db: SqlClient,
  changed: Transaction[],
  type: TransactionEventType,
  now: Date,
): Promise<BatchTransition[]> {
  const endpoints = await subscribedEndpoints(db, [...new Set(changed.map((t) => t.store_id))], type);
  return changed.map((transaction) => {
    const input = transactionEvent(transaction, type, now);
    return { transaction, ...fanOutEvent(input, endpoints.get(scopeKey(input.scope)) ?? []) };
  });
}

/**
 * The CTEs `events_written` and `deliveries_written` of a batch statement: the event and first delivery rows of every
 * charge that the statement's CTE `changed` returned (its `id`, `store_id` and `mode`), so that a charge its
 * conditional update skipped gets neither. `$1` is the statement's time; the placeholders from `$first` on take
 * {@link batchEventValues}, in order.
 */
export function batchEventWritesSql(changed: string, first: number): string {
  const [type, eventIds, eventCharges, eventData, ids, eventsOf, chargesOf, kinds, endpointIds, postbackOf, urls] =
    Array.from({ length: 11 }, (_, i) => `$${first + i}`);
  return `events_written AS (
  INSERT INTO events (id, store_id, mode, type, data, created_at)
  SELECT e.id, ${changed}.store_id, ${changed}.mode, ${type}, e.data, $1
  FROM unnest(${eventIds}::text[], ${eventCharges}::text[], ${eventData}::jsonb[]) AS e(id, transaction_id, data)
  JOIN ${changed} ON ${changed}.id = e.transaction_id
  RETURNING 1
), deliveries_written AS (
  INSERT INTO webhook_deliveries (id, chain_id, attempt, status, event_id, event_type, store_id, destination_type,
                                  endpoint_id, transaction_id, url, scheduled_at, created_at, manual)
  SELECT d.id, d.id, 1, 'pending', d.event_id, ${type}, ${changed}.store_id, d.destination_type,
         d.endpoint_id, d.transaction_id, d.url, $1, $1, false
  FROM unnest(${ids}::text[], ${eventsOf}::text[], ${chargesOf}::text[], ${kinds}::destination_type[],
              ${endpointIds}::text[], ${postbackOf}::text[], ${urls}::text[])
    AS d(id, event_id, changed_id, destination_type, endpoint_id, transaction_id, url)
  JOIN ${changed} ON ${changed}.id = d.changed_id
  RETURNING 1
)`;
}

/** The values of {@link batchEventWritesSql}'s placeholders for `transitions`, in order. */
export function batchEventValues(type: TransactionEventType, transitions: BatchTransition[]): unknown[] {
  const deliveries = transitions.flatMap(({ transaction, deliveries: rows }) =>
    rows.map((row) => ({ transaction, row })),
  );
  return [
    type,
    transitions.map(({ event }) => event.id),
    transitions.map(({ transaction }) => transaction.id),
    transitions.map(({ event }) => JSON.stringify(event.data)),
    deliveries.map(({ row }) => row.id),
    deliveries.map(({ row }) => row.event_id),
    deliveries.map(({ transaction }) => transaction.id),
    deliveries.map(({ row }) => row.destination_type),
    deliveries.map(({ row }) => row.endpoint_id ?? null),
    deliveries.map(({ row }) => row.transaction_id ?? null),
    deliveries.map(({ row }) => row.url),
  ];
}

/** The delivery ids of the transitions whose charge the statement changed (`changedIds`), to enqueue after commit. */
export function changedDeliveryIds(transitions: BatchTransition[], changedIds: Set<string>): string[] {
  return transitions.flatMap(({ transaction, deliveries }) =>
    changedIds.has(transaction.id) ? deliveries.map((row) => row.id as string) : [],
  );
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
