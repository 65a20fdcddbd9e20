/**
 * 2FA backup codes (DESIGN §3): ten codes of ten characters, shown once, stored as keyed hashes (HMAC-SHA256 under a
 * key derived from `ENCRYPTION_KEY`, so a database leak alone does not allow guessing them offline), single use.
 */
import { createHmac, hkdfSync, randomInt } from "node:crypto";

/** Codes per set. */
export const BACKUP_CODE_COUNT = 10;
const BACKUP_CODE_LENGTH = 10;
/** Lower-case letters and digits without the look-alikes 0/o, 1/l/i (about 49 bits per code). */
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** A new set of {@link BACKUP_CODE_COUNT} codes. */
export function generateBackupCodes(): string[] {
  return Array.from({ length: BACKUP_CODE_COUNT }, () =>
    Array.from({ length: BACKUP_CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join(""),
  );
}

/** The backup-code hashing key, derived from `ENCRYPTION_KEY` with HKDF (a separate key per purpose). */
function backupCodeKey(encryptionKey: Buffer): Buffer {
  return Buffer.from(hkdfSync("sha256", encryptionKey, Buffer.alloc(0), "lm-pix backup codes v1", 32));
}

/**
 * A code as typed, in the form it was generated: ten letters and digits, case-insensitive.
 * @returns the lower-cased code, or null when `input` cannot be a backup code
 */
export function normalizeBackupCode(input: unknown): string | null {
  return typeof input === "string" && /^[A-Za-z0-9]{10}$/.test(input) ? input.toLowerCase() : null;
}

/** The stored form of a (normalised) code: HMAC-SHA256 under the backup-code key, hex. */
export function hashBackupCode(encryptionKey: Buffer, code: string): string {
  return createHmac("sha256", backupCodeKey(encryptionKey)).update(code, "utf8").digest("hex");
}
