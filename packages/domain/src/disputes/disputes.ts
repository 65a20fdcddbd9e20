/**
 * Disputes (DESIGN §11): a devolução the service did not ask for (an unknown id, or a `natureza` beginning `MED_`) on
 * a paid charge: under the Pix MED (Mecanismo Especial de Devolução) the payer's bank has already taken the money
 * back, so a dispute is always `lost`. It is recorded from a stored inbound notification, like every money movement,
 * in ONE database transaction under the charge row's lock: the dispute, the charge's `amount_disputed`, the negative
 * `dispute` balance transaction (the one debit that may take `available` below zero; new payments then repay the
 * debt first, and withdrawals wait), `dispute.created` and `transaction.disputed`, and a feed item; the owners are
 * mailed after commit.
 */
import type { Dispute, DisputeScope, Transaction, Repositories } from "@lm/db";
import { disputeMail } from "@lm/mail";
import { serializeDispute } from "@lm/wire";
import { sendMailSafely } from "../accounts";
import type { RefundOutcome, Settlement } from "../inbound";
import { appendBalanceTransaction } from "../balance/ledger";
import type { UseCaseDeps } from "../deps";
import { notFound } from "../errors";
import { recordEvent } from "../events/record-event";
import { isId, newId } from "../ids";
import { notifySeller } from "../notifications/notifications";
import type { PageArgs } from "../paging";
import { recordTransactionEvent } from "../transactions/transaction-events";
import { reporterAnomaly, type Reporter } from "../acquirers";

/** The `natureza` prefix of a devolução the payer's bank made under the MED (API Pix `MED_OPERACIONAL`, `MED_FRAUDE`). */
const MED_NATURE_PREFIX = "MED_";

/** Whether a devolução's outcome says it was made under the MED, whatever its id. */
export function isMedDevolucao(outcome: Pick<RefundOutcome, "nature">): boolean {
  return outcome.nature?.startsWith(MED_NATURE_PREFIX) ?? false;
}

/** What recording a dispute settled: the item's outcome and, once written, the dispute to mail about. */
export type DisputeSettlement = Settlement & { dispute?: Dispute };

/**
 * Records the unrequested devolução `outcome` as a dispute of the charge its payment paid, inside `tx`. Repeats of
 * the same devolução (`rtrId`) change nothing.
 * @param reporter - the notifying acquirer: only the one that holds the charge's money reports its disputes
 * @returns `disputed` (written), `already_settled` (a repeat), `processing` / `dispute_not_made` (the bank has not
 *   returned, or did not return, the money: nothing to record), or an anomaly (`unknown_payment`, `mode_mismatch`,
 *   `acquirer_mismatch`, `dispute_exceeds_remainder` when the charge has less left than the devolução: checked under
 *   the charge's lock, so concurrent disputes never book more than was paid)
 */
export async function recordDispute(
  tx: Repositories,
  outcome: RefundOutcome,
  reporter: Reporter,
  now: Date,
): Promise<DisputeSettlement> {
  if (outcome.status !== "succeeded") {
    return {
      result: outcome.status === "processing" ? "processing" : "dispute_not_made",
      error: null,
      deliveryIds: [],
    };
  }
  const charge =
    outcome.paymentEndToEndId === null ? undefined : await tx.disputes.lockChargeOfPayment(outcome.paymentEndToEndId);
  if (charge === undefined) return { result: "unknown_payment", error: "unknown_payment", deliveryIds: [] };
  const base = { transactionId: charge.id, deliveryIds: [] };
  const refused = reporterAnomaly(reporter, charge, "charge");
  if (refused !== null) return { ...base, ...refused };
  if (await tx.disputes.findDisputeByEndToEndId(outcome.returnId))
    return { ...base, result: "already_settled", error: null };
  const left = disputableRemainder(charge);
  if (outcome.amount > left) {
    const code = DISPUTE_EXCEEDS_REMAINDER;
    return { ...base, result: code, error: `${code}: ${outcome.amount} taken back, ${left} left of the charge` };
  }
  const sellerId = await tx.sellers.findSellerIdOfStore(charge.store_id);
  const reason = [outcome.nature, outcome.reason].filter((part) => part !== null).join(": ") || null;
  const dispute = await tx.disputes.insertDisputeUnlessExists({
    id: newId("dispute", now.getTime()),
    transaction_id: charge.id,
    store_id: charge.store_id,
    seller_id: sellerId,
    mode: charge.mode,
    amount: outcome.amount,
    reason,
    end_to_end_id: outcome.returnId,
    created_at: now,
  });
  if (dispute === null) return { ...base, result: "already_settled", error: null };
  const disputed = await tx.disputes.addToChargeAmountDisputed(charge.id, dispute.amount, now);
  await appendBalanceTransaction(tx, {
    sellerId,
    mode: charge.mode,
    type: "dispute",
    amount: -dispute.amount,
    sourceId: dispute.id,
    now,
  });
  const created = await recordEvent(tx, {
    scope: { storeId: charge.store_id, mode: charge.mode },
    type: "dispute.created",
    object: serializeDispute(dispute) as unknown as Record<string, unknown>,
    postback: { transactionId: charge.id, url: charge.postback_url },
    now,
  });
  const transactionDisputed = await recordTransactionEvent(tx, disputed, "transaction.disputed", now);
  await notifySeller(tx, {
    sellerId,
    type: "dispute.created",
    title: "Payment taken back (MED)",
    message:
      `The payer's bank took back ${dispute.amount} centavos of ${charge.mode} charge ${charge.id} under the Pix MED. ` +
      "The amount left your balance.",
    data: { dispute_id: dispute.id, transaction_id: charge.id, mode: charge.mode, amount: dispute.amount },
  });
  return {
    ...base,
    result: "disputed",
    error: null,
    dispute,
    deliveryIds: [...created.deliveryIds, ...transactionDisputed.deliveryIds],
  };
}

/** The anomaly of a devolução larger than what is left of its charge: nothing is booked. */
export const DISPUTE_EXCEEDS_REMAINDER = "dispute_exceeds_remainder";

/** Centavos of `charge` a dispute may still take: its amount less what was refunded (or is being) and disputed. */
export function disputableRemainder(
  charge: Pick<Transaction, "amount" | "amount_refunded" | "amount_disputed">,
): number {
  return charge.amount - charge.amount_refunded - charge.amount_disputed;
}

/** Mails every owner of `dispute`'s seller; a mail that cannot be sent is logged, never thrown. */
export async function mailDispute(
  deps: Pick<UseCaseDeps, "repos" | "mailer" | "logger">,
  dispute: Dispute,
): Promise<void> {
  deps.logger.warn("dispute recorded", { dispute_id: dispute.id, transaction_id: dispute.transaction_id });
  for (const owner of await deps.repos.accounts.listOwnersOfSeller(dispute.seller_id)) {
    const mail = disputeMail(owner.email, owner.name, {
      disputeId: dispute.id,
      transactionId: dispute.transaction_id,
      mode: dispute.mode,
      amount: dispute.amount,
      at: dispute.created_at,
    });
    await sendMailSafely(deps, mail, "dispute");
  }
}

/**
 * Dispute `id` of `scope` (a store's, for API keys; a seller's, for the panel).
 * @throws ApiError `resource_not_found` when it is malformed, unknown, or another store's, seller's or mode's
 */
export async function findDispute(repos: Repositories, scope: DisputeScope, id: string): Promise<Dispute> {
  const found = isId("dispute", id) ? await repos.disputes.findDisputeInScope(scope, id) : null;
  if (!found) throw notFound("dispute");
  return found;
}

/** One page of `scope`'s disputes, in the page's order. */
export function listDisputes(repos: Repositories, scope: DisputeScope, page: PageArgs): Promise<Dispute[]> {
  return repos.disputes.listDisputesPage(scope, page);
}
