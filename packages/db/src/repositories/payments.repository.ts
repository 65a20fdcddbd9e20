/**
 * The settlement of inbound payments (DESIGN §5, §7) as ONE statement, however many: each charge marked `paid` by a
 * conditional update (still `pending`, not expired when paid), its `transaction.paid` event and fan-out, its `payment`
 * balance transaction, one running-balance change per seller and mode, and its inbox item's outcome. It spans the
 * charges, events, ledger and inbox tables on purpose: settled in an interactive transaction of about ten queries,
 * every payment held its seller's balance row for the whole transaction, so the payments of one seller queued behind
 * each other (66 a second); in one statement the row is held for a moment, once per batch. Its rows are locked in one
 * order whatever the batch's: its charges by id first, then the balances by seller and mode.
 */
import { onSql, type Connection } from "../connection";
import type { Transaction } from "../generated/client";
import { rowStatusIs, sql, type SqlClient } from "../sql";
import { pendingChargesLockedInIdOrder } from "./charges.repository";
import { changeRowsWithEvents, type EventsToWrite } from "./events.repository";

/** A payment to settle: the charge's columns once paid, its new ledger entry's id and the inbox item it came from. */
export interface PaymentToSettle {
  charge: Pick<
    Transaction,
    | "id"
    | "paid_at"
    | "payment_end_to_end_id"
    | "payment_amount"
    | "payer_name"
    | "payer_document"
    | "payer_document_masked"
    | "payment_components"
  >;
  balanceTransactionId: string;
  inboxItemId: string;
  /** A remark written on the item once settled (`note`), e.g. a bank's figure that differs from ours; or null. */
  inboxNote: string | null;
}

/**
 * Settles `payments` at `now` in one statement (see the module comment). Rows of events, deliveries, balance
 * transactions and items are written only for the charges the conditional update moved to `paid`.
 * @param input.events - the `transaction.paid` events, planned from the charges as they read once paid, each with its
 *   charge's id as subject
 * @returns the ids of the charges paid and of the delivery rows written
 */
export async function settlePaymentRows(
  client: SqlClient,
  input: { payments: PaymentToSettle[]; now: Date; events: EventsToWrite },
): Promise<{ paidIds: string[]; deliveryIds: string[] }> {
  const { payments, now } = input;
  const charges = payments.map(({ charge }) => charge);
  const { changedIds, deliveryIds } = await changeRowsWithEvents(client, {
    changes: sql`${pendingChargesLockedInIdOrder(charges.map((c) => c.id))}, paid AS (
          UPDATE transactions t
          SET status = 'paid', paid_at = v.paid_at, payment_end_to_end_id = v.end_to_end_id, payment_amount = v.amount,
              payer_name = v.payer_name, payer_document = v.payer_document,
              payer_document_masked = v.payer_document_masked, payment_components = v.components,
              updated_at = ${now}
          FROM unnest(${charges.map((c) => c.id)}::text[], ${charges.map((c) => c.paid_at)}::timestamptz[],
                      ${charges.map((c) => c.payment_end_to_end_id)}::text[], ${charges.map((c) => c.payment_amount)}::int[],
                      ${charges.map((c) => c.payer_name)}::text[], ${charges.map((c) => c.payer_document)}::text[],
                      ${charges.map((c) => c.payer_document_masked)}::text[],
                      ${charges.map((c) => (c.payment_components === null ? null : JSON.stringify(c.payment_components)))}::jsonb[])
            AS v(id, paid_at, end_to_end_id, amount, payer_name, payer_document, payer_document_masked, components)
          JOIN locked ON locked.id = v.id
          WHERE t.id = v.id AND ${rowStatusIs("t.status", "pending")} AND t.expires_at > v.paid_at
          RETURNING t.id, t.store_id, t.mode, v.amount
        ), entries AS (
          INSERT INTO balance_transactions (id, seller_id, mode, type, amount, source_id, created_at)
          SELECT b.id, s.seller_id, paid.mode, 'payment', paid.amount, paid.id, ${now}
          FROM unnest(${payments.map((p) => p.balanceTransactionId)}::text[], ${charges.map((c) => c.id)}::text[])
            AS b(id, transaction_id)
          JOIN paid ON paid.id = b.transaction_id
          JOIN stores s ON s.id = paid.store_id
          ON CONFLICT (source_id, type) DO NOTHING
          RETURNING seller_id, mode, amount
        ), balances_written AS (
          INSERT INTO balances (seller_id, mode, available, reserved, updated_at)
          SELECT seller_id, mode, sum(amount), 0, ${now} FROM entries GROUP BY seller_id, mode ORDER BY seller_id, mode
          ON CONFLICT (seller_id, mode) DO UPDATE
          SET available = balances.available + EXCLUDED.available, updated_at = EXCLUDED.updated_at
          RETURNING 1
        ), items_written AS (
          UPDATE inbox_items i
          SET processed_at = ${now}, attempts = i.attempts + 1, error = NULL, transaction_id = paid.id, note = x.note
          FROM unnest(${payments.map((p) => p.inboxItemId)}::text[], ${charges.map((c) => c.id)}::text[],
                      ${payments.map((p) => p.inboxNote)}::text[])
            AS x(id, transaction_id, note)
          JOIN paid ON paid.id = x.transaction_id
          WHERE i.id = x.id
          RETURNING 1
        )`,
    changed: "paid",
    events: input.events,
  });
  return { paidIds: changedIds, deliveryIds };
}

/** This repository bound to connection `c` (`createRepositories`): each function without its client. */
export function paymentsRepository(c: Connection) {
  return {
    ...onSql(c, { settlePaymentRows }),
  };
}
