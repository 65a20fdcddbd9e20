/**
 * Use case: process one stored inbound notification (worker queue `inbox-processing`, DESIGN §5). It matches the
 * payment to a charge by `txid`, checks mode and amount, and marks the charge `paid` with `transaction.paid` and its
 * fan-out in the same database transaction as the inbox item's outcome. A payment that cannot settle a charge is an
 * anomaly recorded on the item's `error`, never dropped. Processing is idempotent: the charge moves only from
 * `pending` (a conditional update), and an item already processed is left alone.
 */
import { inTransaction, type Prisma } from "@lm/db";
import type { UseCaseDeps } from "../deps";
import { enqueueDeliveries } from "../events/record-event";
import { enqueueAfterCommit } from "../jobs/enqueue-after-commit";
import { transitionTransaction } from "../transactions/transaction-events";
import { SANDBOX_ACQUIRER_SLUG } from "./acquirers";
import { readPixPayment } from "./pix-notification";

/**
 * Codes recorded on an inbox item's `error` (a detail may follow after `: `): at receipt (`invalid_signature`,
 * `malformed_notification`, `duplicate`) or as a payment anomaly when processing.
 */
export const INBOX_ERRORS = {
  invalidSignature: "invalid_signature",
  malformed: "malformed_notification",
  /** A valid item for this acquirer and `endToEndId` was received before. */
  duplicate: "duplicate",
  unknownTxid: "unknown_txid",
  modeMismatch: "mode_mismatch",
  amountMismatch: "amount_mismatch",
  notPending: "not_pending",
} as const;

/** Enqueues `inbox-processing` jobs after commit ({@link enqueueAfterCommit}; the reconciler's sweep covers a failure). */
export async function enqueueInboxItems(
  deps: Pick<UseCaseDeps, "producer" | "logger">,
  jobs: Array<{ inboxItemId: string; jobId?: string }>,
): Promise<void> {
  await enqueueAfterCommit(
    deps,
    "inbox-processing",
    jobs.map(({ inboxItemId, jobId }) => ({ data: { inboxItemId }, jobId: jobId ?? inboxItemId })),
  );
}

/**
 * Processes inbox item `inboxItemId`. Items with an invalid signature, a receipt error, or already processed are left
 * untouched.
 * @returns the outcome written: `paid`, `already_paid` (a repeat of the payment that settled the charge), an anomaly
 *   code, or `skipped`
 */
export async function processInboxItem(deps: UseCaseDeps, inboxItemId: string): Promise<string> {
  const item = await deps.db.inboxItem.findUnique({ where: { id: inboxItemId }, include: { acquirer: true } });
  if (!item || !item.signature_valid || item.processed_at !== null || item.error !== null || item.end_to_end_id === null) {
    return "skipped";
  }
  const now = deps.now();
  const finish = (tx: Prisma.TransactionClient, outcome: { error: string | null; transactionId?: string }) =>
    tx.inboxItem.update({
      where: { id: item.id },
      data: {
        processed_at: now,
        attempts: { increment: 1 },
        error: outcome.error,
        transaction_id: outcome.transactionId ?? null,
      },
    });
  const anomaly = async (code: string, detail?: string, transactionId?: string) => {
    await inTransaction(deps.db, (tx) =>
      finish(tx, { error: detail === undefined ? code : `${code}: ${detail}`, ...(transactionId ? { transactionId } : {}) }),
    );
    deps.logger.warn("inbound payment anomaly", { inbox_item_id: item.id, anomaly: code });
    return code;
  };

  const payment = readPixPayment(item.raw_body, item.end_to_end_id);
  if (!payment) return anomaly(INBOX_ERRORS.malformed, "txid, valor or horario missing or malformed");
  const charge = await deps.db.transaction.findUnique({ where: { txid: payment.txid } });
  if (!charge) return anomaly(INBOX_ERRORS.unknownTxid);
  // The sandbox settles test charges only and real acquirers live ones, so no test path can pay a live charge.
  const expectedMode = item.acquirer.slug === SANDBOX_ACQUIRER_SLUG ? "test" : "live";
  if (charge.mode !== expectedMode) return anomaly(INBOX_ERRORS.modeMismatch, `${charge.mode} charge`, charge.id);
  if (payment.amount !== charge.amount) {
    return anomaly(INBOX_ERRORS.amountMismatch, `expected ${charge.amount}, received ${payment.amount}`, charge.id);
  }

  const outcome = await inTransaction(deps.db, async (tx) => {
    const paid = await transitionTransaction(tx, {
      id: charge.id,
      guard: { expires_at: { gt: payment.paidAt } },
      data: {
        status: "paid",
        paid_at: payment.paidAt,
        payment_end_to_end_id: payment.endToEndId,
        payment_amount: payment.amount,
        payer_name: payment.payerName,
        payer_document: payment.payerDocument?.digits ?? null,
      },
      type: "transaction.paid",
      now,
    });
    if (paid) {
      await finish(tx, { error: null, transactionId: charge.id });
      return { result: "paid", deliveryIds: paid.deliveryIds };
    }
    const current = await tx.transaction.findUniqueOrThrow({ where: { id: charge.id } });
    if (current.payment_end_to_end_id === payment.endToEndId) {
      await finish(tx, { error: null, transactionId: charge.id });
      return { result: "already_paid", deliveryIds: [] };
    }
    const state = current.status === "pending" ? "expired" : current.status;
    await finish(tx, { error: `${INBOX_ERRORS.notPending}: ${state}`, transactionId: charge.id });
    return { result: INBOX_ERRORS.notPending, deliveryIds: [] };
  });
  if (outcome.result === INBOX_ERRORS.notPending) {
    deps.logger.warn("inbound payment anomaly", { inbox_item_id: item.id, anomaly: outcome.result });
  }
  await enqueueDeliveries(deps, outcome.deliveryIds);
  return outcome.result;
}
