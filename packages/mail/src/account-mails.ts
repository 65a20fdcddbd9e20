/**
 * The account mails (DESIGN §3): links carrying single-use tokens, and security notices. Each has a plain-text and an
 * HTML body with the same content; names and links are escaped in the HTML.
 */
import { compose } from "./compose";
import type { MailMessage } from "./mailer";

/** A new owner's address check (verification link, 24 h). */
export function verifyEmailMail(to: string, name: string, link: string): MailMessage {
  return compose(
    to,
    "Confirm your email address",
    [`Hello ${name},`, "Please confirm your email address. The link works once, within 24 hours."],
    { label: "Confirm email address", url: link },
  );
}

/** A password reset link (1 h), also used for an operator's first password. */
export function passwordResetMail(to: string, name: string, link: string): MailMessage {
  return compose(
    to,
    "Reset your password",
    [
      `Hello ${name},`,
      "Someone asked to reset the password of your account. The link works once, within 1 hour.",
      "If it was not you, ignore this message: your password stays as it is.",
    ],
    { label: "Choose a new password", url: link },
  );
}

/** An invitation to create a seller's owner account (7 days). */
export function inviteMail(to: string, sellerName: string, link: string): MailMessage {
  return compose(
    to,
    "You are invited to the seller panel",
    [`You are invited to manage ${sellerName} in the seller panel. The invitation works once, within 7 days.`],
    { label: "Create your account", url: link },
  );
}

/** The lost-2FA recovery link (1 h); using it locks withdrawals for 24 h. */
export function twoFactorRecoveryMail(to: string, name: string, link: string): MailMessage {
  return compose(
    to,
    "Recover access without your authenticator",
    [
      `Hello ${name},`,
      "Someone asked to turn off two-factor authentication on your account because the authenticator was lost.",
      "Following the link turns two-factor authentication off, signs out every session and blocks withdrawals for 24 hours. It works once, within 1 hour.",
      "If it was not you, ignore this message and change your password.",
    ],
    { label: "Turn off two-factor authentication", url: link },
  );
}

const TWO_FACTOR_CHANGES = {
  enabled: {
    subject: "Two-factor authentication is on",
    body: "Two-factor authentication was turned on for your account.",
  },
  disabled: {
    subject: "Two-factor authentication is off",
    body: "Two-factor authentication was turned off for your account and every session was signed out.",
  },
  recovered: {
    subject: "Two-factor authentication was turned off by recovery",
    body: "Two-factor authentication was turned off through the emailed recovery link and every session was signed out.",
  },
  reenrolled: {
    subject: "Two-factor authentication is on again",
    body: "Two-factor authentication was turned on again for your account, with a new authenticator.",
  },
} as const;

/** A change of someone's 2FA that locks their seller's withdrawals for 24 h (DESIGN §11). */
export type TwoFactorLockingChange = "disabled" | "recovered" | "reenrolled";

/**
 * Security notice: 2FA was turned on, turned off, or turned off through recovery.
 * @param withdrawalsLockedUntil - when the change locked the seller's withdrawals, until when (said in the mail)
 */
export function twoFactorChangedMail(
  to: string,
  name: string,
  change: keyof typeof TWO_FACTOR_CHANGES,
  withdrawalsLockedUntil?: Date,
): MailMessage {
  const { subject, body } = TWO_FACTOR_CHANGES[change];
  const lock =
    withdrawalsLockedUntil === undefined
      ? []
      : [`Withdrawals from the seller account are blocked until ${withdrawalsLockedUntil.toISOString()}.`];
  return compose(to, subject, [`Hello ${name},`, body, ...lock, "If this was not you, contact support at once."]);
}

/**
 * Security notice to a seller's other owners: `account`'s 2FA was turned off (by the user or by recovery) or enrolled
 * again after that, so the
 * seller's withdrawals are locked until `until` (DESIGN §11), in case the one who did it is not that owner.
 */
export function withdrawalsLockedMail(
  to: string,
  name: string,
  lock: { account: string; change: TwoFactorLockingChange; until: Date },
): MailMessage {
  const how = {
    disabled: "turned off",
    recovered: "turned off through the emailed recovery link",
    reenrolled: "turned on again with a new authenticator after being turned off",
  }[lock.change];
  return compose(to, "Withdrawals are locked for 24 hours", [
    `Hello ${name},`,
    `Two-factor authentication of ${lock.account}, an owner of your seller account, was ${how}. Withdrawals are blocked until ${lock.until.toISOString()}.`,
    "If this was not expected, sign in, review the sessions and payout keys, and contact support at once.",
  ]);
}

/**
 * Security notice: a run of wrong second-factor codes was seen on the account (someone may know the password).
 * @param wrongCodes - how many wrong codes in a row
 */
export function wrongSecondFactorsMail(to: string, name: string, wrongCodes: number): MailMessage {
  return compose(to, "Wrong two-factor codes were entered on your account", [
    `Hello ${name},`,
    `${wrongCodes} wrong two-factor codes in a row were just entered on your account. Whoever entered them had to know your password.`,
    "If this was not you, change your password at once and review your active sessions.",
  ]);
}
