/**
 * Use case: process one stored inbound notification (worker queue `inbox-processing`, DESIGN §5, §7). A refund's
 * outcome (`devolucao`) settles the refund (see refunds/settle-refund.ts), a sent payment's (`pix_enviado`) the
 * withdrawal (withdrawals/withdrawal-flow.ts), filling the item's `withdrawal_id`. A payment is matched to a charge by `txid`:
 * mode and amount are checked, and the charge is marked `paid` with `transaction.paid`, its fan-out and its `payment`
 * balance transaction in the same database transaction as the inbox item's outcome. A payment that cannot settle a charge is an
 * anomaly recorded on the item's `error`, never dropped. Processing is idempotent: the charge moves only from
 * `pending` (a conditional update), and an item already processed is left alone.
 */
import { inTransaction, type Prisma } from "@lm/db";
import { creditPayment } from "../balance/ledger";
import type { UseCaseDeps } from "../deps";
import { enqueueDeliveries } from "../events/record-event";
import { enqueueAfterCommit } from "../jobs/enqueue-after-commit";
import { transitionTransaction } from "../transactions/transaction-events";
import { SANDBOX_ACQUIRER_SLUG } from "./acquirers";
import { chargeDocumentColumns } from "../document-at-rest";
import { toStorableText } from "../text/storable-text";
import { settleRefund } from "../refunds/settle-refund";
import { settleWithdrawal } from "../withdrawals/withdrawal-flow";
import { readPayoutOutcome, readPixPayment, readRefundOutcome, type PixPayment } from "./pix-notification";

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
  /** Processing threw (the database refused a value, was unreachable...); the job is retried and a success clears it. */
  processingFailed: "processing_failed",
} as const;

/** Longest failure reason kept on an item, characters. */
const MAX_FAILURE_REASON_LENGTH = 300;

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
 * Processes inbox item `inboxItemId`. Items with an invalid signature, a receipt error or anomaly, or already processed
 * are left untouched. When processing throws, the failure is recorded on the item (`processing_failed: <reason>`,
 * `attempts` counted) before the error goes back to the job for a retry, so an operator sees why a payment is stuck.
 * @returns the outcome written: `paid`, `already_paid` (a repeat of the payment that settled the charge), an anomaly
 *   code, or `skipped`
 * @throws whatever processing threw, after recording it
 */
export async function processInboxItem(deps: UseCaseDeps, inboxItemId: string): Promise<string> {
  try {
    return await settleInboxItem(deps, inboxItemId);
  } catch (err) {
    await recordProcessingFailure(deps, inboxItemId, err);
    throw err;
  }
}

/** Writes a processing failure on the item; a failure to write it is logged, never thrown over the first error. */
async function recordProcessingFailure(deps: UseCaseDeps, inboxItemId: string, err: unknown): Promise<void> {
  const message = err instanceof Error ? (err.message.trim().split("\n")[0] ?? "") : String(err);
  const reason = toStorableText(message.slice(0, MAX_FAILURE_REASON_LENGTH)) || "unknown error";
  deps.logger.error("inbox item processing failed", { inbox_item_id: inboxItemId, err });
  try {
    await deps.db.inboxItem.updateMany({
      where: { id: inboxItemId, processed_at: null },
      data: { error: `${INBOX_ERRORS.processingFailed}: ${reason}`, attempts: { increment: 1 } },
    });
  } catch (writeErr) {
    deps.logger.error("could not record an inbox processing failure", { inbox_item_id: inboxItemId, err: writeErr });
  }
}

/**
 * The mode of the charges an acquirer's payments may settle: the sandbox settles test charges only and real acquirers
 * live ones, so no test path can pay a live charge.
 */
export function settlementMode(acquirerSlug: string): "live" | "test" {
  return acquirerSlug === SANDBOX_ACQUIRER_SLUG ? "test" : "live";
}

/**
 * The columns a payment sets on charge `transactionId` when it settles it: `paid`, when, the end-to-end id, the
 * amount received and the payer (the document encrypted, bound to the charge, and masked).
 */
export function paidColumns(encryptionKey: Buffer, transactionId: string, payment: PixPayment) {
  const payerDocument = chargeDocumentColumns(encryptionKey, transactionId, "payer_document", payment.payerDocument);
  return {
    status: "paid" as const,
    paid_at: payment.paidAt,
    payment_end_to_end_id: payment.endToEndId,
    payment_amount: payment.amount,
    payer_name: payment.payerName,
    payer_document: payerDocument.stored,
    payer_document_masked: payerDocument.masked,
  };
}

/** Whether an item's recorded error still lets it be processed (a failure of processing itself, retried). */
export function isRetriedFailure(error: string | null): boolean {
  return error === null || error.startsWith(`${INBOX_ERRORS.processingFailed}:`);
}

/**
 * The items processing can still settle, as a query: validly signed, not processed, and no error but a retried
 * failure of processing ({@link isRetriedFailure}). The reconciler's sweep offers these when their job is lost: a
 * retry's job lost with Redis leaves its item with `processing_failed` recorded, and the payment would otherwise
 * never settle.
 */
export const PROCESSABLE_INBOX_ITEM_WHERE = {
  signature_valid: true,
  processed_at: null,
  OR: [{ error: null }, { error: { startsWith: `${INBOX_ERRORS.processingFailed}:` } }],
} satisfies Prisma.InboxItemWhereInput;

async function settleInboxItem(deps: UseCaseDeps, inboxItemId: string): Promise<string> {
  const item = await deps.db.inboxItem.findUnique({ where: { id: inboxItemId }, include: { acquirer: true } });
  if (
    !item ||
    !item.signature_valid ||
    item.processed_at !== null ||
    !isRetriedFailure(item.error) ||
    item.end_to_end_id === null
  ) {
    return "skipped";
  }
  const now = deps.now();
  const finish = (
    tx: Prisma.TransactionClient,
    outcome: { error: string | null; transactionId?: string | undefined; withdrawalId?: string | undefined },
  ) =>
    tx.inboxItem.update({
      where: { id: item.id },
      data: {
        processed_at: now,
        attempts: { increment: 1 },
        error: outcome.error,
        transaction_id: outcome.transactionId ?? null,
        withdrawal_id: outcome.withdrawalId ?? null,
      },
    });
  const anomaly = async (code: string, detail?: string, transactionId?: string) => {
    await inTransaction(deps.db, (tx) =>
      finish(tx, {
        error: detail === undefined ? code : `${code}: ${detail}`,
        ...(transactionId ? { transactionId } : {}),
      }),
    );
    deps.logger.warn("inbound payment anomaly", { inbox_item_id: item.id, anomaly: code });
    return code;
  };

  const expectedMode = settlementMode(item.acquirer.slug);
  if (item.event_type === "devolucao") {
    const outcome = readRefundOutcome(item.raw_body, item.end_to_end_id);
    if (!outcome) return anomaly(INBOX_ERRORS.malformed, "id, valor or status missing or malformed");
    const settled = await inTransaction(deps.db, async (tx) => {
      const settlement = await settleRefund(tx, outcome, expectedMode, now);
      await finish(tx, { error: settlement.error, transactionId: settlement.transactionId });
      return settlement;
    });
    if (settled.error !== null)
      deps.logger.warn("inbound refund anomaly", { inbox_item_id: item.id, anomaly: settled.result });
    await enqueueDeliveries(deps, settled.deliveryIds);
    return settled.result;
  }

  if (item.event_type === "pix_enviado") {
    const outcome = readPayoutOutcome(item.raw_body, item.end_to_end_id);
    if (!outcome) return anomaly(INBOX_ERRORS.malformed, "idEnvio, valor or status missing or malformed");
    const settled = await inTransaction(deps.db, async (tx) => {
      const settlement = await settleWithdrawal(tx, outcome, expectedMode, now);
      await finish(tx, { error: settlement.error, withdrawalId: settlement.withdrawalId });
      return settlement;
    });
    if (settled.error !== null)
      deps.logger.warn("inbound withdrawal anomaly", { inbox_item_id: item.id, anomaly: settled.result });
    await enqueueDeliveries(deps, settled.deliveryIds);
    return settled.result;
  }

  const payment = readPixPayment(item.raw_body, item.end_to_end_id);
  if (!payment) return anomaly(INBOX_ERRORS.malformed, "txid, valor or horario missing or malformed");
  const charge = await deps.db.transaction.findUnique({ where: { txid: payment.txid } });
  if (!charge) return anomaly(INBOX_ERRORS.unknownTxid);
  if (charge.mode !== expectedMode) return anomaly(INBOX_ERRORS.modeMismatch, `${charge.mode} charge`, charge.id);
  if (payment.amount !== charge.amount) {
    return anomaly(INBOX_ERRORS.amountMismatch, `expected ${charge.amount}, received ${payment.amount}`, charge.id);
  }

  const outcome = await inTransaction(deps.db, async (tx) => {
    const paid = await transitionTransaction(tx, {
      id: charge.id,
      expiresAfter: payment.paidAt,
      data: paidColumns(deps.config.encryptionKey, charge.id, payment),
      type: "transaction.paid",
      now,
    });
    if (paid) {
      await creditPayment(tx, paid.transaction, now);
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
