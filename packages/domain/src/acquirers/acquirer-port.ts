/**
 * The acquirer port (DESIGN §7 "The acquirer does the moving", §9 "Port"): what the service asks of the acquirer that
 * registers a mode's charges and moves its money. Two implementations: the in-process sandbox (test mode, unless a
 * bank is activated for it) and a bank reached through the Central Bank's API Pix standard (bank-acquirer.ts).
 * Amounts cross the port as integer centavos. A refund or payout request is only accepted or refused here; its
 * outcome arrives later as an inbound notification, stored in the inbox first, which settles the row. Every request
 * is idempotent on our own id (txid, refund id, withdrawal id): asking again after a crash between sending and
 * recording never charges or moves money twice.
 */
import type { Acquirer, RecurrenceInterval, RecurrenceJourney, RecurrenceRetryPolicy } from "@lm/db";
import type { PayerAccount } from "@lm/wire";
import type { TaxDocument } from "../documents";
import type { DueDateTerms } from "../due-dates";
import type { UseCaseDeps } from "../deps";
import { ApiError } from "../errors";
import { bankAcquirer } from "./bank-acquirer";
import { createSandboxAcquirer } from "./sandbox-acquirer";

/** A charge to register at the acquirer: immediate (`PUT /cob/{txid}`) or with a due date (`PUT /cobv/{txid}`). */
export interface ChargeRegistration {
  /** Ours: 26 to 35 alphanumerics, the bank's idempotency key for the charge. */
  txid: string;
  /** Centavos. */
  amount: number;
  /** Seconds an immediate charge stays payable (`calendario.expiracao`); a due-date charge's follow its terms. */
  expiresIn: number;
  /** A due-date charge's validated terms (DESIGN §13), whose `original` is `amount`; null for an immediate charge. */
  dueDate: DueDateTerms | null;
  /**
   * Set when the charge was registered already in a batch ({@link AcquirerPort.registerChargeBatch}): the bank's
   * charge is read back for its BR Code instead of being registered again.
   */
  registered?: boolean;
  /** The store's name, written in a BR Code built by us (the sandbox's). */
  merchantName: string;
  /** The payer named by the merchant (`devedor`): name and CPF or CNPJ, both or neither (required with `dueDate`). */
  debtor: { name: string; document: TaxDocument } | null;
  /** Shown to the payer (`solicitacaoPagador`, at most 140 characters). */
  description: string | null;
}

/** A devolução of a received Pix (Bacen `PUT /pix/{e2eid}/devolucao/{id}`). */
export interface PixRefundRequest {
  /** Our refund id; its ULID is the devolução `id`, the idempotency key. */
  refundId: string;
  /** The refunded payment's `endToEndId`. */
  paymentEndToEndId: string;
  /** The charge's `txid` and amount (centavos), echoed in the acquirer's notification. */
  txid: string;
  paymentAmount: number;
  /** Centavos to return. */
  amount: number;
  reason: string | null;
  /** When the refund was created (fixes its deterministic identities). */
  createdAt: Date;
}

/** A Pix sent to one of the seller's payout keys. */
export interface PixPaymentRequest {
  /** Our withdrawal id; its ULID is sent as `idEnvio`, the idempotency key. */
  withdrawalId: string;
  /** The receiving Pix key, in full (never logged). */
  key: { type: "cpf" | "cnpj" | "email" | "phone" | "evp"; value: string };
  /** Centavos to send. */
  amount: number;
  createdAt: Date;
}

/** What a bank did with one charge of a batch ({@link AcquirerPort.registerChargeBatch}), by its txid. */
export type BatchRegistration =
  | { status: "registered" }
  /** Refused, with the bank's reason: the charge was not created. */
  | { status: "refused"; reason: string }
  /** The bank is still working on it, or does not list it: ask again later, or register the charge on its own. */
  | { status: "unknown" };

/** A Pix Automático recurrence to create at a bank (the standard's `rec`, DESIGN §14 "Live"). */
export interface RecurrenceRegistration {
  /** The merchant's contract reference (`vinculo.contrato`). */
  contract: string;
  description: string | null;
  debtor: { name: string; document: TaxDocument };
  /** `YYYY-MM-DD`. */
  startDate: string;
  endDate: string | null;
  interval: RecurrenceInterval;
  /** Centavos: a fixed amount, or the least of a variable one (exactly one is set). */
  amount: number | null;
  minimumAmount: number | null;
  retryPolicy: RecurrenceRetryPolicy;
  journey: RecurrenceJourney;
  /** Journey `qr_with_first_payment`: the txid of its immediate charge, registered before. */
  firstPaymentTxid: string | null;
  /** Journey `push`: the payer's account, and when the request to it expires. */
  payerAccount: PayerAccount | null;
  expiresAt: Date;
  /**
   * What an earlier run of the same creation recorded (DESIGN §1): its location and `idRec` when known, and when it
   * began; the bank's recurrence is then read back (by its location, or for `push` by the standard's list filters)
   * instead of created again. Null for a first run.
   */
  resumed: { locationId: number | null; bankRecurrenceId: string | null; since: Date } | null;
  /** Stores what the bank gave (a location, the `idRec`) as soon as it is known, for a run cut short to resume. */
  record(ids: { locationId?: number; bankRecurrenceId?: string }): Promise<void>;
}

/** A recurrence as its bank reports it, in our terms. */
export interface RecurrenceAtBank {
  status: "created" | "approved" | "rejected" | "expired" | "canceled";
  /** Who canceled it, when it is `canceled`. */
  canceledBy: "payer" | "merchant" | null;
}

/** A cycle charge (`cobr`) as its bank reports it, in our terms. */
export interface CycleAtBank {
  /** `active` while the payer's bank may still debit it; `failed` once it never will (rejected, expired). */
  status: "active" | "paid" | "failed" | "canceled";
  /** The debit attempts made (the one on the due date and the retries), and whether the last one failed. */
  attempts: number;
  lastAttemptFailed: boolean;
  /** The payment as the standard's notification item (`{endToEndId, txid, valor, horario}`), once paid. */
  payment: object | null;
}

/** What a bank does for Pix Automático (DESIGN §14 "Live"); the sandbox plays it in-process instead. */
export interface BankRecurrences {
  /**
   * Creates the recurrence at the bank: for a QR journey a location first and the composite BR Code read back
   * (`JORNADA_2`, or `JORNADA_3` with its immediate charge); for `push` the request sent to the payer's bank. A
   * resumed creation (`registration.resumed`) makes none of them twice.
   * @returns the bank's id (`idRec`) and the authorization's BR Code (null for `push`)
   * @throws ApiError `acquirer_not_configured` when the acquirer has no receiving account; `acquirer_unavailable` or
   *   `acquirer_rejected` (502)
   */
  createRecurrence(registration: RecurrenceRegistration): Promise<{ bankRecurrenceId: string; brCode: string | null }>;
  /**
   * Cancels it at the bank (`PATCH /rec/{idRec}`).
   * @returns how it stands after: `canceled`, or the state it had ended in already
   * @throws ApiError `acquirer_unavailable` or `acquirer_rejected` (502)
   */
  cancelRecurrence(bankRecurrenceId: string): Promise<RecurrenceAtBank>;
  /**
   * The `idRec` of the recurrence linked to location `locationId` (`GET /locrec/{id}`), or null (none, or no such
   * location). @throws Error when it cannot be asked
   */
  recurrenceAtLocation(locationId: number): Promise<string | null>;
  /** Reads it back (`GET /rec/{idRec}`); null when the bank does not know it. @throws Error when it cannot be asked */
  readRecurrence(bankRecurrenceId: string): Promise<RecurrenceAtBank | null>;
  /**
   * Registers a cycle's charge (`PUT /cobr/{txid}`), our txid its idempotency key.
   * @throws ApiError `acquirer_not_configured` without a receiving account; `acquirer_unavailable` or
   *   `acquirer_rejected` (502)
   */
  registerCycle(cycle: {
    txid: string;
    bankRecurrenceId: string;
    dueDate: string;
    amount: number;
    description: string | null;
  }): Promise<void>;
  /**
   * Withdraws a cycle's charge (`PATCH /cobr/{txid}`).
   * @returns `canceled`, or `paid` when the bank reports it paid already
   * @throws ApiError `acquirer_unavailable` or `acquirer_rejected` (502)
   */
  cancelCycle(txid: string): Promise<"canceled" | "paid">;
  /** Reads a cycle's charge back (`GET /cobr/{txid}`); null when unknown. @throws Error when it cannot be asked */
  readCycle(txid: string): Promise<CycleAtBank | null>;
  /**
   * Asks the payer's bank to debit a failed cycle again on `date` (`POST /cobr/{txid}/retentativa/{data}`).
   * @throws ApiError `acquirer_unavailable` or `acquirer_rejected` (502)
   */
  retryCycle(txid: string, date: string): Promise<void>;
}

/** An acquirer: registers charges and moves money out. */
export interface AcquirerPort {
  /** The acquirer's slug: its notifications arrive at `/v1/acquirers/{slug}/notifications`. */
  slug: string;
  /** The bank's acquirer id, written on the charges it registers and the payouts it sends; null for the sandbox. */
  acquirerId: string | null;
  /** Whether it can send payouts (`sendPixPayment`): the sandbox and the `efi` profile can, `bcb` cannot. */
  sendsPayouts: boolean;
  /**
   * The receiving account's Pix key, which a reusable QR code's static BR Code carries (DESIGN §13): a bank's
   * `--pix-key`, or the sandbox's own, which no account holds.
   * @throws Error when a bank's row has none (`acquirer:configure` sets it before a bank can be activated)
   */
  pixKey(): string;
  /**
   * Registers a charge.
   * @returns the BR Code ("copia e cola") the payer pays
   * @throws ApiError `acquirer_unavailable` or `acquirer_rejected` (502) when the bank cannot be reached or refuses
   */
  registerCharge(charge: ChargeRegistration): Promise<{ brCode: string }>;
  /**
   * Registers due-date charges as one batch (a bank's `PUT /lotecobv/{id}`, DESIGN §13 "Batches"), then reads the
   * batch back for each charge's outcome. Absent for an acquirer without batches (the sandbox), whose charges are
   * registered one by one. Safe to call again with the same `number`: the bank keeps one batch per id.
   * @param batch.number - the batch's integer id (the standard's `id`)
   * @returns each charge's outcome, by txid
   * @throws ApiError `acquirer_unavailable` or `acquirer_rejected` (502) when the bank cannot be reached or refuses the
   *   batch as a whole
   */
  registerChargeBatch?(batch: {
    number: number;
    description: string;
    charges: ChargeRegistration[];
  }): Promise<Map<string, BatchRegistration>>;
  /** Pix Automático through the bank; absent for the sandbox, which plays the payer's bank in-process. */
  recurrences?: BankRecurrences;
  /**
   * Withdraws a registered charge (`PATCH /cob/{txid}`, or `/cobv/{txid}` for a due-date charge).
   * @param dueDate - whether it is a due-date charge
   * @returns `canceled`, or `paid` when the bank reports it paid already (its payment will settle it)
   * @throws ApiError `acquirer_unavailable` or `acquirer_rejected` (502)
   */
  cancelCharge(txid: string, dueDate: boolean): Promise<"canceled" | "paid">;
  /**
   * Asks for a devolução.
   * @returns the return's end-to-end id (`rtrId`), once accepted
   * @throws ApiError `acquirer_rejected` when the bank refuses it (the refund fails at once); any other Error when
   *   the request could not be made (retried by the caller, within its bound)
   */
  refundPix(request: PixRefundRequest): Promise<{ returnId: string }>;
  /**
   * Sends a Pix to a key.
   * @returns the payment's end-to-end id, once accepted
   * @throws as {@link AcquirerPort.refundPix}
   */
  sendPixPayment(request: PixPaymentRequest): Promise<{ endToEndId: string }>;
}

/** How long a process keeps what it read of a mode's active acquirer: an activation reaches every process within it. */
export const ACTIVE_ACQUIRER_CACHE_MS = 5_000;

/** What this process last read of each mode's active acquirer, per database client. */
const activeAcquirers = new WeakMap<object, Map<string, { until: number; acquirer: Acquirer | undefined }>>();

/** Forgets what this process read of the active acquirers (after an activation made here). */
export function forgetActiveAcquirers(deps: Pick<UseCaseDeps, "repos">): void {
  activeAcquirers.delete(deps.repos);
}

/**
 * The acquirer that registers `mode`'s charges and moves its money: the one activated for it (`acquirer:activate`),
 * else the in-process sandbox for `test` and none for `live` (DESIGN §9). Read at most every
 * {@link ACTIVE_ACQUIRER_CACHE_MS} per process: every charge creation asks.
 * @returns the port, or null when `mode` has none
 */
export async function acquirerFor(deps: UseCaseDeps, mode: "live" | "test"): Promise<AcquirerPort | null> {
  let known = activeAcquirers.get(deps.repos);
  if (known === undefined) {
    known = new Map();
    activeAcquirers.set(deps.repos, known);
  }
  const now = Date.now();
  let kept = known.get(mode);
  if (kept === undefined || kept.until <= now) {
    kept = { until: now + ACTIVE_ACQUIRER_CACHE_MS, acquirer: await deps.repos.acquirers.findActiveAcquirer(mode) };
    known.set(mode, kept);
  }
  if (kept.acquirer !== undefined) return bankAcquirer(deps, kept.acquirer);
  return mode === "test" ? createSandboxAcquirer(deps) : null;
}

/**
 * The acquirer that took part in a row's history: bank `acquirerId` (the one that registered the charge or was asked
 * to send the payout), or for a row without one the sandbox in `test` and none in `live`.
 */
export async function acquirerOfRow(
  deps: UseCaseDeps,
  acquirerId: string | null,
  mode: "live" | "test",
): Promise<AcquirerPort | null> {
  if (acquirerId === null) return mode === "test" ? createSandboxAcquirer(deps) : null;
  const acquirer = await deps.repos.acquirers.findAcquirerById(acquirerId);
  return acquirer === undefined ? null : bankAcquirer(deps, acquirer);
}

/** The refusal of a request that needs an acquirer `mode` does not have: nothing is created. */
export function acquirerNotConfigured(mode: "live" | "test", what = "move money"): ApiError {
  return new ApiError(
    "acquirer_not_configured",
    `No acquirer is configured to ${what} in ${mode} mode; nothing was created.`,
  );
}

/**
 * The acquirer of `mode`, for a request that is about to move money.
 * @param needs - `payouts` when it must send Pix payments (a `bcb` bank cannot)
 * @throws ApiError `acquirer_not_configured` (503) when `mode` has none, or none that can: refused at creation,
 *   never left pending
 */
export async function requireAcquirer(
  deps: UseCaseDeps,
  mode: "live" | "test",
  needs: "refunds" | "payouts" = "refunds",
): Promise<AcquirerPort> {
  const acquirer = await acquirerFor(deps, mode);
  if (!acquirer || (needs === "payouts" && !acquirer.sendsPayouts)) {
    throw acquirerNotConfigured(mode, needs === "payouts" ? "send payouts" : "move money");
  }
  return acquirer;
}

/**
 * Most requests made to the acquirer for one refund or withdrawal (the job's run plus the reconciler's re-offers,
 * about 30 s apart). Past it the row fails with {@link ACQUIRER_UNAVAILABLE} and its amount is put back.
 */
export const ACQUIRER_MAX_ATTEMPTS = 5;

/** `failure_reason` of a refund or withdrawal the acquirer never accepted within {@link ACQUIRER_MAX_ATTEMPTS}. */
export const ACQUIRER_UNAVAILABLE = "acquirer_unavailable";

/** `failure_reason` of a refund or withdrawal the acquirer refused (`NAO_REALIZADO`, or its request refused). */
export const ACQUIRER_REJECTED = "rejected_by_acquirer";
