/**
 * Use case: settle stored payment notifications (worker queue `inbox-processing`, DESIGN §5, §7), the one way a
 * payment settles a charge. The worker hands the items of the jobs running at the same time to {@link settlePayments};
 * one item is a batch of one ({@link settlePaymentItem}, for `processInboxItem`). A batch's plain payments are settled
 * by the payments repository's one statement: each charge marked `paid` by a conditional update (still `pending`, not
 * expired when paid), its `transaction.paid` event and fan-out, its `payment` balance transaction, one running-balance
 * change per seller and mode, and the items' outcome.
 *
 * A payment whose txid is a reusable QR code's (DESIGN §13) becomes a charge of its own, born `paid` (`type`
 * `qr_code`, with a txid derived from the payment, so a repeated notification names the same charge and writes
 * nothing), settled the same way by a statement of its own ({@link qrCodeCharge}); the code counts it.
 *
 * A payment that is not plain is an anomaly ({@link paymentAnomaly}, {@link qrCodePaymentAnomaly}): an unknown txid, a
 * mode, acquirer or amount mismatch, a charge no longer pending, a deactivated QR code. Settling one item, its anomaly
 * is recorded on the item; a batch leaves such items, and the ones it could not settle (two items of one batch for
 * one charge or one payment, a charge or code that changed between the read and the write), to be settled one by one,
 * which records each outcome.
 */
import type { ProcessableInboxItem, QrCode, Transaction } from "@lm/db";
import type { UseCaseDeps } from "../deps";
import { chargeDocumentColumns } from "../document-at-rest";
import { enqueueDeliveries } from "../events/record-event";
import { newId } from "../ids";
import { saoPauloDate, type AmountDue } from "../due-dates";
import { amountDueOn } from "../transactions/due-date-charge";
import { planTransactionEvents } from "../transactions/transaction-events";
import { newChargeRow } from "../transactions/charge-row";
import { paymentChargeTxid } from "../transactions/txid";
import { reporterAnomaly, reporterOf, type Reporter } from "../acquirers";
import { INBOX_ERRORS, readPixPayment, type PaymentComponents, type PixPayment } from "../inbound";

/**
 * Whose figure settles a due-date charge (DESIGN §13 "Live"): a bank of the standard computes the total itself on the
 * payer's side, so the amount it confirms prevails over ours; the sandbox and a signing acquirer must pay ours.
 */
export type AmountAuthority = "ours" | "bank";

/** The authority of inbox item `item`'s amounts: `bank` for a bank of the API Pix standard (it has a profile). */
export function amountAuthorityOf(item: Pick<ProcessableInboxItem, "acquirer_profile">): AmountAuthority {
  return item.acquirer_profile === null ? "ours" : "bank";
}

/**
 * The columns a payment sets on charge `transactionId` when it settles it: `paid`, when, the end-to-end id, the
 * amount received, the payer (the document encrypted, bound to the charge, and masked) and, for a due-date charge,
 * the amount's components: the bank's (`componentesValor`) when it reports them, else ours for the day of payment.
 */
export function paidColumns(encryptionKey: Buffer, charge: Transaction, payment: PixPayment) {
  const payerDocument = chargeDocumentColumns(encryptionKey, charge.id, "payer_document", payment.payerDocument);
  return {
    status: "paid" as const,
    paid_at: payment.paidAt,
    payment_end_to_end_id: payment.endToEndId,
    payment_amount: payment.amount,
    payer_name: payment.payerName,
    payer_document: payerDocument.stored,
    payer_document_masked: payerDocument.masked,
    payment_components:
      charge.due_terms === null ? null : (payment.components ?? componentsOf(ourAmountDue(charge, payment))),
  };
}

/** What we compute `charge` owes on the São Paulo day of `payment`. */
function ourAmountDue(charge: Transaction, payment: PixPayment): AmountDue {
  return amountDueOn(charge, saoPauloDate(payment.paidAt));
}

function componentsOf({ original, fine, interest, reduction, discount }: AmountDue): PaymentComponents {
  return { original, fine, interest, reduction, discount };
}

/**
 * The note kept on the inbox item of a payment a bank confirmed for a due-date charge at another amount than ours for
 * that day (`amount_differs_from_computed: …`): the money is credited all the same (DESIGN §13 "Live"); null when
 * they agree or ours is the authority.
 */
export function amountNote(charge: Transaction, payment: PixPayment, authority: AmountAuthority): string | null {
  if (authority !== "bank" || charge.due_terms === null) return null;
  const computed = ourAmountDue(charge, payment).total;
  if (computed === payment.amount) return null;
  return `${INBOX_ERRORS.amountDiffersFromComputed}: computed ${computed}, the bank reported ${payment.amount}`;
}

/**
 * The charge that `payment` to reusable QR code `code` becomes, at `now` (DESIGN §13): born `paid`, of the amount
 * paid, with the code's description, BR Code and acquirer, and a txid derived from the payment. It was never pending:
 * `expires_in` is 0 and `expires_at` the time of payment.
 */
export function qrCodeCharge(encryptionKey: Buffer, code: QrCode, payment: PixPayment, now: Date): Transaction {
  const charge = newChargeRow({
    id: newId("transaction", now.getTime()),
    store_id: code.store_id,
    mode: code.mode,
    type: "qr_code",
    amount: payment.amount,
    description: code.description,
    txid: paymentChargeTxid(payment.endToEndId),
    br_code: code.br_code,
    qr_code_png_base64: code.qr_code_png_base64,
    expires_in: 0,
    expires_at: payment.paidAt,
    acquirer_id: code.acquirer_id,
    qr_code_id: code.id,
    recurrence_id: null,
    created_at: now,
  });
  return { ...charge, ...paidColumns(encryptionKey, charge, payment) };
}

/** Why a payment cannot settle its charge, as recorded on its item; `already_paid` is a repeat, not an error. */
export type PaymentAnomaly =
  | { result: "already_paid"; error: null; transactionId: string }
  | { result: string; error: string; transactionId?: string };

/**
 * Whether `payment`, reported by `reporter`, can settle `charge` (the charge of its txid, as read): null when it can
 * (a plain payment), else the anomaly to record.
 */
export function paymentAnomaly(
  charge: Transaction | undefined,
  payment: PixPayment,
  reporter: Reporter,
  authority: AmountAuthority,
): PaymentAnomaly | null {
  if (!charge) return { result: INBOX_ERRORS.unknownTxid, error: INBOX_ERRORS.unknownTxid };
  const anomaly = (code: string, detail: string) => ({
    result: code,
    error: `${code}: ${detail}`,
    transactionId: charge.id,
  });
  const refused = reporterAnomaly(reporter, charge, "charge");
  if (refused !== null) return { ...refused, transactionId: charge.id };
  // A due-date charge is owed what its terms come to on the day of payment in São Paulo, unless a bank computed it
  // (DESIGN §13).
  const expected = ourAmountDue(charge, payment).total;
  if (payment.amount !== expected && (charge.due_terms === null || authority === "ours")) {
    return anomaly(INBOX_ERRORS.amountMismatch, `expected ${expected}, received ${payment.amount}`);
  }
  if (charge.status === "pending" && charge.expires_at > payment.paidAt) return null;
  if (charge.payment_end_to_end_id === payment.endToEndId) {
    return { result: "already_paid", error: null, transactionId: charge.id };
  }
  return anomaly(INBOX_ERRORS.notPending, charge.status === "pending" ? "expired" : charge.status);
}

/**
 * Whether `payment`, reported by `reporter`, can become a charge of QR code `code` (DESIGN §13): null when it can,
 * else the anomaly to record. `settled` is the charge the same payment made already, if any (`already_paid`). A
 * payment kept as an anomaly moves no money; the operator returns it.
 */
export function qrCodePaymentAnomaly(
  code: QrCode,
  settled: Transaction | undefined,
  payment: PixPayment,
  reporter: Reporter,
): PaymentAnomaly | null {
  const refused = reporterAnomaly(reporter, code, "QR code");
  if (refused !== null) return refused;
  if (settled?.payment_end_to_end_id === payment.endToEndId) {
    return { result: "already_paid", error: null, transactionId: settled.id };
  }
  const anomaly = (kind: string, detail: string) => ({ result: kind, error: `${kind}: ${detail}` });
  if (!code.active) {
    return anomaly(INBOX_ERRORS.qrCodeInactive, `${code.id} was deactivated at ${code.deactivated_at?.toISOString()}`);
  }
  if (code.amount !== null && payment.amount !== code.amount) {
    return anomaly(INBOX_ERRORS.amountMismatch, `${code.id} expects ${code.amount}, received ${payment.amount}`);
  }
  return null;
}

/** What a payment names, as read: a charge (or nothing) or a QR code, and why it cannot settle, or null. */
type PaymentTarget =
  | { kind: "charge"; charge: Transaction | undefined; anomaly: PaymentAnomaly | null }
  | { kind: "qr_code"; code: QrCode; anomaly: PaymentAnomaly | null };

/**
 * What each of `payments` names, in order: the charge of its txid, else the QR code of its txid (read only for the
 * payments no charge has), each judged against the payment and its reporter.
 */
async function readTargets(
  deps: UseCaseDeps,
  payments: Array<{ payment: PixPayment; reporter: Reporter; authority: AmountAuthority }>,
): Promise<PaymentTarget[]> {
  const charges = await deps.repos.charges.findChargesByTxids(payments.map(({ payment }) => payment.txid));
  const chargeByTxid = new Map(charges.map((charge) => [charge.txid, charge]));
  const unmatched = payments.filter(({ payment }) => !chargeByTxid.has(payment.txid)).map(({ payment }) => payment);
  const codes = unmatched.length === 0 ? [] : await deps.repos.qrCodes.findQrCodesByTxids(unmatched.map((p) => p.txid));
  const codeByTxid = new Map(codes.map((code) => [code.txid, code]));
  const ofCodes = unmatched.filter((payment) => codeByTxid.has(payment.txid));
  // The charges the payments to codes made already, if any: a repeat names the same one.
  const settled =
    ofCodes.length === 0
      ? []
      : await deps.repos.charges.findChargesByTxids(ofCodes.map((p) => paymentChargeTxid(p.endToEndId)));
  const settledByTxid = new Map(settled.map((charge) => [charge.txid, charge]));
  return payments.map(({ payment, reporter, authority }): PaymentTarget => {
    const code = codeByTxid.get(payment.txid);
    if (code === undefined) {
      const charge = chargeByTxid.get(payment.txid);
      return { kind: "charge", charge, anomaly: paymentAnomaly(charge, payment, reporter, authority) };
    }
    const made = settledByTxid.get(paymentChargeTxid(payment.endToEndId));
    return { kind: "qr_code", code, anomaly: qrCodePaymentAnomaly(code, made, payment, reporter) };
  });
}

/** What settling a batch came to for one item. */
type ItemSettlement =
  | { kind: "paid" }
  /** Not a plain payment: `anomaly` is what the charge or code as read says. */
  | { kind: "anomaly"; anomaly: PaymentAnomaly; payment: PixPayment }
  /** Plain as read, but not settled by this batch: another item of the batch for the same charge or payment, or the
   * charge or code changed before the write. */
  | { kind: "left"; payment: PixPayment };

/** A payment's charge as it reads once paid, and the item it came from. */
type PaidCharge = { item: ProcessableInboxItem; charge: Transaction; note: string | null };

/**
 * Settles the plain payments among `items` (a statement for the charges' payments, one for the QR codes') and
 * enqueues their deliveries after commit.
 * @returns what became of each item that names a well-formed payment, by item id
 */
async function settleItems(deps: UseCaseDeps, items: ProcessableInboxItem[]): Promise<Map<string, ItemSettlement>> {
  const now = deps.now();
  const outcomes = new Map<string, ItemSettlement>();
  const payments = items.flatMap((item) => {
    const payment = item.event_type === "pix" ? readPixPayment(item.raw_body, item.end_to_end_id) : null;
    return payment === null ? [] : [{ item, payment, reporter: reporterOf(item), authority: amountAuthorityOf(item) }];
  });
  if (payments.length === 0) return outcomes;

  const targets = await readTargets(deps, payments);
  const repeated = (values: string[]) => new Set(values.filter((value, i) => values.indexOf(value) !== i));
  const repeatedTxids = repeated(payments.map(({ payment }) => payment.txid));
  const repeatedPayments = repeated(payments.map(({ payment }) => payment.endToEndId));
  const ofCharges: PaidCharge[] = [];
  const ofCodes: PaidCharge[] = [];
  payments.forEach(({ item, payment }, i) => {
    const target = targets[i]!;
    if (target.anomaly !== null) {
      outcomes.set(item.id, { kind: "anomaly", anomaly: target.anomaly, payment });
      return;
    }
    outcomes.set(item.id, { kind: "left", payment });
    if (repeatedPayments.has(payment.endToEndId)) return;
    if (target.kind === "qr_code") {
      // A code is paid any number of times, by several items of one batch too.
      ofCodes.push({ item, charge: qrCodeCharge(deps.config.encryptionKey, target.code, payment, now), note: null });
    } else if (target.charge !== undefined && !repeatedTxids.has(payment.txid)) {
      const { charge } = target;
      ofCharges.push({
        item,
        charge: { ...charge, ...paidColumns(deps.config.encryptionKey, charge, payment) },
        note: amountNote(charge, payment, amountAuthorityOf(item)),
      });
    }
  });
  for (const [paid, settle] of [
    [ofCharges, deps.repos.payments.settlePaymentRows],
    [ofCodes, deps.repos.payments.settleQrCodePaymentRows],
  ] as const) {
    if (paid.length === 0) continue;
    const charges = paid.map(({ charge }) => ({ ...charge, updated_at: now }));
    const { paidIds, deliveryIds } = await settle({
      payments: paid.map(({ item, note }, i) => ({
        charge: charges[i]!,
        balanceTransactionId: newId("balanceTransaction", now.getTime()),
        inboxItemId: item.id,
        inboxNote: note,
      })),
      now,
      events: planTransactionEvents(charges, "transaction.paid", now),
    });
    await enqueueDeliveries(deps, deliveryIds);
    const won = new Set(paidIds);
    for (const { item, charge } of paid) if (won.has(charge.id)) outcomes.set(item.id, { kind: "paid" });
  }
  return outcomes;
}

/**
 * Settles the plain payments among inbox items `inboxItemIds` in one statement and enqueues their deliveries after
 * commit (see the module comment).
 * @returns per id, in order: `paid` when this call settled it, or null when the caller must process it one by one
 *   (`processInboxItem`): it was not a plain payment, its charge changed meanwhile, or a bank must confirm it first
 * @throws the driver's error (nothing was written); the caller then processes every item one by one
 */
export async function settlePayments(deps: UseCaseDeps, inboxItemIds: string[]): Promise<Array<"paid" | null>> {
  const items = await deps.repos.inbox.findProcessableInboxItems(inboxItemIds);
  // A bank's notifications are read back one by one before they settle anything (processInboxItem).
  const outcomes = await settleItems(
    deps,
    items.filter((item) => item.acquirer_profile === null),
  );
  return inboxItemIds.map((id) => (outcomes.get(id)?.kind === "paid" ? "paid" : null));
}

/**
 * Settles processable item `item` as a batch of one.
 * @returns `paid`; the anomaly to record on the item when its payment cannot settle its charge (`already_paid`
 *   included); null when the item names no well-formed payment
 * @throws Error when its charge or QR code is plain and still was not settled (it changed under the statement): retry
 */
export async function settlePaymentItem(
  deps: UseCaseDeps,
  item: ProcessableInboxItem,
): Promise<"paid" | PaymentAnomaly | null> {
  const outcome = (await settleItems(deps, [item])).get(item.id);
  if (outcome === undefined) return null;
  if (outcome.kind !== "left") return outcome.kind === "paid" ? "paid" : outcome.anomaly;
  // The statement skipped it: the charge is no longer pending, the code no longer active, or the same payment made
  // its charge meanwhile, so the read now says why.
  const [target] = await readTargets(deps, [
    { payment: outcome.payment, reporter: reporterOf(item), authority: amountAuthorityOf(item) },
  ]);
  if (target?.anomaly == null)
    throw new Error(`the target of txid ${outcome.payment.txid} changed during its settlement`);
  return target.anomaly;
}
