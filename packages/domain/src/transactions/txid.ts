/**
 * The central bank's transaction id (`txid`) of a Pix charge: 26 to 35 characters of `[a-zA-Z0-9]` (Bacen Pix API,
 * `cob` resource). It travels in the BR Code location and in the payment notification, which is matched by it, and it
 * is the bank's idempotency key of `PUT /cob/{txid}` (DESIGN §9). A static BR Code (a reusable QR code, DESIGN §13)
 * carries a shorter one, at most 25 characters (Manual do BR Code, field 62-05): ours are 25, so a payment's txid
 * alone says whether it names a charge or a QR code.
 */
import { createHash, createHmac } from "node:crypto";
import { base62Of, randomBase62 } from "../random";

/** Length of the txids we issue: the central bank's minimum, about 155 random bits, short enough for the location. */
export const TXID_LENGTH = 26;

/** Shape of any valid txid (Bacen: `^[a-zA-Z0-9]{26,35}$`). */
export const TXID_PATTERN = /^[a-zA-Z0-9]{26,35}$/;

/** Length of a reusable QR code's txid: the most a static BR Code takes, about 149 random bits. */
export const STATIC_TXID_LENGTH = 25;

/** Shape of a txid a payment may carry: a charge's, or a static code's (1 to 25 characters). */
export const PAYMENT_TXID_PATTERN = /^[a-zA-Z0-9]{1,35}$/;

/** A new random txid; uniqueness is enforced by the database (`transactions.txid` is unique). */
export function generateTxid(): string {
  return randomBase62(TXID_LENGTH);
}

/** A new random txid for a static BR Code; uniqueness is enforced by the database (`qr_codes.txid` is unique). */
export function generateStaticTxid(): string {
  return randomBase62(STATIC_TXID_LENGTH);
}

/**
 * The txid of the charge that payment `endToEndId` to a reusable QR code becomes (DESIGN §13): derived from the
 * payment alone (SHA-256, 26 base62 characters), so a repeated notification of it names the same charge, which the
 * unique txid then refuses to write twice.
 */
export function paymentChargeTxid(endToEndId: string): string {
  return base62Of(createHash("sha256").update(`qr-code-payment\n${endToEndId}`).digest(), TXID_LENGTH);
}

/**
 * The txid of a creation sent with `Idempotency-Key` `key` by store `storeId` in `mode`: an HMAC-SHA256 under
 * `ENCRYPTION_KEY`, so the same request retried after a bank timeout (whose failure released the key) asks the bank
 * for the same charge again, and the bank's charge is read back instead of a second one made; nobody without the key
 * can predict it.
 */
export function txidForIdempotencyKey(
  encryptionKey: Buffer,
  scope: { storeId: string; mode: "live" | "test" },
  key: string,
): string {
  const digest = createHmac("sha256", encryptionKey).update(`txid\n${scope.storeId}\n${scope.mode}\n${key}`).digest();
  return base62Of(digest, TXID_LENGTH);
}
