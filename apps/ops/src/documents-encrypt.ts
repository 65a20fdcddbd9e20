/**
 * `documents:encrypt`: encrypts the CPF/CNPJ of rows written before documents were encrypted at rest (run once
 * after deploying migration `20261123100000_hostile_input`; a second run changes nothing).
 */
import { encryptClearDocuments } from "@lm/domain";
import type { Command } from "./command";

/** Encrypts clear documents of sellers and charges. */
export const documentsEncrypt: Command = {
  usage: "documents:encrypt",
  options: [],
  async run(ctx) {
    const counts = await encryptClearDocuments(ctx.repos, ctx.config);
    return {
      text: `Encrypted ${counts.sellers} seller, ${counts.customerDocuments} customer and ${counts.payerDocuments} payer documents.`,
      json: {
        sellers: counts.sellers,
        customer_documents: counts.customerDocuments,
        payer_documents: counts.payerDocuments,
      },
    };
  },
};
