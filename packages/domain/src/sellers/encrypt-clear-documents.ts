/**
 * Use case: encrypt the CPF/CNPJ of rows written before documents were encrypted at rest (ops command
 * `documents:encrypt`, run once after deploying migration `20261123100000_hostile_input`; running it again finds
 * nothing to do). SQL alone cannot do it: the key is `ENCRYPTION_KEY`, which only the processes hold.
 */
import type { Config } from "@lm/config";
import {
  listChargesWithClearDocument,
  listSellersWithClearDocument,
  setChargeEncryptedDocument,
  setSellerEncryptedDocument,
  type ChargeDocumentColumn,
  type Db,
} from "@lm/db";
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
  db: Db,
  config: Pick<Config, "encryptionKey">,
): Promise<EncryptedDocumentCounts> {
  const key = config.encryptionKey;
  let sellers = 0;
  for (let rows = await listSellersWithClearDocument(db, BATCH); rows.length > 0;) {
    for (const seller of rows) {
      if (!parseTaxDocument(seller.document)) throw new Error(`seller ${seller.id} has no valid clear document`);
      await setSellerEncryptedDocument(db, seller.id, {
        document: encryptDocument(key, seller.document, seller.id),
        documentHash: documentLookupHash(key, seller.document),
      });
    }
    sellers += rows.length;
    rows = await listSellersWithClearDocument(db, BATCH);
  }
  const charges = async (column: ChargeDocumentColumn): Promise<number> => {
    let count = 0;
    for (let rows = await listChargesWithClearDocument(db, column, BATCH); rows.length > 0;) {
      for (const row of rows) {
        const digits = row[column] ?? "";
        const { stored, masked } = chargeDocumentColumns(key, row.id, column, {
          kind: digits.length === 11 ? "cpf" : "cnpj",
          digits,
        });
        await setChargeEncryptedDocument(db, row.id, column, { stored, masked });
      }
      count += rows.length;
      rows = await listChargesWithClearDocument(db, column, BATCH);
    }
    return count;
  };
  return {
    sellers,
    customerDocuments: await charges("customer_document"),
    payerDocuments: await charges("payer_document"),
  };
}
