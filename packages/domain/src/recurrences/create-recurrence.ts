/**
 * Use case: create a Pix Automático recurrence (`POST /v1/recurrences`, DESIGN §14), `created` until the payer
 * answers. `qr_with_first_payment` also makes an immediate charge, the first payment, which the same QR code pays.
 * With the sandbox (test mode) the authorization's BR Code is built in-process, as its charges' are. Through a bank
 * (DESIGN §14 "Live") the recurrence is created at the bank first (`rec`, with a `locrec` for the QR journeys, the
 * first payment's `cob` named as journey 3's, a `solicrec` for `push`), the bank's composite BR Code is the
 * authorization, and the recurrence keeps the bank's id (`idRec`); nothing is written when the bank refuses.
 */
import { createHmac } from "node:crypto";
import type { IdempotentReply, Recurrence, RecurrenceInterval, RecurrenceJourney } from "@lm/db";
import type { PayerAccount } from "@lm/wire";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { encryptDocument } from "../document-at-rest";
import { maskTaxDocument, parseTaxDocument, type TaxDocument } from "../documents";
import { saoPauloDate } from "../due-dates";
import { ApiError, validationFailed } from "../errors";
import { enqueueDeliveries } from "../events/record-event";
import { newId } from "../ids";
import { base62Of } from "../random";
import { acquirerFor, acquirerNotConfigured, type AcquirerPort } from "../acquirers";
import { buildPixBrCode, renderQrPngBase64, sandboxRecurrenceLocation, withRecurrenceAuthorization } from "../br-code";
import { checkedPostbackUrl, createTransaction, generateTxid, TXID_LENGTH } from "../transactions";
import { isIsoDate } from "./cycle-dates";
import { planRecurrenceEvent, recordRecurrenceEvent } from "./recurrence-events";
import { findTestClock } from "./find-recurrences";
import { underLock } from "./manage-recurrences";

/** Days an unanswered recurrence waits for the payer before it expires (the standard's limit for a request). */
export const APPROVAL_DAYS = 30;

/** A validated creation request (the API's joi schema enforces shapes, lengths and ranges). */
export interface CreateRecurrenceInput {
  /** The merchant's contract reference, 1 to 35 characters. */
  contract: string;
  description?: string;
  customer: { name: string; document: string };
  /** `YYYY-MM-DD`, today or later (on the test clock's day when it has one): the first cycle's due date. */
  start_date: string;
  /** `YYYY-MM-DD`, on or after `start_date`: no cycle falls after it. */
  end_date?: string;
  interval: RecurrenceInterval;
  /** Centavos of every cycle (fixed); exactly one of `amount` and `minimum_amount`. */
  amount?: number;
  /** Centavos a variable cycle is at least. */
  minimum_amount?: number;
  /** Default `none`. */
  retry_policy?: "none" | "three_in_seven_days";
  journey: RecurrenceJourney;
  /** Required for `push`, refused otherwise. */
  payer_account?: PayerAccount;
  /** Centavos of the first payment (`qr_with_first_payment` only); default `amount`, or `minimum_amount`. */
  first_payment_amount?: number;
  postback_url?: string;
  /** A test clock's id (test mode only): the recurrence runs on its time. */
  test_clock?: string;
}

/** How a creation is written. */
export interface CreateRecurrenceOptions {
  /** The request's `Idempotency-Key`: a live creation retried with it resumes its row (see `registration_key`). */
  idempotencyKey?: string | undefined;
  /** The idempotent reply to store with the creation's last write, given the recurrence (see `TransactionWriteOptions`). */
  reply?: (recurrence: Recurrence) => IdempotentReply | undefined;
}

/**
 * Creates a recurrence for `merchant`, `created`, with its `recurrence.created` event; and, for
 * `qr_with_first_payment`, its first payment's charge (`transaction.created`), whose BR Code its authorization carries.
 * @param merchant.storeName - written in the BR Codes as the receiver's name
 * @returns the recurrence as written
 * @throws ApiError `validation_failed` naming the field: a document that is not a CPF or CNPJ, both or neither of
 *   `amount` and `minimum_amount`, a start date in the past or an end date before it, `payer_account` missing for
 *   `push` or given for a QR journey, `first_payment_amount` outside `qr_with_first_payment`;
 *   `test_mode_only` (403) for a test clock with a live key; `resource_not_found` for an unknown test clock;
 *   `invalid_state` (param `test_clock`) for a clock still advancing; `invalid_url` or `invalid_state` (param
 *   `postback_url`) as a charge's; `validation_failed` (param `test_clock`) for a clock in a mode served by a bank;
 *   `acquirer_not_configured` (503) in a mode without an acquirer, or whose bank has no receiving account;
 *   `acquirer_unavailable` or `acquirer_rejected` (502) from the bank. Nothing is written when it throws before the
 *   recurrence.
 */
export async function createRecurrence(
  deps: UseCaseDeps,
  merchant: MerchantScope & { storeName: string },
  input: CreateRecurrenceInput,
  options: CreateRecurrenceOptions = {},
): Promise<Recurrence> {
  const document = parseTaxDocument(input.customer.document);
  if (!document) throw validationFailed("Document must be a valid CPF or CNPJ.", "customer.document");
  if ((input.amount === undefined) === (input.minimum_amount === undefined)) {
    throw validationFailed(
      "Give amount (the same every cycle) or minimum_amount (a variable amount, set per cycle), not both.",
      "amount",
    );
  }
  checkJourney(input);
  const clock = input.test_clock === undefined ? null : await findTestClock(deps.repos, merchant, input.test_clock);
  if (clock?.status === "advancing") {
    throw new ApiError("invalid_state", "This test clock is advancing; wait until it is ready.", {
      param: "test_clock",
    });
  }
  const now = clock?.frozen_time ?? deps.now();
  checkDates(input, saoPauloDate(now));
  const postbackUrl = await checkedPostbackUrl(deps, merchant.storeId, input.postback_url);
  const acquirer = await acquirerFor(deps, merchant.mode);
  if (acquirer === null) throw acquirerNotConfigured(merchant.mode, "charge Pix Automático recurrences");
  if (acquirer.acquirerId !== null && acquirer.recurrences === undefined) {
    throw acquirerNotConfigured(merchant.mode, "charge Pix Automático recurrences");
  }
  if (acquirer.acquirerId !== null && clock !== null) {
    throw validationFailed("Test clocks run the sandbox's recurrences; this mode's acquirer is a bank.", "test_clock");
  }

  const realNow = deps.now();
  const registrationKey =
    acquirer.acquirerId === null || options.idempotencyKey === undefined
      ? null
      : registrationKeyOf(deps.config.encryptionKey, merchant, options.idempotencyKey);
  const earlier =
    registrationKey === null
      ? null
      : await deps.repos.recurrences.findRecurrenceByRegistrationKey(merchant, registrationKey);
  if (earlier !== null && !earlier.registering) {
    throw new ApiError("invalid_state", "This Idempotency-Key created a recurrence before; send a new key.", {
      param: "Idempotency-Key",
    });
  }
  const id = earlier?.id ?? newId("recurrence", realNow.getTime());
  const firstPaymentId =
    input.journey === "qr_with_first_payment"
      ? (earlier?.first_payment_transaction_id ?? newId("transaction", realNow.getTime()))
      : null;
  const firstPayment =
    firstPaymentId === null
      ? null
      : {
          id: firstPaymentId,
          txid: acquirer.acquirerId === null ? generateTxid() : firstPaymentTxid(deps.config.encryptionKey, id),
        };
  const recurrence: Recurrence = earlier ?? {
    id,
    store_id: merchant.storeId,
    mode: merchant.mode,
    status: "created",
    contract: input.contract,
    description: input.description ?? null,
    customer_name: input.customer.name,
    customer_document: encryptDocument(deps.config.encryptionKey, document.digits, `${id}:customer_document`),
    customer_document_masked: maskTaxDocument(document.digits),
    payer_account: input.payer_account ?? null,
    start_date: input.start_date,
    end_date: input.end_date ?? null,
    interval: input.interval,
    amount: input.amount ?? null,
    minimum_amount: input.minimum_amount ?? null,
    retry_policy: input.retry_policy ?? "none",
    journey: input.journey,
    br_code: null,
    qr_code_png_base64: null,
    first_payment_transaction_id: firstPayment?.id ?? null,
    postback_url: postbackUrl,
    acquirer_id: acquirer.acquirerId,
    bank_recurrence_id: null,
    registering: acquirer.acquirerId !== null,
    registration_key: registrationKey,
    bank_location_id: null,
    bank_checked_at: null,
    test_clock_id: clock?.id ?? null,
    next_cycle: 0,
    next_due_date: input.start_date,
    next_run_at: null,
    approval_expires_at: new Date(now.getTime() + APPROVAL_DAYS * 86_400_000),
    canceled_by: null,
    approved_at: null,
    rejected_at: null,
    expired_at: null,
    canceled_at: null,
    created_at: now,
    updated_at: now,
  };
  // A live row is written before the bank is asked, so that a run cut short resumes it (DESIGN §1).
  if (recurrence.registering && earlier === null) {
    await deps.repos.recurrences.insertRecurrence(recurrence, NO_EVENTS);
  }
  let authorization: { brCode: string | null; bankRecurrenceId: string | null };
  try {
    authorization = await authorize(deps, acquirer, merchant.storeName, recurrence, input, {
      firstPaymentTxid: firstPayment?.txid ?? null,
      document,
      resumed: earlier !== null,
    });
  } catch (err) {
    // The bank refused: nothing of the creation is left. An outage leaves the row for a retry to resume.
    if (recurrence.registering && err instanceof ApiError && err.code !== "acquirer_unavailable") {
      await withdrawRefused(deps, acquirer, id);
    }
    throw err;
  }
  const { brCode, bankRecurrenceId } = authorization;
  const done = {
    br_code: brCode,
    qr_code_png_base64: brCode === null ? null : renderQrPngBase64(brCode),
    bank_recurrence_id: bankRecurrenceId,
    next_run_at: recurrence.approval_expires_at,
  };
  const reply = (written: Recurrence) => (firstPayment === null ? options.reply?.(written) : undefined);
  let written: Recurrence;
  if (recurrence.registering) {
    written = await underLock(deps, id, async (tx, locked) => {
      if (!locked.registering) return { result: locked, deliveryIds: [] };
      const completed = await tx.recurrences.completeRecurrenceRegistration(id, done, now);
      const recorded = await recordRecurrenceEvent(tx, completed, "recurrence.created", realNow);
      await tx.idempotencyKeys.storeIdempotentReply(reply(completed));
      return { result: completed, deliveryIds: recorded.deliveryIds };
    });
  } else {
    written = { ...recurrence, ...done };
    const events = planRecurrenceEvent(written, "recurrence.created", realNow);
    // The first payment names the recurrence, so the recurrence is written first, and the reply with the last write.
    const deliveryIds = await deps.repos.recurrences.insertRecurrence(written, events, reply(written));
    await enqueueDeliveries(deps, deliveryIds);
  }
  if (firstPayment !== null) {
    await createTransaction(
      deps,
      merchant,
      {
        amount: firstPaymentAmount(input),
        ...(input.description === undefined ? {} : { description: input.description }),
        customer: input.customer,
        ...(input.postback_url === undefined ? {} : { postback_url: input.postback_url }),
      },
      { preassigned: firstPayment, recurrenceId: id, reply: () => options.reply?.(written) },
    );
  }
  return written;
}

/**
 * Deletes live recurrence `id`, still `registering`, whose bank refused a step of its creation; a recurrence the bank
 * made before refusing a later step (a push request) is canceled there first, so the payer is never asked. A cancel
 * that fails is logged: the recurrence at the bank then expires unanswered, its 30 days.
 */
async function withdrawRefused(deps: UseCaseDeps, acquirer: AcquirerPort, id: string): Promise<void> {
  const row = await deps.repos.recurrences.findRecurrenceById(id);
  const idRec = row?.bank_recurrence_id ?? null;
  if (idRec !== null && acquirer.recurrences !== undefined) {
    try {
      await acquirer.recurrences.cancelRecurrence(idRec);
    } catch (err) {
      deps.logger.error("a refused recurrence could not be canceled at its bank", { recurrence_id: id, err });
    }
  }
  await deps.repos.recurrences.deleteRegisteringRecurrence(id);
}

/** The events of a row written before its bank holds it: none (its `recurrence.created` comes with its completion). */
const NO_EVENTS = { events: [], deliveryIds: [], everyType: "" };

/**
 * The key a live creation sent with `Idempotency-Key` `key` by `scope` is found by (`registration_key`): an
 * HMAC-SHA256 under `ENCRYPTION_KEY`, so the key itself is not stored.
 */
function registrationKeyOf(encryptionKey: Buffer, scope: MerchantScope, key: string): string {
  const digest = createHmac("sha256", encryptionKey).update(`recurrence\n${scope.storeId}\n${scope.mode}\n${key}`);
  return base62Of(digest.digest(), 32);
}

/**
 * The txid of live recurrence `id`'s first payment: an HMAC-SHA256 of its id under `ENCRYPTION_KEY`, so a resumed
 * creation registers the same `cob` (which the bank reads back) and names it in the same `rec`.
 */
function firstPaymentTxid(encryptionKey: Buffer, id: string): string {
  return base62Of(createHmac("sha256", encryptionKey).update(`first-payment\n${id}`).digest(), TXID_LENGTH);
}

/** Centavos of a `qr_with_first_payment` recurrence's first payment. */
function firstPaymentAmount(input: CreateRecurrenceInput): number {
  const amount = input.first_payment_amount ?? input.amount ?? input.minimum_amount;
  if (amount === undefined) throw new Error("a recurrence has amount or minimum_amount");
  return amount;
}

/**
 * The authorization (DESIGN §14): its BR Code (null for `push`) and, through a bank, the recurrence's id there. With
 * the sandbox: for `qr`, a dynamic code on the recurrence's sandbox location with the authorization (field 80); for
 * `qr_with_first_payment`, the first payment's charge code (the sandbox's, built from its txid alone, as
 * `createTransaction` will register it) with the authorization. Through a bank: the first payment's `cob` registered
 * first, then the bank's recurrence and its composite code (`BankRecurrences.createRecurrence`).
 * @throws ApiError `acquirer_not_configured`, `acquirer_unavailable` or `acquirer_rejected` from a bank
 */
async function authorize(
  deps: UseCaseDeps,
  acquirer: AcquirerPort,
  merchantName: string,
  recurrence: Recurrence,
  input: CreateRecurrenceInput,
  extra: { firstPaymentTxid: string | null; document: TaxDocument; resumed: boolean },
): Promise<{ brCode: string | null; bankRecurrenceId: string | null }> {
  const { firstPaymentTxid } = extra;
  const firstCharge =
    firstPaymentTxid === null
      ? null
      : await acquirer.registerCharge({
          txid: firstPaymentTxid,
          amount: firstPaymentAmount(input),
          expiresIn: 86_400,
          dueDate: null,
          merchantName,
          debtor: null,
          description: input.description ?? null,
        });
  if (acquirer.recurrences !== undefined) {
    const created = await acquirer.recurrences.createRecurrence({
      contract: input.contract,
      description: input.description ?? null,
      debtor: { name: input.customer.name, document: extra.document },
      startDate: input.start_date,
      endDate: input.end_date ?? null,
      interval: input.interval,
      amount: input.amount ?? null,
      minimumAmount: input.minimum_amount ?? null,
      retryPolicy: input.retry_policy ?? "none",
      journey: input.journey,
      firstPaymentTxid,
      payerAccount: input.payer_account ?? null,
      expiresAt: recurrence.approval_expires_at,
      resumed:
        recurrence.bank_location_id === null && recurrence.bank_recurrence_id === null && !extra.resumed
          ? null
          : {
              locationId: recurrence.bank_location_id,
              bankRecurrenceId: recurrence.bank_recurrence_id,
              since: recurrence.created_at,
            },
      record: (ids) =>
        deps.repos.recurrences.recordBankRegistration(recurrence.id, {
          ...(ids.locationId === undefined ? {} : { bank_location_id: ids.locationId }),
          ...(ids.bankRecurrenceId === undefined ? {} : { bank_recurrence_id: ids.bankRecurrenceId }),
        }),
    });
    return { brCode: created.brCode, bankRecurrenceId: created.bankRecurrenceId };
  }
  if (input.journey === "push") return { brCode: null, bankRecurrenceId: null };
  const location = sandboxRecurrenceLocation(deps.config.publicBaseUrl, recurrence.id);
  const brCode = firstCharge?.brCode ?? buildPixBrCode({ location, merchantName });
  return { brCode: withRecurrenceAuthorization(brCode, location), bankRecurrenceId: null };
}

/** @throws ApiError `validation_failed` when the journey's fields do not match it */
function checkJourney(input: CreateRecurrenceInput): void {
  if (input.journey === "push" && input.payer_account === undefined) {
    throw validationFailed(
      "The push journey sends the request to the payer's bank: give payer_account {ispb, branch, number}.",
      "payer_account",
    );
  }
  if (input.journey !== "push" && input.payer_account !== undefined) {
    throw validationFailed(
      "payer_account is for the push journey; a QR journey's payer scans the code.",
      "payer_account",
    );
  }
  if (input.journey !== "qr_with_first_payment" && input.first_payment_amount !== undefined) {
    throw validationFailed("first_payment_amount is for the qr_with_first_payment journey.", "first_payment_amount");
  }
}

/** @throws ApiError `validation_failed` (param `start_date` or `end_date`) for dates the recurrence cannot have */
function checkDates(input: CreateRecurrenceInput, today: string): void {
  if (!isIsoDate(input.start_date)) throw validationFailed("start_date must be a real date, YYYY-MM-DD.", "start_date");
  if (input.start_date < today) {
    throw validationFailed(`start_date must be today (${today}) or later.`, "start_date");
  }
  if (input.end_date === undefined) return;
  if (!isIsoDate(input.end_date)) throw validationFailed("end_date must be a real date, YYYY-MM-DD.", "end_date");
  if (input.end_date < input.start_date) throw validationFailed("end_date must be on or after start_date.", "end_date");
}
