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
