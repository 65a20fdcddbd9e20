/**
 * What turning 2FA off means, whether by the user (`disable`) or by recovery: the secret and backup codes go, and
 * every session, trusted device and open sign-in challenge of the user ends (DESIGN §3).
 */
import { clearUserTwoFactor, consumeTwoFactorChallengesOfUser, deleteBackupCodesOfUser, type DbClient } from "@lm/db";
import { revokeAllSessions } from "../accounts/sessions";
import { revokeTrustedDevices } from "../accounts/trusted-devices";

/** Turns 2FA off for `userId` inside the caller's transaction. */
export async function turnOffTwoFactor(tx: DbClient, userId: string, now: Date): Promise<void> {
  await clearUserTwoFactor(tx, userId);
  await deleteBackupCodesOfUser(tx, userId);
  await consumeTwoFactorChallengesOfUser(tx, userId, now);
  await revokeAllSessions(tx, userId, now);
  await revokeTrustedDevices(tx, userId, now);
}
