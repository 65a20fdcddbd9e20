/**
 * Full CPF/CNPJ at rest (LGPD: a leaked table must not leak documents): stored only as an AES-256-GCM envelope (the secret box, DESIGN §3)
 * whose associated data names the row and column, so a ciphertext copied elsewhere does not decrypt; where equality
 * is needed (a seller's document is unique, a payout key must equal the seller's own document) a keyed hash
 * (HMAC-SHA256 under a key derived from `ENCRYPTION_KEY`) stands in for the clear digits.
 */
import { createHmac, hkdfSync } from "node:crypto";
import type { Seller } from "@lm/db";
import { maskTaxDocument, parseTaxDocument, type TaxDocument } from "./documents";
import { decryptSecret, encryptSecret } from "./secret-box";

/** Digits stored in clear by rows written before encryption (until `documents:encrypt` has run). */
const CLEAR_DIGITS = /^(\d{11}|\d{14})$/;

/** The lookup-hash key, derived from `ENCRYPTION_KEY` with HKDF (a separate key per purpose). */
function lookupKey(encryptionKey: Buffer): Buffer {
  return Buffer.from(hkdfSync("sha256", encryptionKey, Buffer.alloc(0), "lm-pix document lookup v1", 32));
}

/**
 * The keyed hash of a document, for equality without the clear digits: `sellers.document_hash`, and the comparison
 * of a payout key with the seller's own document.
 * @param encryptionKey - `config.encryptionKey` (32 bytes)
 * @param digits - the document's digits only (11 for a CPF, 14 for a CNPJ), as {@link parseTaxDocument} gives them
 * @returns lower-case hex HMAC-SHA256, 64 characters
 */
export function documentLookupHash(encryptionKey: Buffer, digits: string): string {
  return createHmac("sha256", lookupKey(encryptionKey)).update(digits, "utf8").digest("hex");
}

/**
 * The stored form of a document's digits: an envelope bound to `context` (`<row id>` for a seller,
 * `<transaction id>:customer_document` or `:payer_document` for a charge).
 */
export function encryptDocument(encryptionKey: Buffer, digits: string, context: string): string {
  return encryptSecret(encryptionKey, digits, context);
}

/**
 * The digits of a stored document (an envelope made by {@link encryptDocument} for the same `context`, or clear
 * digits of a row older than encryption).
 * @throws Error when the envelope does not decrypt (another key or context, or tampering)
 */
export function decryptDocument(encryptionKey: Buffer, stored: string, context: string): string {
  return CLEAR_DIGITS.test(stored) ? stored : decryptSecret(encryptionKey, stored, context);
}

/**
 * What a charge stores of a customer's or payer's document: the envelope (bound to `<transaction id>:<column>`) and
 * the masked form replies show, so that serialising a charge needs no key.
 */
export function chargeDocumentColumns(
  encryptionKey: Buffer,
  transactionId: string,
  column: "customer_document" | "payer_document",
  document: TaxDocument | null,
): { stored: string | null; masked: string | null } {
  if (document === null) return { stored: null, masked: null };
  return {
    stored: encryptDocument(encryptionKey, document.digits, `${transactionId}:${column}`),
    masked: maskTaxDocument(document.digits),
  };
}

/**
 * A seller's CPF or CNPJ, decrypted (for the rule that a payout key must be the seller's own document, and for
 * operators' tools; never for a log or a reply, which show it masked).
 * @param encryptionKey - `config.encryptionKey`
 * @param seller - the seller row (`id` and `document`)
 * @returns the document's kind and digits
 * @throws Error when the stored document does not decrypt or is not a valid CPF/CNPJ (a corrupted row)
 */
export function readSellerDocument(encryptionKey: Buffer, seller: Pick<Seller, "id" | "document">): TaxDocument {
  const document = parseTaxDocument(decryptDocument(encryptionKey, seller.document, seller.id));
  if (!document) throw new Error(`seller ${seller.id} has an unreadable document`);
  return document;
}
