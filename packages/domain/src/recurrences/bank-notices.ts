/**
 * A bank's Pix Automático reports (DESIGN §14 "Live", §9): what its `webhookrec` and `webhookcobr` post is stored in
 * the inbox like any notification (kinds `rec` and `cobr`, keyed by the recurrence's `idRec` or the charge's txid),
 * and is only a hint. Processing reads the recurrence or the cycle charge back from the bank (`GET /rec/{idRec}`,
 * `GET /cobr/{txid}`) and applies what the bank says, each change made as the sandbox's would be:
 * - a recurrence approved, rejected, expired or canceled (by the payer, or on the merchant's side) moves ours, with
 *   its event;
 * - a cycle charge paid settles through the one payment settlement (the ledger's credit, `transaction.paid`);
 * - a debit attempt that failed is retried at the bank (`retentativa`) while the policy has one left, silently; after
 *   the last one, or when the bank ends the charge (rejected, expired), the charge fails with `transaction.failed`;
 * - a cycle charge canceled at the bank is canceled here.
 * Each is idempotent: a report already applied changes nothing. The engine then runs what became due (a cycle
 * closed). A lost callback is caught by the reconciler ({@link reconcileLiveRecurrences}), which reads the
 * candidates back and stores what changed as the callback would have, processed by this same code.
 */
import type { Acquirer, ProcessableInboxItem, Recurrence, Transaction } from "@lm/db";
import type { UseCaseDeps } from "../deps";
import { acquirerOfRow, bankAcquirer, storeReconciled, type BankRecurrences, type CycleAtBank } from "../acquirers";
import { saoPauloDate } from "../due-dates";
import { IDEMPOTENCY_TTL_MS } from "../idempotency";
import { INBOX_ERRORS } from "../inbound";
import { recordProcessingFailure, settlePaymentItem } from "../settle";
import { cancelIfPending } from "../transactions";
import { recurrenceNow } from "./find-recurrences";
import { applyPayerAnswer, endCanceled, runNow, underLock } from "./manage-recurrences";
import { recordFailedDebit } from "./recurrence-engine";
import { recordRecurrenceEvent } from "./recurrence-events";

/**
 * Processes inbox item `inboxItemId` when it is a bank's Pix Automático report (kinds `rec`, `cobr`).
 * @returns the outcome written (`applied`, `paid`, or an anomaly code); null when the item is not such a report or
 *   no longer processable (the caller processes it as any other)
 * @throws Error when the bank cannot be asked or a change fails, after recording it on the item (the job retries)
 */
export async function processRecurrenceNotice(deps: UseCaseDeps, inboxItemId: string): Promise<string | null> {
  const [item] = await deps.repos.inbox.findProcessableInboxItems([inboxItemId]);
  if (item === undefined || (item.event_type !== "rec" && item.event_type !== "cobr")) return null;
  try {
    return item.event_type === "rec" ? await applyRecurrenceReport(deps, item) : await applyCycleReport(deps, item);
  } catch (err) {
    await recordProcessingFailure(deps, item.id, err);
    throw err;
  }
}

/** Writes `item`'s outcome: applied (no error), or the anomaly `code` with its detail. */
async function finish(
  deps: UseCaseDeps,
  item: ProcessableInboxItem,
  outcome: { code: string | null; detail?: string; transactionId?: string },
): Promise<string> {
  const error = outcome.code === null ? null : `${outcome.code}: ${outcome.detail ?? ""}`;
  await deps.repos.inbox.finishInboxItem(item.id, { error, transactionId: outcome.transactionId }, deps.now());
  if (error !== null) deps.logger.warn("Pix Automático report anomaly", { inbox_item_id: item.id, anomaly: error });
  return outcome.code ?? "applied";
}

/**
 * The Pix Automático port of the bank that holds `recurrence`.
 * @throws Error when that bank is gone
 */
async function bankOf(deps: UseCaseDeps, recurrence: Recurrence): Promise<BankRecurrences> {
  const bank = (await acquirerOfRow(deps, recurrence.acquirer_id, recurrence.mode))?.recurrences;
  if (bank === undefined) throw new Error(`the bank of recurrence ${recurrence.id} is gone`);
  return bank;
}

/** Applies what the bank says of the recurrence `item` names. */
async function applyRecurrenceReport(deps: UseCaseDeps, item: ProcessableInboxItem): Promise<string> {
  const recurrence = await deps.repos.recurrences.findRecurrenceByBankId(item.acquirer_id, item.end_to_end_id);
  if (recurrence === null) {
    return finish(deps, item, { code: INBOX_ERRORS.unknownRecurrence, detail: `idRec ${item.end_to_end_id}` });
  }
  if (recurrence.registering) {
    // Its creation is not finished (its `recurrence.created` not written yet): the report waits for it (a retry).
    throw new Error(`recurrence ${recurrence.id} is still being registered at its bank`);
  }
  const reported = await (await bankOf(deps, recurrence)).readRecurrence(item.end_to_end_id);
  if (reported === null) {
    return finish(deps, item, { code: INBOX_ERRORS.notConfirmed, detail: "the bank does not know the recurrence" });
  }
  const now = await recurrenceNow(deps, recurrence);
  const { status } = recurrence;
  if (status === "created" && (reported.status === "approved" || reported.status === "rejected")) {
    await applyPayerAnswer(deps, recurrence.id, reported.status === "approved", now);
  } else if (status === "created" && reported.status === "expired") {
    await underLock(deps, recurrence.id, async (tx, locked) => {
      if (locked.status !== "created") return { result: null, deliveryIds: [] };
      const expired = await tx.recurrences.endRecurrenceRow(locked.id, { status: "expired" }, now);
      return { result: expired, ...(await recordRecurrenceEvent(tx, expired, "recurrence.expired", deps.now())) };
    });
  } else if ((status === "created" || status === "approved") && reported.status === "canceled") {
    // Before the payer's approval only the merchant's side can have ended it (the payer rejects instead).
    const by = status === "approved" ? (reported.canceledBy ?? "merchant") : "merchant";
    await endCanceled(deps, recurrence.id, by, now);
  }
  return finish(deps, item, { code: null });
}

/** Applies what the bank says of the cycle charge `item` names. */
async function applyCycleReport(deps: UseCaseDeps, item: ProcessableInboxItem): Promise<string> {
  const [charge] = await deps.repos.charges.findChargesByTxids([item.end_to_end_id]);
  if (charge === undefined || charge.recurrence_id === null) {
    return finish(deps, item, { code: INBOX_ERRORS.unknownTxid, detail: `txid ${item.end_to_end_id}` });
  }
  if (charge.acquirer_id !== item.acquirer_id) {
    return finish(deps, item, {
      code: INBOX_ERRORS.acquirerMismatch,
      detail: "another acquirer holds this charge",
      transactionId: charge.id,
    });
  }
  const recurrence = await deps.repos.recurrences.findRecurrenceById(charge.recurrence_id);
  if (recurrence === null) throw new Error(`recurrence ${charge.recurrence_id} of ${charge.id} is gone`);
  const bank = await bankOf(deps, recurrence);
  const reported = await bank.readCycle(charge.txid);
  if (reported === null) {
    return finish(deps, item, {
      code: INBOX_ERRORS.notConfirmed,
      detail: "the bank does not know the charge",
      transactionId: charge.id,
    });
  }
  if (reported.payment !== null) {
    const result = await settleCycle(deps, item, reported.payment);
    await countAttempts(deps, recurrence, charge, reported.attempts);
    await runNow(deps, recurrence);
    return result;
  }
  await applyCycleState(deps, bank, recurrence, charge, reported);
  await runNow(deps, recurrence);
  return finish(deps, item, { code: null, transactionId: charge.id });
}

/**
 * Records on a paid cycle the debits its bank tried (the paid one included), as the sandbox's debits count them; the
 * engine then closes the cycle.
 */
async function countAttempts(deps: UseCaseDeps, recurrence: Recurrence, charge: Transaction, attempts: number) {
  await underLock(deps, recurrence.id, async (tx, locked) => {
    const open = (await tx.recurrences.findOpenCycles(locked.id)).find((cycle) => cycle.transaction_id === charge.id);
    if (open !== undefined && open.attempts < attempts) {
      await tx.recurrences.updateCycle(charge.id, { attempts, next_attempt_at: null });
    }
    return { result: null, deliveryIds: [] };
  });
}

/**
 * Settles the payment the bank reports for a cycle through the one payment settlement, as if it were notified on
 * its own (the ledger's credit and `transaction.paid` in one statement with the item's outcome).
 * @returns `paid`, or the anomaly recorded on the item (`already_paid` for a report applied before)
 */
async function settleCycle(deps: UseCaseDeps, item: ProcessableInboxItem, payment: object): Promise<string> {
  const endToEndId = (payment as { endToEndId?: unknown }).endToEndId;
  const settled = await settlePaymentItem(deps, {
    ...item,
    event_type: "pix",
    end_to_end_id: typeof endToEndId === "string" ? endToEndId : "",
    raw_body: Buffer.from(JSON.stringify({ pix: [payment] }), "utf8"),
  });
  if (settled === "paid") return settled;
  if (settled === null) {
    return finish(deps, item, { code: INBOX_ERRORS.malformed, detail: "the bank's pix lacks txid, valor or horario" });
  }
  await deps.repos.inbox.finishInboxItem(item.id, settled, deps.now());
  return settled.result;
}

/**
 * Applies a cycle charge's state the bank reports other than paid, under the recurrence's lock: a failed last attempt
 * recorded once (a retry asked of the bank for the policy's next day, or the charge failed), a charge the bank ended
 * failed, one it canceled canceled.
 * @throws ApiError `acquirer_unavailable` or `acquirer_rejected` when the retry cannot be asked (nothing is written)
 */
async function applyCycleState(
  deps: UseCaseDeps,
  bank: BankRecurrences,
  recurrence: Recurrence,
  charge: Transaction,
  reported: CycleAtBank,
): Promise<void> {
  const now = await recurrenceNow(deps, recurrence);
  await underLock(deps, recurrence.id, async (tx, locked) => {
    const open = (await tx.recurrences.findOpenCycles(locked.id)).find((cycle) => cycle.transaction_id === charge.id);
    if (open === undefined || open.status !== "pending") return { result: null, deliveryIds: [] };
    if (reported.status === "canceled") {
      const canceled = await cancelIfPending(tx, charge.id, now, deps.now());
      await tx.recurrences.updateCycle(charge.id, { attempts: open.attempts, next_attempt_at: null });
      return { result: null, deliveryIds: canceled?.deliveryIds ?? [] };
    }
    const failedAttempt = reported.lastAttemptFailed && open.attempts < reported.attempts;
    if (reported.status === "failed" || (reported.status === "active" && failedAttempt)) {
      const final = reported.status === "failed";
      const failed = await recordFailedDebit(deps, tx, locked, open, now, { final });
      if (failed.retryAt !== null) {
        const today = saoPauloDate(now);
        const planned = saoPauloDate(failed.retryAt);
        await bank.retryCycle(charge.txid, planned < today ? today : planned);
      }
      return { result: null, deliveryIds: failed.deliveryIds };
    }
    return { result: null, deliveryIds: [] };
  });
}

/** Live recurrences, and live cycles, read back per bank per reconciler tick: one page of each. */
const CHECK_PAGE_SIZE = 100;

/**
 * The reconciler's catch for lost Pix Automático callbacks (DESIGN §9): reads back from bank `acquirer` one page of
 * its live recurrences still awaiting the payer (`GET /rec/{idRec}`) and one of its open cycles still `pending` after
 * their first debit time (`GET /cobr/{txid}`), each the least recently checked first (through their partial indexes,
 * so the cost does not grow with history), records each as checked, and stores every change the bank reports in the
 * inbox as its callback would have (a `recs` or `cobsr` report, source `reconciliation`): the worker then applies it
 * with the callbacks' own code ({@link processRecurrenceNotice}). A report identical to one stored before is a
 * duplicate, so a change is applied once however many sweeps see it before it is. First, creations abandoned while
 * registering are withdrawn ({@link withdrawAbandonedRegistrations}).
 * @returns how many reports were stored
 * @throws Error when the bank cannot be asked (the next tick tries again)
 */
export async function reconcileLiveRecurrences(deps: UseCaseDeps, acquirer: Acquirer): Promise<number> {
  const bank = bankAcquirer(deps, acquirer).recurrences;
  if (bank === undefined) return 0;
  await withdrawAbandonedRegistrations(deps, acquirer, bank);
  const recs: object[] = [];
  for (const candidate of await deps.repos.recurrences.listRecurrencesToCheck(acquirer.id, CHECK_PAGE_SIZE)) {
    const reported = await bank.readRecurrence(candidate.bank_recurrence_id);
    await deps.repos.recurrences.markRecurrenceChecked(candidate.id, deps.now());
    if (reported !== null && reported.status !== "created") {
      recs.push({ idRec: candidate.bank_recurrence_id, status: reported.status });
    }
  }
  const cycles: object[] = [];
  const now = deps.now();
  for (const candidate of await deps.repos.recurrences.listCyclesToCheck(acquirer.id, now, CHECK_PAGE_SIZE)) {
    const reported = await bank.readCycle(candidate.txid);
    await deps.repos.recurrences.markCycleChecked(candidate.transaction_id, deps.now());
    const failedAttempt = reported?.lastAttemptFailed === true && reported.attempts > candidate.attempts;
    if (reported !== null && (reported.status !== "active" || failedAttempt)) {
      cycles.push({ txid: candidate.txid, status: reported.status, attempts: reported.attempts });
    }
  }
  return (
    (await storeReconciled(deps, acquirer, recs, "recs")) + (await storeReconciled(deps, acquirer, cycles, "cobsr"))
  );
}

/**
 * Withdraws one page of bank `acquirer`'s creations left `registering` for longer than an `Idempotency-Key` is kept
 * (no retry can resume them any more, and the merchant never got them): the recurrence the bank made, found by its
 * `idRec` or its location, is canceled there so the payer is never asked, then the row is deleted. A push creation
 * cut short before its `idRec` was stored is only deleted: its request, if sent, expires unanswered.
 * @throws ApiError `acquirer_unavailable` when the bank cannot be asked (the next tick tries again)
 */
async function withdrawAbandonedRegistrations(
  deps: UseCaseDeps,
  acquirer: Acquirer,
  bank: BankRecurrences,
): Promise<void> {
  const cutoff = new Date(deps.now().getTime() - IDEMPOTENCY_TTL_MS);
  for (const row of await deps.repos.recurrences.listAbandonedRegistrations(acquirer.id, cutoff, CHECK_PAGE_SIZE)) {
    const idRec =
      row.bank_recurrence_id ??
      (row.bank_location_id === null ? null : await bank.recurrenceAtLocation(row.bank_location_id));
    if (idRec !== null) await bank.cancelRecurrence(idRec);
    await deps.repos.recurrences.deleteRegisteringRecurrence(row.id);
    deps.logger.warn("an abandoned recurrence creation was withdrawn", { recurrence_id: row.id });
  }
}
