/**
 * What turning 2FA off means, whether by the user (`disable`) or by recovery: the secret and backup codes go, and
 * every session, trusted device and open sign-in challenge of the user ends (DESIGN §3).
 */
import type { Repositories } from "@lm/db";
import { revokeAllSessions } from "../accounts/sessions";
import { revokeTrustedDevices } from "../accounts/trusted-devices";

/** Turns 2FA off for `userId` inside the caller's transaction. */
export async function turnOffTwoFactor(tx: Repositories, userId: string, now: Date): Promise<void> {
  await tx.accounts.clearUserTwoFactor(userId);
  await tx.accounts.deleteBackupCodesOfUser(userId);
  await tx.accounts.consumeTwoFactorChallengesOfUser(userId, now);
  await revokeAllSessions(tx, userId, now);
  await revokeTrustedDevices(tx, userId, now);
}
