/**
 * Use case: register a seller and its default store (ops command line `seller:create`).
 */
import type { Config } from "@lm/config";
import { isUniqueViolation, type Seller, type Store, type Repositories } from "@lm/db";
import { documentLookupHash, encryptDocument } from "../document-at-rest";
import { ApiError, validationFailed } from "../errors";
import { newId } from "../ids";
import { maskTaxDocument, parseTaxDocument } from "../documents";
import { isEmailAddress, normalizeEmail } from "../email";
import { recordSellerUpdated } from "./seller-profile";

/** The created seller and its store. */
export interface CreatedSeller {
  seller: Seller;
  store: Store;
}

/**
 * Creates a seller with KYC `pending` and one store named after it, in one transaction. The document is stored
 * encrypted, with its keyed hash for uniqueness (read it back with `readSellerDocument`).
 * @param input.name - legal name, 1 to 200 characters after trimming
 * @param input.document - CPF or CNPJ, punctuation allowed
 * @throws ApiError `validation_failed` (param `name`, `document` or `email`); `invalid_state` when a seller with
 *   that document exists
 */
export async function createSeller(
  repos: Repositories,
  config: Pick<Config, "encryptionKey">,
  input: { name: string; document: string; email?: string | undefined },
): Promise<CreatedSeller> {
  const name = input.name.trim();
  if (name.length < 1 || name.length > 200) throw validationFailed("Name must have 1 to 200 characters.", "name");
  const document = parseTaxDocument(input.document);
  if (!document) throw validationFailed("Document must be a valid CPF or CNPJ.", "document");
  const email = input.email === undefined ? undefined : normalizeEmail(input.email);
  if (email !== undefined && !isEmailAddress(email)) {
    throw validationFailed("Email is not a valid address.", "email");
  }
  try {
    return await repos.transaction(async (tx) => {
      const id = newId("seller");
      const seller = await tx.sellers.insertSeller({
        id,
        legal_name: name,
        document: encryptDocument(config.encryptionKey, document.digits, id),
        document_hash: documentLookupHash(config.encryptionKey, document.digits),
        document_masked: maskTaxDocument(document.digits),
        email: email ?? null,
      });
      const store = await tx.sellers.insertStore({ id: newId("store"), seller_id: seller.id, name });
      return { seller, store };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError("invalid_state", "A seller with this document already exists.");
    throw err;
  }
}

/**
 * Sets a seller's KYC status (ops command line `seller:kyc`). A change is recorded like every seller change
 * (`seller.updated` and a feed item, DESIGN §7); its deliveries are enqueued by the reconciler, since the command
 * line has no queue. Setting the status it already has writes nothing.
 * @throws ApiError `resource_not_found` for an unknown seller
 */
export async function setSellerKyc(
  repos: Repositories,
  sellerId: string,
  status: "pending" | "approved" | "rejected",
): Promise<Seller> {
  const found = await repos.sellers.findSellerById(sellerId);
  if (!found) throw new ApiError("resource_not_found", "No such seller.");
  if (found.kyc_status === status) return found;
  const now = new Date();
  return repos.transaction(async (tx) => {
    const seller = await tx.sellers.updateSellerKycStatus(sellerId, status, now);
    await recordSellerUpdated(
      tx,
      seller,
      {
        title: "Verification status changed",
        message: `The seller's verification (KYC) status is now ${status}.`,
        data: { fields: "status", kyc_status: status },
      },
      now,
    );
    return seller;
  });
}
