/**
 * Mails about where a seller's money goes (DESIGN §7 "Payout keys"): each add or delete of a payout key is told to
 * every owner, so a key added by someone else is noticed before a withdrawal reaches it.
 */
import { compose } from "./compose";
import type { MailMessage } from "./mailer";

/** What a payout key notice names about the key: its kind and masked form only. */
export interface PayoutKeyChange {
  change: "added" | "deleted";
  type: string;
  keyMasked: string;
  at: Date;
}

/** Notice to a seller's owner that a payout key was added or deleted. */
export function payoutKeyChangedMail(to: string, name: string, key: PayoutKeyChange): MailMessage {
  return compose(to, `Payout key ${key.change}: ${key.type} ${key.keyMasked}`, [
    `Hello ${name},`,
    `A payout key (${key.type} ${key.keyMasked}) was ${key.change} on your seller account at ${key.at.toISOString()}. Withdrawals are paid only to these keys.`,
    "If it was not you, sign in, remove the key and change your password at once.",
  ]);
}

/** What the owners are told of a dispute (MED). */
export interface DisputeNotice {
  disputeId: string;
  transactionId: string;
  mode: "live" | "test";
  /** Centavos the payer's bank took back. */
  amount: number;
  at: Date;
}

/** Notice to a seller's owner that a payer's bank took money of a paid charge back under the MED (DESIGN §11). */
export function disputeMail(to: string, name: string, dispute: DisputeNotice): MailMessage {
  const reais = `R$ ${Math.floor(dispute.amount / 100)},${String(dispute.amount % 100).padStart(2, "0")}`;
  return compose(to, `Dispute: ${reais} of ${dispute.transactionId} taken back by the payer's bank`, [
    `Hello ${name},`,
    `The payer's bank returned ${reais} of ${dispute.mode} charge ${dispute.transactionId} to the payer under the Pix MED ` +
      `(Mecanismo Especial de Devolução) at ${dispute.at.toISOString()}; dispute ${dispute.disputeId} records it.`,
    "The amount has left your balance, which may now be negative: withdrawals wait until new payments cover it.",
  ]);
}
