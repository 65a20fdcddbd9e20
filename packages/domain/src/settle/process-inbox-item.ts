/**
 * Use case: process one stored inbound notification (worker queue `inbox-processing`, DESIGN §5, §7). A payment
 * (`pix`) settles its charge as a batch of one (settle-payments.ts, the one way a payment settles), recording an
 * anomaly on the item when it cannot. A refund's outcome (`devolucao`) settles the refund, a sent payment's
 * (`pix_enviado`) the withdrawal, filling the item's `withdrawal_id` (both through payouts/, the money-out lifecycle).
 * An item is processed only while it is processable (`findProcessableInboxItems`), and what cannot be applied is an
 * anomaly recorded on the item's `error`, never dropped. A bank's notification (unsigned, DESIGN §9) is only a hint:
 * what it names is read back from the bank first, and only what the bank confirms settles anything. Processing is
 * idempotent: a charge moves only from `pending` (a conditional update), and an item already processed is left alone.
 */
import type { InboxItemOutcome, ProcessableInboxItem, Repositories } from "@lm/db";
import type { UseCaseDeps } from "../deps";
import { enqueueDeliveries } from "../events/record-event";
import { toStorableText } from "../text/storable-text";
import { mailDispute } from "../disputes/disputes";
import { confirmWithBank, reporterOf } from "../acquirers";
import { INBOX_ERRORS, readPayoutOutcome, readRefundOutcome } from "../inbound";
import { settleRefund, settleWithdrawal } from "../payouts";
import { settlePaymentItem } from "./settle-payments";

/** Longest failure reason kept on an item, characters. */
const MAX_FAILURE_REASON_LENGTH = 300;

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

/**
 * Writes a processing failure on item `inboxItemId` (`processing_failed: <reason>`, `attempts` counted); a failure to
 * write it is logged, never thrown over the first error.
 */
export async function recordProcessingFailure(deps: UseCaseDeps, inboxItemId: string, err: unknown): Promise<void> {
  const message = err instanceof Error ? (err.message.trim().split("\n")[0] ?? "") : String(err);
  const reason = toStorableText(message.slice(0, MAX_FAILURE_REASON_LENGTH)) || "unknown error";
  deps.logger.error("inbox item processing failed", { inbox_item_id: inboxItemId, err });
  try {
    await deps.repos.inbox.recordInboxItemFailure(inboxItemId, `${INBOX_ERRORS.processingFailed}: ${reason}`);
  } catch (writeErr) {
    deps.logger.error("could not record an inbox processing failure", { inbox_item_id: inboxItemId, err: writeErr });
  }
}

/**
 * Item `item` as the bank confirms it (DESIGN §9): for an acquirer that signs its notifications the item itself; for a
 * bank, its body replaced by what the bank answers when asked back, or null when the bank does not know it.
 * @throws Error when the bank cannot be asked now (the job is retried)
 */
async function confirmedItem(deps: UseCaseDeps, item: ProcessableInboxItem): Promise<ProcessableInboxItem | null> {
  if (item.acquirer_profile === null) return item;
  const acquirer = await deps.repos.acquirers.findAcquirerById(item.acquirer_id);
  if (acquirer === undefined) return null;
  const confirmed = await confirmWithBank(deps, acquirer, item);
  return confirmed === null ? null : { ...item, raw_body: confirmed };
}

async function settleInboxItem(deps: UseCaseDeps, inboxItemId: string): Promise<string> {
  const [notified] = await deps.repos.inbox.findProcessableInboxItems([inboxItemId]);
  if (!notified) return "skipped";
  const item = await confirmedItem(deps, notified);
  const now = deps.now();
  if (item === null) {
    await deps.repos.inbox.finishInboxItem(
      notified.id,
      { error: `${INBOX_ERRORS.notConfirmed}: the bank does not know it` },
      now,
    );
    deps.logger.warn("inbound notification not confirmed by the bank", { inbox_item_id: notified.id });
    return INBOX_ERRORS.notConfirmed;
  }
  /** Writes an outcome that needed no other change, warning of an anomaly. */
  const record = async (outcome: InboxItemOutcome & { result: string }) => {
    await deps.repos.inbox.finishInboxItem(item.id, outcome, now);
    if (outcome.error !== null) {
      deps.logger.warn("inbound payment anomaly", { inbox_item_id: item.id, anomaly: outcome.result });
    }
    return outcome.result;
  };
  const malformed = (detail: string) =>
    record({ result: INBOX_ERRORS.malformed, error: `${INBOX_ERRORS.malformed}: ${detail}` });
  /** Settles the outcome in one transaction with the item's, enqueues its deliveries after commit, and returns it. */
  const settleOutcome = async <S extends InboxItemOutcome & { result: string; deliveryIds: string[] }>(
    what: string,
    settle: (tx: Repositories) => Promise<S>,
  ): Promise<S> => {
    const settled = await deps.repos.transaction(async (tx) => {
      const settlement = await settle(tx);
      await tx.inbox.finishInboxItem(item.id, settlement, now);
      return settlement;
    });
    if (settled.error !== null)
      deps.logger.warn(`inbound ${what} anomaly`, { inbox_item_id: item.id, anomaly: settled.result });
    await enqueueDeliveries(deps, settled.deliveryIds);
    return settled;
  };

  const reporter = reporterOf(item);
  if (item.event_type === "devolucao") {
    const outcome = readRefundOutcome(item.raw_body, item.end_to_end_id);
    if (!outcome) return malformed("id, valor or status missing or malformed");
    const settled = await settleOutcome("refund", (tx) => settleRefund(tx, outcome, reporter, now));
    if (settled.dispute !== undefined) await mailDispute(deps, settled.dispute);
    return settled.result;
  }
  if (item.event_type === "pix_enviado") {
    const outcome = readPayoutOutcome(item.raw_body, item.end_to_end_id);
    if (!outcome) return malformed("idEnvio, valor or status missing or malformed");
    return (await settleOutcome("withdrawal", (tx) => settleWithdrawal(tx, outcome, reporter, now))).result;
  }
  const settled = await settlePaymentItem(deps, item);
  if (settled === "paid") return settled;
  return settled === null ? malformed("txid, valor or horario missing or malformed") : record(settled);
}
