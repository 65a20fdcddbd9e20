/**
 * Use case: settle stored payment notifications (worker queue `inbox-processing`, DESIGN §5, §7), the one way a
 * payment settles a charge. The worker hands the items of the jobs running at the same time to {@link settlePayments};
 * one item is a batch of one ({@link settlePaymentItem}, for `processInboxItem`). A batch's plain payments are settled
 * by the payments repository's one statement: each charge marked `paid` by a conditional update (still `pending`, not
 * expired when paid), its `transaction.paid` event and fan-out, its `payment` balance transaction, one running-balance
 * change per seller and mode, and the items' outcome.
 *
 * A payment that is not plain is an anomaly ({@link paymentAnomaly}): an unknown txid, a mode, acquirer or amount
 * mismatch, a charge no longer pending. Settling one item, its anomaly is recorded on the item; a batch leaves such items, and the
 * ones it could not settle (two items of one batch for one charge or one payment, a charge that changed between the
 * read and the write), to be settled one by one, which records each outcome.
 */
import type { ProcessableInboxItem, Transaction } from "@lm/db";
import type { UseCaseDeps } from "../deps";
import { chargeDocumentColumns } from "../document-at-rest";
import { enqueueDeliveries } from "../events/record-event";
import { newId } from "../ids";
import { saoPauloDate, type AmountDue } from "../due-dates";
import { amountDueOn } from "../transactions/due-date-charge";
import { planTransactionEvents } from "../transactions/transaction-events";
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

/** What settling a batch came to for one item. */
type ItemSettlement =
  | { kind: "paid" }
  /** Not a plain payment: `anomaly` is what the charge as read says. */
  | { kind: "anomaly"; anomaly: PaymentAnomaly; payment: PixPayment }
  /** Plain as read, but not settled by this batch: another item of the batch for the same charge or payment, or the
   * charge changed before the write. */
  | { kind: "left"; payment: PixPayment };

/**
 * Settles the plain payments among `items` in one statement and enqueues their deliveries after commit.
 * @returns what became of each item that names a well-formed payment, by item id
 */
async function settleItems(deps: UseCaseDeps, items: ProcessableInboxItem[]): Promise<Map<string, ItemSettlement>> {
  const now = deps.now();
  const outcomes = new Map<string, ItemSettlement>();
  const payments = items.flatMap((item) => {
    const payment = item.event_type === "pix" ? readPixPayment(item.raw_body, item.end_to_end_id) : null;
    return payment === null ? [] : [{ item, payment }];
  });
  if (payments.length === 0) return outcomes;

  const charges = await deps.repos.charges.findChargesByTxids(payments.map(({ payment }) => payment.txid));
  const chargeByTxid = new Map(charges.map((charge) => [charge.txid, charge]));
  const repeated = (values: string[]) => new Set(values.filter((value, i) => values.indexOf(value) !== i));
  const repeatedTxids = repeated(payments.map(({ payment }) => payment.txid));
  const repeatedPayments = repeated(payments.map(({ payment }) => payment.endToEndId));
  const plain = payments.flatMap(({ item, payment }) => {
    const charge = chargeByTxid.get(payment.txid);
    const anomaly = paymentAnomaly(charge, payment, reporterOf(item), amountAuthorityOf(item));
    if (anomaly !== null || charge === undefined) {
      if (anomaly !== null) outcomes.set(item.id, { kind: "anomaly", anomaly, payment });
      return [];
    }
    outcomes.set(item.id, { kind: "left", payment });
    return repeatedTxids.has(payment.txid) || repeatedPayments.has(payment.endToEndId)
      ? []
      : [{ item, payment, charge }];
  });
  if (plain.length === 0) return outcomes;

  const paid = plain.map(({ item, payment, charge }) => ({
    item,
    charge: { ...charge, ...paidColumns(deps.config.encryptionKey, charge, payment), updated_at: now },
    note: amountNote(charge, payment, amountAuthorityOf(item)),
  }));
  const { paidIds, deliveryIds } = await deps.repos.payments.settlePaymentRows({
    payments: paid.map(({ item, charge, note }) => ({
      charge,
      balanceTransactionId: newId("balanceTransaction", now.getTime()),
      inboxItemId: item.id,
      inboxNote: note,
    })),
    now,
    events: planTransactionEvents(
      paid.map(({ charge }) => charge),
      "transaction.paid",
      now,
    ),
  });
  await enqueueDeliveries(deps, deliveryIds);
  const won = new Set(paidIds);
  for (const { item, charge } of paid) if (won.has(charge.id)) outcomes.set(item.id, { kind: "paid" });
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
 * @throws Error when its charge is plain and still was not settled (it changed under the statement): retry
 */
export async function settlePaymentItem(
  deps: UseCaseDeps,
  item: ProcessableInboxItem,
): Promise<"paid" | PaymentAnomaly | null> {
  const outcome = (await settleItems(deps, [item])).get(item.id);
  if (outcome === undefined) return null;
  if (outcome.kind !== "left") return outcome.kind === "paid" ? "paid" : outcome.anomaly;
  // The conditional update skipped the charge: it is no longer pending, so the read now says why.
  const [charge] = await deps.repos.charges.findChargesByTxids([outcome.payment.txid]);
  const anomaly = paymentAnomaly(charge, outcome.payment, reporterOf(item), amountAuthorityOf(item));
  if (anomaly === null) throw new Error(`charge of txid ${outcome.payment.txid} changed during its settlement`);
  return anomaly;
}
