/**
 * Trusted devices (DESIGN §3): after a second factor with `trustDevice: true`, the `lm.trust_device` cookie skips the
 * 2FA challenge on that device for 30 days. Server-side rows, token stored as SHA-256, rotated on every use, revoked
 * by 2FA disable, recovery and password reset.
 */
import type { DbClient } from "@lm/db";

/** Revokes every trusted device of the user. */
export async function revokeTrustedDevices(db: DbClient, userId: string, now: Date): Promise<void> {
  await db.trustedDevice.updateMany({ where: { user_id: userId, revoked_at: null }, data: { revoked_at: now } });
}
