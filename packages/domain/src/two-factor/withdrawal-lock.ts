/**
 * DESIGN §11 "Account-takeover guards": a change of an owner's second factor that someone holding the account could
 * make (turning 2FA off by `disable` or by recovery, or enrolling again after that) locks the seller's withdrawals for
 * 24 hours, so that the money
 * cannot leave before the owners hear of it. One function for every such change: the lock, `seller.updated` and the
 * feed item commit with the change itself; then the user gets the change's notice, which says until when, and every
 * other owner of the seller a notice of the lock.
 */
import type { User, Repositories } from "@lm/db";
import { twoFactorChangedMail, withdrawalsLockedMail, type TwoFactorLockingChange } from "@lm/mail";
import { sendMailSafely, type AccountDeps } from "../accounts/account-deps";
import { recordSellerUpdated } from "../sellers/seller-profile";

/** How long withdrawals stay locked after such a change (SPEC "Limits", DESIGN §11). */
export const WITHDRAWAL_LOCK_AFTER_TWO_FACTOR_CHANGE_MS = 24 * 3_600_000;

/** What the seller's feed says happened, before "; withdrawals are locked until …". */
const FEED_MESSAGES: Record<TwoFactorLockingChange, string> = {
  disabled: "Two-factor authentication was turned off",
  recovered: "Two-factor authentication was recovered by email",
  reenrolled: "Two-factor authentication was enrolled again after being turned off",
};

/**
 * Runs `change` (which changes one user's 2FA with `tx` and returns that user) in one database transaction with the
 * lock of the user's seller's withdrawals until now + 24 h, `seller.updated` and a feed item; after commit, mails the
 * user {@link twoFactorChangedMail} and every other owner of the seller {@link withdrawalsLockedMail}. A user without
 * a seller (an operator) locks nothing and gets the notice alone.
 * @param kind - what `change` does, for the feed and the mails
 * @param change - given the transaction and the time of the change; throwing rolls everything back and mails nothing
 * @returns the user and the end of the lock
 */
export async function lockWithdrawalsOnTwoFactorChange(
  deps: AccountDeps,
  kind: TwoFactorLockingChange,
  change: (tx: Repositories, now: Date) => Promise<User>,
): Promise<{ user: User; lockedUntil: Date }> {
  const now = deps.now();
  const lockedUntil = new Date(now.getTime() + WITHDRAWAL_LOCK_AFTER_TWO_FACTOR_CHANGE_MS);
  const user = await deps.repos.transaction(async (tx) => {
    const changed = await change(tx, now);
    // A later enrolment must lock again: it may be someone else's authenticator.
    if (kind !== "reenrolled") await tx.accounts.markUserTwoFactorDisabled(changed.id, now);
    if (changed.seller_id === null) return changed;
    const seller = await tx.sellers.lockSellerWithdrawals(changed.seller_id, lockedUntil, now);
    // A seller change like any other (DESIGN §7); its deliveries are enqueued by the reconciler's sweep.
    await recordSellerUpdated(
      tx,
      seller,
      {
        title: "Withdrawals locked",
        message: `${FEED_MESSAGES[kind]}; withdrawals are locked until ${lockedUntil.toISOString()}.`,
        data: { fields: "withdrawals_locked_until", user_id: changed.id },
      },
      now,
    );
    return changed;
  });
  if (user.seller_id === null) {
    await sendMailSafely(deps, twoFactorChangedMail(user.email, user.name, kind), `2fa ${kind}`);
    return { user, lockedUntil };
  }
  await sendMailSafely(deps, twoFactorChangedMail(user.email, user.name, kind, lockedUntil), `2fa ${kind}`);
  for (const owner of await deps.repos.accounts.listOwnersOfSeller(user.seller_id)) {
    if (owner.id === user.id) continue;
    const mail = withdrawalsLockedMail(owner.email, owner.name, {
      account: user.email,
      change: kind,
      until: lockedUntil,
    });
    await sendMailSafely(deps, mail, "withdrawals locked");
  }
  return { user, lockedUntil };
}
