/**
 * The seller's own CPF/CNPJ, read in one place only (a payout key of type `cpf`/`cnpj` must be it, and a payment to
 * such a key is sent to it). The document is encrypted at rest with a keyed lookup hash: equality is
 * checked on the hash, and the digits are decrypted only to be sent to the acquirer.
 */
import type { Repositories } from "@lm/db";
import { documentLookupHash, readSellerDocument } from "../document-at-rest";

/**
 * Whether `digits` (11 or 14, already validated) are the seller's own document.
 * @param encryptionKey - `config.encryptionKey`
 */
export async function isSellersOwnDocument(
  repos: Repositories,
  encryptionKey: Buffer,
  sellerId: string,
  digits: string,
): Promise<boolean> {
  const seller = await repos.sellers.findSellerDocument(sellerId);
  if (!seller) return false;
  // A row written before encryption has no hash until `documents:encrypt` runs; its document is still clear digits.
  if (seller.document_hash === null) return readSellerDocument(encryptionKey, seller).digits === digits;
  return seller.document_hash === documentLookupHash(encryptionKey, digits);
}

/**
 * The seller's document digits, for a payment sent to its CPF/CNPJ payout key (never logged or returned).
 * @param encryptionKey - `config.encryptionKey`
 * @throws Error when the stored document does not decrypt (another key, tampering)
 */
export async function sellerDocumentDigits(
  repos: Repositories,
  encryptionKey: Buffer,
  sellerId: string,
): Promise<string> {
  const seller = await repos.sellers.getSellerDocument(sellerId);
  return readSellerDocument(encryptionKey, seller).digits;
}
