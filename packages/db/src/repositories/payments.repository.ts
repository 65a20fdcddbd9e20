/**
 * The settlement of inbound payments (DESIGN §5, §7) as ONE statement, however many: each charge marked `paid` by a
 * conditional update (still `pending`, not expired when paid), its `transaction.paid` event and fan-out, its `payment`
 * balance transaction, one running-balance change per seller and mode, and its inbox item's outcome. It spans the
 * charges, events, ledger and inbox tables on purpose: settled in an interactive transaction of about ten queries,
 * every payment held its seller's balance row for the whole transaction, so the payments of one seller queued behind
 * each other (66 a second); in one statement the row is held for a moment, once per batch. Its rows are locked in one
 * order whatever the batch's: its charges by id first, then the balances by seller and mode.
 *
 * Payments to reusable QR codes (DESIGN §13) settle the same way in a statement of their own, whose charges are
 * inserted already paid instead of updated: the same ledger entries, balances, events and items follow
 * ({@link creditPaidCharges}). Its rows are locked codes first (by id), then balances.
 */
import { onSql, type Connection } from "../connection";
import type { Transaction } from "../generated/client";
import { rawSql, rowStatusIs, sql, type Sql, type SqlClient } from "../sql";
import { CHARGE_COLUMN_NAMES, pendingChargesLockedInIdOrder } from "./charges.repository";
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
        ), ${creditPaidCharges(payments, now)}`,
    changed: "paid",
    events: input.events,
  });
  return { paidIds: changedIds, deliveryIds };
}

/**
 * A payment to a reusable QR code to settle: its charge, whole and already paid (`type` `qr_code`, its `qr_code_id`,
 * a txid of its own derived from the payment), its new ledger entry's id and the inbox item it came from.
 */
export interface QrCodePaymentToSettle {
  charge: Transaction;
  balanceTransactionId: string;
  inboxItemId: string;
}

/** The charges' columns, by name, and the same prefixed by `r.` (the rows read from JSON below). */
const CHARGE_COLUMNS = rawSql(CHARGE_COLUMN_NAMES.join(", "));
const CHARGE_ROW_COLUMNS = rawSql(CHARGE_COLUMN_NAMES.map((name) => `r.${name}`).join(", "));

/**
 * Settles `payments` to reusable QR codes at `now` in one statement (see the module comment): each charge is inserted
 * paid while its code is still active (the code's row locked, in id order, so a deactivation waits for it or it finds
 * the code inactive), and a charge whose txid or end-to-end id exists already (the same payment notified again) is
 * not written; each code written to counts its new payments and their sum. The charges travel as one JSON array read
 * with the table's own row type (`jsonb_populate_recordset`), so every column takes its type from the table.
 * @param input.events - the `transaction.paid` events, planned from the charges as written, each with its charge's id
 *   as subject
 * @returns the ids of the charges written (paid) and of the delivery rows written
 */
export async function settleQrCodePaymentRows(
  client: SqlClient,
  input: { payments: QrCodePaymentToSettle[]; now: Date; events: EventsToWrite },
): Promise<{ paidIds: string[]; deliveryIds: string[] }> {
  const { payments, now } = input;
  const charges = payments.map(({ charge }) => charge);
  const codeIds = [...new Set(charges.map((c) => c.qr_code_id))];
  const { changedIds, deliveryIds } = await changeRowsWithEvents(client, {
    changes: sql`codes_locked AS (
          SELECT id FROM qr_codes WHERE id = ANY(${codeIds}::text[]) AND active ORDER BY id FOR NO KEY UPDATE
        ), paid AS (
          INSERT INTO transactions (${CHARGE_COLUMNS})
          SELECT ${CHARGE_ROW_COLUMNS}
          FROM jsonb_populate_recordset(NULL::transactions, ${JSON.stringify(charges)}::jsonb) r
          JOIN codes_locked ON codes_locked.id = r.qr_code_id
          ON CONFLICT DO NOTHING
          RETURNING id, store_id, mode, amount, qr_code_id
        ), counted AS (
          UPDATE qr_codes q
          SET payments_count = q.payments_count + c.payments, amount_received = q.amount_received + c.received,
              updated_at = ${now}
          FROM (SELECT qr_code_id, count(*)::int AS payments, sum(amount)::bigint AS received
                FROM paid GROUP BY qr_code_id) c
          WHERE q.id = c.qr_code_id
          RETURNING 1
        ), ${creditPaidCharges(payments, now)}`,
    changed: "paid",
    events: input.events,
  });
  return { paidIds: changedIds, deliveryIds };
}

/**
 * The CTEs that follow a settlement's CTE `paid` (the `id`, `store_id`, `mode` and `amount` of each charge it paid):
 * each one's `payment` balance transaction (`balanceTransactionId`; a second one for the same charge is not written),
 * one running-balance change per seller and mode (in that order), and each one's inbox item processed, with its note.
 */
function creditPaidCharges(
  payments: Array<{
    charge: { id: string };
    balanceTransactionId: string;
    inboxItemId: string;
    inboxNote?: string | null;
  }>,
  now: Date,
): Sql {
  const chargeIds = payments.map(({ charge }) => charge.id);
  return sql`entries AS (
          INSERT INTO balance_transactions (id, seller_id, mode, type, amount, source_id, created_at)
          SELECT b.id, s.seller_id, paid.mode, 'payment', paid.amount, paid.id, ${now}
          FROM unnest(${payments.map((p) => p.balanceTransactionId)}::text[], ${chargeIds}::text[])
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
          FROM unnest(${payments.map((p) => p.inboxItemId)}::text[], ${chargeIds}::text[],
                      ${payments.map((p) => p.inboxNote ?? null)}::text[])
            AS x(id, transaction_id, note)
          JOIN paid ON paid.id = x.transaction_id
          WHERE i.id = x.id
          RETURNING 1
        )`;
}

/** This repository bound to connection `c` (`createRepositories`): each function without its client. */
export function paymentsRepository(c: Connection) {
  return {
    ...onSql(c, { settlePaymentRows, settleQrCodePaymentRows }),
  };
}
