/**
 * What turning 2FA off means, whether by the user (`disable`) or by recovery: the secret and backup codes go, and
 * every session, trusted device and open sign-in challenge of the user ends (DESIGN §3).
 */
import type { DbClient } from "@lm/db";
import { revokeAllSessions } from "../accounts/sessions";
import { revokeTrustedDevices } from "../accounts/trusted-devices";

/** Turns 2FA off for `userId` inside the caller's transaction. */
export async function turnOffTwoFactor(tx: DbClient, userId: string, now: Date): Promise<void> {
  await tx.user.update({ where: { id: userId }, data: { totp_secret_ciphertext: null, two_factor_enabled_at: null } });
  await tx.backupCode.deleteMany({ where: { user_id: userId } });
  await tx.twoFactorChallenge.updateMany({ where: { user_id: userId, consumed_at: null }, data: { consumed_at: now } });
  await revokeAllSessions(tx, userId, now);
  await revokeTrustedDevices(tx, userId, now);
}
