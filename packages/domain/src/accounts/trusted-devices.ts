/**
 * Trusted devices (DESIGN §3): after a second factor with `trustDevice: true`, the `lm.trust_device` cookie skips the
 * 2FA challenge on that device for 30 days. Server-side rows, token stored as SHA-256, rotated on every use (a copied
 * cookie works once), revoked by 2FA disable, recovery and password reset.
 */
import { randomUUID } from "node:crypto";
import type { Repositories } from "@lm/db";
import { generateToken, hashToken, isWellFormedToken } from "./credentials";

/** How long a device stays trusted after the second factor that trusted it. */
export const TRUSTED_DEVICE_TTL_MS = 30 * 24 * 3_600_000;

/** A trusted-device token for the cookie, and when the trust ends. */
export interface IssuedTrustedDevice {
  token: string;
  expiresAt: Date;
}

/** Trusts the device of a sign-in that has just passed its second factor. */
export async function trustDevice(
  repos: Repositories,
  input: { userId: string; now: Date },
): Promise<IssuedTrustedDevice> {
  const { token, hash } = generateToken();
  const expiresAt = new Date(input.now.getTime() + TRUSTED_DEVICE_TTL_MS);
  await repos.accounts.insertTrustedDevice({
    id: randomUUID(),
    user_id: input.userId,
    token_hash: hash,
    created_at: input.now,
    expires_at: expiresAt,
  });
  return { token, expiresAt };
}

/**
 * Uses a trusted-device token of `userId`: when it is live, replaces it with a new one (same end of trust).
 * @returns the new token, or null when the token is not a live trusted device of this user (then 2FA applies)
 */
export async function useTrustedDevice(
  repos: Repositories,
  input: { userId: string; token: string; now: Date },
): Promise<IssuedTrustedDevice | null> {
  if (!isWellFormedToken(input.token)) return null;
  const oldHash = hashToken(input.token);
  const next = generateToken();
  const device = await repos.accounts.rotateLiveTrustedDevice({
    userId: input.userId,
    oldHash,
    newHash: next.hash,
    now: input.now,
  });
  return device ? { token: next.token, expiresAt: device.expires_at } : null;
}

/** Revokes every trusted device of the user. */
export async function revokeTrustedDevices(repos: Repositories, userId: string, now: Date): Promise<void> {
  await repos.accounts.revokeTrustedDevicesOfUser(userId, now);
}
