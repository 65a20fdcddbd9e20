/**
 * Encryption of secrets at rest with AES-256-GCM (DESIGN §3 "Secrets at rest"): TOTP secrets, webhook secrets,
 * postback secrets and acquirer secrets. The row id is the associated data, so a ciphertext copied into another row
 * does not decrypt. The envelope names its key version so that keys can be rotated.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const KEY_VERSION = "v1";

/**
 * Encrypts `plaintext` for the row `rowId`.
 * @param key - 32-byte key (`ENCRYPTION_KEY`)
 * @returns `v1.<iv>.<tag>.<ciphertext>`, each part base64url
 */
export function encryptSecret(key: Buffer, plaintext: string, rowId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(rowId, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [KEY_VERSION, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

/**
 * Decrypts an envelope made by {@link encryptSecret} for the same `rowId`.
 * @throws Error when the envelope is malformed, of an unknown key version, or fails authentication
 */
export function decryptSecret(key: Buffer, envelope: string, rowId: string): string {
  const [version, iv, tag, ciphertext] = envelope.split(".");
  if (version !== KEY_VERSION || iv === undefined || tag === undefined || ciphertext === undefined) {
    throw new Error("unrecognised secret envelope");
  }
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(rowId, "utf8"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
}
