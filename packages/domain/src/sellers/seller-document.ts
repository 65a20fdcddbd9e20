/**
 * The seller's own CPF/CNPJ, read in one place only (a payout key of type `cpf`/`cnpj` must be it, and a payment to
 * such a key is sent to it). How the document is stored may change (encryption at rest): only this file knows.
 */
import type { DbClient } from "@lm/db";

/** Whether `digits` (11 or 14, already validated) are the seller's own document. */
export async function isSellersOwnDocument(db: DbClient, sellerId: string, digits: string): Promise<boolean> {
  const seller = await db.seller.findUnique({ where: { id: sellerId }, select: { document: true } });
  return seller?.document === digits;
}

/** The seller's document digits, for a payment sent to its CPF/CNPJ payout key (never logged or returned). */
export async function sellerDocumentDigits(db: DbClient, sellerId: string): Promise<string> {
  const seller = await db.seller.findUniqueOrThrow({ where: { id: sellerId }, select: { document: true } });
  return seller.document;
}
