/**
 * Use case: encrypt the CPF/CNPJ of rows written before documents were encrypted at rest (ops command
 * `documents:encrypt`, run once after deploying migration `20261123100000_hostile_input`; running it again finds
 * nothing to do). SQL alone cannot do it: the key is `ENCRYPTION_KEY`, which only the processes hold.
 */
import type { Config } from "@lm/config";
import type { ChargeDocumentColumn, Repositories } from "@lm/db";
import { chargeDocumentColumns, documentLookupHash, encryptDocument } from "../document-at-rest";
import { parseTaxDocument } from "../documents";

/** Rows read and written per round. */
const BATCH = 500;

/** How many rows each column had in clear and now has encrypted. */
export interface EncryptedDocumentCounts {
  sellers: number;
  customerDocuments: number;
  payerDocuments: number;
}

/**
 * Encrypts every document still stored as clear digits: sellers' (also filling `document_hash`) and charges'
 * customer and payer documents.
 * @throws Error when a clear seller document is not a valid CPF/CNPJ (nothing is invented for it)
 */
export async function encryptClearDocuments(
  repos: Repositories,
  config: Pick<Config, "encryptionKey">,
): Promise<EncryptedDocumentCounts> {
  const key = config.encryptionKey;
  let sellers = 0;
  for (let rows = await repos.sellers.listSellersWithClearDocument(BATCH); rows.length > 0;) {
    for (const seller of rows) {
      if (!parseTaxDocument(seller.document)) throw new Error(`seller ${seller.id} has no valid clear document`);
      await repos.sellers.setSellerEncryptedDocument(seller.id, {
        document: encryptDocument(key, seller.document, seller.id),
        documentHash: documentLookupHash(key, seller.document),
      });
    }
    sellers += rows.length;
    rows = await repos.sellers.listSellersWithClearDocument(BATCH);
  }
  const charges = async (column: ChargeDocumentColumn): Promise<number> => {
    let count = 0;
    for (let rows = await repos.sellers.listChargesWithClearDocument(column, BATCH); rows.length > 0;) {
      for (const row of rows) {
        const digits = row[column] ?? "";
        const { stored, masked } = chargeDocumentColumns(key, row.id, column, {
          kind: digits.length === 11 ? "cpf" : "cnpj",
          digits,
        });
        await repos.sellers.setChargeEncryptedDocument(row.id, column, { stored, masked });
      }
      count += rows.length;
      rows = await repos.sellers.listChargesWithClearDocument(column, BATCH);
    }
    return count;
  };
  return {
    sellers,
    customerDocuments: await charges("customer_document"),
    payerDocuments: await charges("payer_document"),
  };
}
