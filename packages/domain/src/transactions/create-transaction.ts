/**
 * Use case: create a Pix charge (DESIGN §5 "Merchant API", §9 "Live charge creation", §13). The mode's acquirer
 * registers it first (a bank's `PUT /cob/{txid}`, or `PUT /cobv/{txid}` for a due-date charge, one round trip; the sandbox builds the code itself), and only then are the
 * charge, its `transaction.created` event and the first delivery rows written together; after commit the deliveries
 * are enqueued. Expiry is the worker's sweep (`expire-transaction.ts`).
 */
import { isUniqueViolation, type Transaction } from "@lm/db";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { chargeDocumentColumns } from "../document-at-rest";
import { parseTaxDocument, type TaxDocument } from "../documents";
import { ApiError, validationFailed } from "../errors";
import { enqueueDeliveries } from "../events/record-event";
import { newId } from "../ids";
import { checkDestination } from "../webhooks/destination";
import { acquirerFor, acquirerNotConfigured, type AcquirerPort, type ChargeRegistration } from "../acquirers";
import { renderQrPngBase64 } from "../br-code/br-code";
import { newChargeRow } from "./charge-row";
import { planTransactionEvents, type TransactionWriteOptions } from "./transaction-events";
import { generateTxid, txidForIdempotencyKey } from "./txid";
import { DUE_DATE_FIELDS, planDueDateTerms, type DueDateInput } from "./due-date-charge";

/** An immediate charge's lifetime when the request gives none: a day. */
const DEFAULT_EXPIRES_IN_S = 86_400;

/**
 * A validated creation request (the API's joi schema enforces the lengths and ranges): an immediate charge, or a
 * due-date charge when `due_date` is given (DESIGN §13).
 */
export interface CreateTransactionInput extends Partial<DueDateInput> {
  /** Integer centavos, at least 1 (a due-date charge's original amount). */
  amount: number;
  description?: string;
  /** An immediate charge's seconds until expiry, 60 to 1,209,600; default 86,400. */
  expires_in?: number;
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
  /**
   * The charge's id and txid, chosen before it is made (a batch's item, DESIGN §13 "Batches"): a creation that runs
   * again after a crash registers the same txid at the acquirer (a bank reads its charge back) and, once the charge is
   * written, returns it instead of writing a second one.
   */
  preassigned?: { id: string; txid: string };
  /** The recurrence whose first payment this charge is (journey `qr_with_first_payment`, DESIGN §14). */
  recurrenceId?: string;
  /** Set when a bank registered the charge already, in its batch: its charge is read back, not registered again. */
  registered?: boolean;
}

/** A creation checked and planned: the acquirer that registers the charge, what it is asked, and the row's inputs. */
export interface PlannedTransaction {
  acquirer: AcquirerPort;
  registration: ChargeRegistration;
  postbackUrl: string | null;
  document: TaxDocument | null;
  due: ReturnType<typeof planDueDateTerms> | null;
  expiresAt: Date;
  now: Date;
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
 *   without an acquirer;
 *   `acquirer_unavailable` or `acquirer_rejected` (502) when the bank fails or refuses it; `validation_failed` for a
 *   due-date charge without `customer`, with `expires_in`, or with terms the standard refuses (param: the field), and
 *   for a due-date field without `due_date`.
 *   Nothing is written when it throws.
 * @returns the charge written; with `options.preassigned`, the one an earlier run wrote under that id, if any
 */
export async function createTransaction(
  deps: UseCaseDeps,
  merchant: MerchantScope & { storeName: string },
  input: CreateTransactionInput,
  options: CreateTransactionOptions = {},
): Promise<Transaction> {
  const planned = await planTransaction(deps, merchant, input, options);
  const { acquirer, registration, postbackUrl, document, due, expiresAt, now } = planned;
  const { txid, expiresIn } = registration;
  const { brCode } = await acquirer.registerCharge(registration);

  const id = options.preassigned?.id ?? newId("transaction", now.getTime());
  const customerDocument = chargeDocumentColumns(deps.config.encryptionKey, id, "customer_document", document);
  // The whole row, so the reply and the event are built from it without reading it back.
  const transaction = newChargeRow({
    id,
    store_id: merchant.storeId,
    mode: merchant.mode,
    type: due === null ? "immediate" : "due_date",
    amount: input.amount,
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
    expires_in: expiresIn,
    expires_at: expiresAt,
    due_terms: due === null ? null : (due.terms as unknown as Transaction["due_terms"]),
    acquirer_id: acquirer.acquirerId,
    recurrence_id: options.recurrenceId ?? null,
    created_at: now,
  });

  // One statement on the pool (no BEGIN/COMMIT round trips), the subscribed endpoints selected inside it: this runs
  // on every creation.
  const events = planTransactionEvents([transaction], "transaction.created", now);
  let deliveryIds: string[];
  try {
    deliveryIds = await deps.repos.charges.insertCharge(transaction, events, options.reply?.(transaction));
  } catch (err) {
    // A pre-assigned id is ours alone: a conflict on it means an earlier run of this creation wrote the charge.
    const written =
      options.preassigned && isUniqueViolation(err) ? await deps.repos.charges.findChargeById(id) : undefined;
    if (written !== undefined) return written;
    if (isUniqueViolation(err, "external_id")) throw externalIdTaken();
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
 * Checks creation `input` and plans it (the first half of {@link createTransaction}): the postback URL and the
 * document checked, a due-date charge's terms, the mode's acquirer, the txid and what the acquirer is asked. Nothing is
 * registered or written; a batch plans its charges with it before a bank registers them at once.
 * @throws ApiError as {@link createTransaction} does, before anything is registered
 */
export async function planTransaction(
  deps: UseCaseDeps,
  merchant: MerchantScope & { storeName: string },
  input: CreateTransactionInput,
  options: Pick<CreateTransactionOptions, "idempotencyKey" | "preassigned" | "registered"> = {},
): Promise<PlannedTransaction> {
  const postbackUrl = await checkedPostbackUrl(deps, merchant.storeId, input.postback_url);
  const document = input.customer ? parseTaxDocument(input.customer.document) : null;
  if (input.customer && !document) throw validationFailed("Document must be a valid CPF or CNPJ.", "customer.document");

  const now = deps.now();
  const due = dueDatePlan(input, now);

  const acquirer = await acquirerFor(deps, merchant.mode);
  if (acquirer === null) throw acquirerNotConfigured(merchant.mode, "register charges");
  const expiresAt = due?.expiresAt ?? new Date(now.getTime() + (input.expires_in ?? DEFAULT_EXPIRES_IN_S) * 1000);
  const expiresIn = Math.round((expiresAt.getTime() - now.getTime()) / 1000);
  const txid =
    options.preassigned?.txid ??
    (acquirer.acquirerId !== null && options.idempotencyKey !== undefined
      ? txidForIdempotencyKey(deps.config.encryptionKey, merchant, options.idempotencyKey)
      : generateTxid());
  const registration: ChargeRegistration = {
    txid,
    amount: input.amount,
    expiresIn,
    dueDate: due?.moneyTerms ?? null,
    merchantName: merchant.storeName,
    debtor: input.customer && document ? { name: input.customer.name, document } : null,
    description: input.description ?? null,
    ...(options.registered === true ? { registered: true } : {}),
  };
  return { acquirer, registration, postbackUrl, document, due, expiresAt, now };
}

/**
 * `url`, a charge's (or a recurrence's, DESIGN §14) `postback_url`, as stored: checked and normalised; null when none.
 * @throws ApiError `invalid_url` (param `postback_url`) when it fails the destination check; `invalid_state` (param
 *   `postback_url`) when store `storeId` has no postback secret to sign its postbacks with
 */
export async function checkedPostbackUrl(
  deps: UseCaseDeps,
  storeId: string,
  url: string | undefined,
): Promise<string | null> {
  if (url === undefined) return null;
  const check = await checkDestination(url, { allowLocal: deps.config.webhookAllowLocalDestinations });
  if (!check.ok) throw new ApiError("invalid_url", `Invalid postback_url: ${check.reason}.`, { param: "postback_url" });
  if (!(await deps.repos.sellers.storeHasPostbackSecret(storeId))) throw noPostbackSecret();
  return check.href;
}

/**
 * A due-date charge's terms and expiry (`planDueDateTerms`), or null for an immediate charge.
 * @throws ApiError `validation_failed`: a due-date field without `due_date`; a due-date charge without `customer` (the
 *   standard's `devedor` is required) or with `expires_in`; terms the standard refuses
 */
function dueDatePlan(input: CreateTransactionInput, now: Date): ReturnType<typeof planDueDateTerms> | null {
  if (input.due_date === undefined) {
    const stray = DUE_DATE_FIELDS.find((field) => input[field] !== undefined);
    if (stray !== undefined) throw validationFailed(`"${stray}" is for due-date charges: give due_date too.`, stray);
    return null;
  }
  if (input.customer === undefined) {
    throw validationFailed("A due-date charge needs customer, with its name and document.", "customer");
  }
  if (input.expires_in !== undefined) {
    throw validationFailed(
      "A due-date charge expires after its last payable day (due_date and days_after_due), not after expires_in.",
      "expires_in",
    );
  }
  return planDueDateTerms(input.amount, { ...input, due_date: input.due_date }, now);
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

/** The refusal of a charge whose `external_id` the store already gave a charge of this mode (409 `invalid_state`). */
export function externalIdTaken(): ApiError {
  return new ApiError("invalid_state", "A transaction with this external_id already exists.", { param: "external_id" });
}
