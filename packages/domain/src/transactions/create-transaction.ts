/**
 * Use case: create a Pix charge (DESIGN §5 "Merchant API", §9 "Live charge creation"). The mode's acquirer registers
 * it first (a bank's `PUT /cob/{txid}`, one round trip; the sandbox builds the code itself), and only then are the
 * charge, its `transaction.created` event and the first delivery rows written together; after commit the deliveries
 * are enqueued. Expiry is the worker's sweep (`expire-transaction.ts`).
 */
import { isUniqueViolation, type Transaction } from "@lm/db";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { chargeDocumentColumns } from "../document-at-rest";
import { parseTaxDocument } from "../documents";
import { ApiError, validationFailed } from "../errors";
import { enqueueDeliveries } from "../events/record-event";
import { newId } from "../ids";
import { checkDestination } from "../webhooks/destination";
import { acquirerFor, acquirerNotConfigured } from "../acquirers";
import { renderQrPngBase64 } from "../br-code/br-code";
import { planTransactionEvents, type TransactionWriteOptions } from "./transaction-events";
import { generateTxid, txidForIdempotencyKey } from "./txid";

/** A validated creation request (the API's joi schema enforces the lengths and ranges). */
export interface CreateTransactionInput {
  /** Integer centavos, at least 1. */
  amount: number;
  description?: string;
  /** Seconds until expiry, 60 to 1,209,600. */
  expires_in: number;
  /** The integrator's reference, unique per store and mode. */
  external_id?: string;
  customer?: { name: string; document: string; email?: string };
  postback_url?: string;
  metadata?: Record<string, string>;
}

/** How a creation is written. */
export interface CreateTransactionOptions extends TransactionWriteOptions {
  /**
   * The request's `Idempotency-Key`: a live charge's txid is derived from it, so that a retry after a bank timeout
   * reads the bank's charge back instead of registering a second one.
   */
  idempotencyKey?: string | undefined;
}

/**
 * Creates a `pending` charge for `scope`, with its txid, BR Code and QR image, registered at the mode's acquirer.
 * @param merchant.storeName - written in the sandbox's BR Code as the receiver's name
 * @throws ApiError `invalid_url` (param `postback_url`) when the postback URL fails the destination check;
 *   `invalid_state` (param `postback_url`) when the store has no postback secret to sign its postbacks with (DESIGN
 *   §12 "Safer defaults": every postback would end `missing_secret`);
 *   `validation_failed` (param `customer.document`) for a document that is not a CPF or CNPJ; `invalid_state`
 *   (param `external_id`) when the store already has a charge of this mode with that `external_id`, or when the
 *   idempotency key named a charge created before (its record expired); `acquirer_not_configured` (503) in a mode
 *   without an acquirer; `acquirer_unavailable` or `acquirer_rejected` (502) when the bank fails or refuses it.
 *   Nothing is written when it throws.
 */
export async function createTransaction(
  deps: UseCaseDeps,
  merchant: MerchantScope & { storeName: string },
  input: CreateTransactionInput,
  options: CreateTransactionOptions = {},
): Promise<Transaction> {
  let postbackUrl: string | null = null;
  if (input.postback_url !== undefined) {
    const check = await checkDestination(input.postback_url, { allowLocal: deps.config.webhookAllowLocalDestinations });
    if (!check.ok)
      throw new ApiError("invalid_url", `Invalid postback_url: ${check.reason}.`, { param: "postback_url" });
    if (!(await deps.repos.sellers.storeHasPostbackSecret(merchant.storeId))) throw noPostbackSecret();
    postbackUrl = check.href;
  }
  const document = input.customer ? parseTaxDocument(input.customer.document) : null;
  if (input.customer && !document) throw validationFailed("Document must be a valid CPF or CNPJ.", "customer.document");

  const acquirer = await acquirerFor(deps, merchant.mode);
  if (acquirer === null) throw acquirerNotConfigured(merchant.mode, "register charges");
  const txid =
    acquirer.acquirerId !== null && options.idempotencyKey !== undefined
      ? txidForIdempotencyKey(deps.config.encryptionKey, merchant, options.idempotencyKey)
      : generateTxid();
  const { brCode } = await acquirer.registerCharge({
    txid,
    amount: input.amount,
    expiresIn: input.expires_in,
    merchantName: merchant.storeName,
    debtor: input.customer && document ? { name: input.customer.name, document } : null,
    description: input.description ?? null,
  });

  const now = deps.now();
  const id = newId("transaction", now.getTime());
  const customerDocument = chargeDocumentColumns(deps.config.encryptionKey, id, "customer_document", document);
  // The whole row, so the reply and the event are built from it without reading it back.
  const transaction: Transaction = {
    id,
    store_id: merchant.storeId,
    mode: merchant.mode,
    status: "pending",
    amount: input.amount,
    currency: "BRL",
    description: input.description ?? null,
    external_id: input.external_id ?? null,
    txid,
    br_code: brCode,
    qr_code_png_base64: renderQrPngBase64(brCode),
    customer_name: input.customer?.name ?? null,
    customer_document: customerDocument.stored,
    customer_document_masked: customerDocument.masked,
    customer_email: input.customer?.email ?? null,
    postback_url: postbackUrl,
    metadata: input.metadata ?? {},
    expires_in: input.expires_in,
    expires_at: new Date(now.getTime() + input.expires_in * 1000),
    paid_at: null,
    expired_at: null,
    canceled_at: null,
    payment_end_to_end_id: null,
    payment_amount: null,
    payer_name: null,
    payer_document: null,
    payer_document_masked: null,
    amount_refunded: 0,
    amount_disputed: 0,
    acquirer_id: acquirer.acquirerId,
    created_at: now,
    updated_at: now,
  };

  // One statement on the pool (no BEGIN/COMMIT round trips), the subscribed endpoints selected inside it: this runs
  // on every creation.
  const events = planTransactionEvents([transaction], "transaction.created", now);
  let deliveryIds: string[];
  try {
    deliveryIds = await deps.repos.charges.insertCharge(transaction, events, options.reply?.(transaction));
  } catch (err) {
    if (isUniqueViolation(err, "external_id")) {
      throw new ApiError("invalid_state", "A transaction with this external_id already exists.", {
        param: "external_id",
      });
    }
    if (isUniqueViolation(err, "txid")) {
      throw new ApiError("invalid_state", "This Idempotency-Key was used for a charge before; send a new key.", {
        param: "Idempotency-Key",
      });
    }
    throw err;
  }
  await enqueueDeliveries(deps, deliveryIds);
  return transaction;
}

/**
 * The refusal of a `postback_url` while the store has no postback secret: its postbacks could not be signed, so every
 * one would fail; the message says who makes the secret, and the alternative.
 */
function noPostbackSecret(): ApiError {
  return new ApiError(
    "invalid_state",
    "This store has no postback secret yet, so postbacks to postback_url could not be signed. The store's owner " +
      "creates one in the panel with POST /v1/me/postback-secret/rotate (it is shown once; verify postbacks with " +
      "it). Or leave postback_url out and receive the charge's events at a webhook endpoint " +
      "(POST /v1/me/webhook-endpoints).",
    { param: "postback_url" },
  );
}
