/**
 * Use case: settle a batch of stored payment notifications at once (worker queue `inbox-processing`, DESIGN §5, §7;
 * issue 13: events recorded at 1,000 a second). The worker hands the items of the jobs running at the same time to
 * {@link settlePayments}, which settles the plain ones in ONE statement: each charge marked `paid` by the same
 * conditional update as one by one (still `pending`, not expired when paid), its `transaction.paid` event and fan-out,
 * its `payment` balance transaction, one running-balance change per seller and mode, and the items' outcome.
 *
 * Why: settled one by one, every payment held its seller's balance row for a whole interactive transaction of about
 * ten queries, so the payments of one seller queued behind each other (66 events a second). In one statement the row
 * is held for a moment, once per batch.
 *
 * Whatever is not plain is left to `processInboxItem` (process-inbox-item.ts), which writes the same rows one by one and records every
 * anomaly: refund and withdrawal outcomes, malformed or unknown payments, mode or amount mismatches, a charge no
 * longer pending, two items of one batch for one charge or one payment, and a charge that changed between the read
 * and the write.
 */
import { rowStatusIs, sqlQuery, type Transaction } from "@lm/db";
import type { UseCaseDeps } from "../deps";
import { enqueueDeliveries } from "../events/record-event";
import { newId } from "../ids";
import { TRANSACTION_COLUMNS } from "../transactions/find-transactions";
import {
  batchEventValues,
  batchEventWritesSql,
  changedDeliveryIds,
  planBatchTransitions,
} from "../transactions/transaction-events";
import { isRetriedFailure, paidColumns, settlementMode } from "./process-inbox-item";
import { readPixPayment } from "./pix-notification";

/** A stored payment notification as the batch reads it. */
interface PendingPaymentItem {
  id: string;
  raw_body: Uint8Array;
  end_to_end_id: string;
  error: string | null;
  acquirer_slug: string;
}

/**
 * The one statement of a batch: see the module comment. Rows of events, deliveries, balance transactions and items
 * are written only for the charges the conditional update moved (`paid`), which it returns.
 */
const SETTLE_PAYMENTS_SQL = `
WITH paid AS (
  UPDATE transactions t
  SET status = 'paid', paid_at = v.paid_at, payment_end_to_end_id = v.end_to_end_id, payment_amount = v.amount,
      payer_name = v.payer_name, payer_document = v.payer_document, payer_document_masked = v.payer_document_masked,
      updated_at = $1
  FROM unnest($2::text[], $3::timestamptz[], $4::text[], $5::int[], $6::text[], $7::text[], $8::text[])
    AS v(id, paid_at, end_to_end_id, amount, payer_name, payer_document, payer_document_masked)
  WHERE t.id = v.id AND ${rowStatusIs("t.status", "pending").text} AND t.expires_at > v.paid_at
  RETURNING t.id, t.store_id, t.mode, t.amount
), ${batchEventWritesSql("paid", 9)}, entries AS (
  INSERT INTO balance_transactions (id, seller_id, mode, type, amount, source_id, created_at)
  SELECT b.id, s.seller_id, paid.mode, 'payment', paid.amount, paid.id, $1
  FROM unnest($20::text[], $21::text[]) AS b(id, transaction_id)
  JOIN paid ON paid.id = b.transaction_id
  JOIN stores s ON s.id = paid.store_id
  ON CONFLICT (source_id, type) DO NOTHING
  RETURNING seller_id, mode, amount
), balances_written AS (
  INSERT INTO balances (seller_id, mode, available, reserved, updated_at)
  SELECT seller_id, mode, sum(amount), 0, $1 FROM entries GROUP BY seller_id, mode
  ON CONFLICT (seller_id, mode) DO UPDATE
  SET available = balances.available + EXCLUDED.available, updated_at = EXCLUDED.updated_at
  RETURNING 1
), items_written AS (
  UPDATE inbox_items i
  SET processed_at = $1, attempts = i.attempts + 1, error = NULL, transaction_id = paid.id
  FROM unnest($22::text[], $23::text[]) AS x(id, transaction_id)
  JOIN paid ON paid.id = x.transaction_id
  WHERE i.id = x.id
  RETURNING 1
)
SELECT id FROM paid`;

/**
 * Settles the plain payments among inbox items `inboxItemIds` in one statement and enqueues their deliveries after
 * commit (see the module comment).
 * @returns per id, in order: `paid` when this call settled it, or null when the caller must process it one by one
 *   (`processInboxItem` (process-inbox-item.ts)): it was not a plain payment, or its charge changed meanwhile
 * @throws the driver's error (nothing was written); the caller then processes every item one by one
 */
export async function settlePayments(deps: UseCaseDeps, inboxItemIds: string[]): Promise<Array<"paid" | null>> {
  const now = deps.now();
  const items = await sqlQuery<PendingPaymentItem>(
    deps.db.pool,
    `SELECT i.id, i.raw_body, i.end_to_end_id, i.error, a.slug AS acquirer_slug
     FROM inbox_items i JOIN acquirers a ON a.id = i.acquirer_id
     WHERE i.id = ANY($1::text[]) AND i.event_type = 'pix' AND i.signature_valid AND i.processed_at IS NULL
       AND i.end_to_end_id IS NOT NULL`,
    [inboxItemIds],
  );
  const payments = items.flatMap((item) => {
    if (!isRetriedFailure(item.error)) return [];
    const payment = readPixPayment(item.raw_body, item.end_to_end_id);
    return payment === null ? [] : [{ item, payment }];
  });
  if (payments.length === 0) return inboxItemIds.map(() => null);

  const charges = await sqlQuery<Transaction>(
    deps.db.pool,
    `SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE txid = ANY($1::text[])`,
    [payments.map(({ payment }) => payment.txid)],
  );
  const chargeByTxid = new Map(charges.map((charge) => [charge.txid, charge]));
  const repeated = (values: string[]) => new Set(values.filter((value, i) => values.indexOf(value) !== i));
  const repeatedTxids = repeated(payments.map(({ payment }) => payment.txid));
  const repeatedPayments = repeated(payments.map(({ payment }) => payment.endToEndId));
  const plain = payments.flatMap(({ item, payment }) => {
    const charge = chargeByTxid.get(payment.txid);
    const isPlain =
      charge !== undefined &&
      charge.status === "pending" &&
      charge.mode === settlementMode(item.acquirer_slug) &&
      charge.amount === payment.amount &&
      charge.expires_at > payment.paidAt &&
      !repeatedTxids.has(payment.txid) &&
      !repeatedPayments.has(payment.endToEndId);
    return isPlain ? [{ item, payment, charge }] : [];
  });
  if (plain.length === 0) return inboxItemIds.map(() => null);

  const transitions = await planBatchTransitions(
    deps.db.pool,
    plain.map(({ payment, charge }): Transaction => ({
      ...charge,
      ...paidColumns(deps.config.encryptionKey, charge.id, payment),
      updated_at: now,
    })),
    "transaction.paid",
    now,
  );
  const paid = transitions.map(({ transaction }) => transaction);
  const won = await sqlQuery<{ id: string }>(deps.db.pool, SETTLE_PAYMENTS_SQL, [
    now,
    paid.map((charge) => charge.id),
    paid.map((charge) => charge.paid_at),
    paid.map((charge) => charge.payment_end_to_end_id),
    paid.map((charge) => charge.payment_amount),
    paid.map((charge) => charge.payer_name),
    paid.map((charge) => charge.payer_document),
    paid.map((charge) => charge.payer_document_masked),
    ...batchEventValues("transaction.paid", transitions),
    paid.map(() => newId("balanceTransaction", now.getTime())),
    paid.map((charge) => charge.id),
    plain.map(({ item }) => item.id),
    paid.map((charge) => charge.id),
  ]);
  const wonIds = new Set(won.map((row) => row.id));
  await enqueueDeliveries(deps, changedDeliveryIds(transitions, wonIds));
  const paidItems = new Set(plain.flatMap(({ item, charge }) => (wonIds.has(charge.id) ? [item.id] : [])));
  return inboxItemIds.map((id) => (paidItems.has(id) ? "paid" : null));
}
