/**
 * Use cases: pay a test charge (`POST /v1/transactions/{id}/simulate-payment`, DESIGN §5) or a test reusable QR code
 * (`POST /v1/qr-codes/{id}/simulate-payment`, DESIGN §13). Each writes the notification the sandbox acquirer would
 * send and posts it through the sandbox (see sandbox-acquirer.ts), so the same code as a real acquirer's request
 * stores, processes and settles it.
 */
import { valorFromCentavos } from "@lm/pix-api";
import type { QrCode, Transaction } from "@lm/db";
import { isExpiredAt } from "@lm/wire";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { decryptDocument } from "../document-at-rest";
import { ApiError, validationFailed } from "../errors";
import { noonInSaoPaulo, saoPauloDate } from "../due-dates";
import { amountDueOn, dueDateTermsOf, paymentDayOf } from "../transactions/due-date-charge";
import { findTransaction } from "../transactions/find-transactions";
import { findQrCode } from "../qr-codes";
import { postSandboxNotification, sandboxEndToEndId } from "../acquirers";
import { processInboxItem } from "../settle";

/** A payment the sandbox notifies: to `txid`, of `amount` centavos, made at `paidAt`, by `payer`. */
export interface SandboxPayment {
  txid: string;
  amount: number;
  paidAt: Date;
  payer: { name: string; document: string | null };
  /**
   * Makes the end-to-end id a function of this seed and `paidAt`, so that notifying the same payment again is a repeat
   * the inbox keeps once (a recurrence's debit sent again after a crash, DESIGN §14); without it the id is fresh.
   */
  seed?: string;
}

/**
 * Posts a signed sandbox notification of `payment` through the inbound path.
 * @returns the ids of the inbox items stored and enqueued (none for a repeat)
 */
export async function postSandboxPayment(deps: UseCaseDeps, payment: SandboxPayment): Promise<string[]> {
  const { document } = payment.payer;
  const endToEndId =
    payment.seed === undefined
      ? sandboxEndToEndId(deps.now())
      : sandboxEndToEndId(payment.paidAt, { seed: payment.seed });
  return postSandboxNotification(deps, {
    pix: [
      {
        endToEndId,
        txid: payment.txid,
        valor: valorFromCentavos(payment.amount),
        horario: payment.paidAt.toISOString(),
        pagador: {
          nome: payment.payer.name,
          ...(document === null ? {} : { [document.length === 11 ? "cpf" : "cnpj"]: document }),
        },
      },
    ],
  });
}

/** The payer the sandbox names when the charge names none. */
export const SANDBOX_PAYER_NAME = "Pagador Sandbox";

/**
 * Posts a signed sandbox payment notification for charge `id` of `scope` through the inbound path. The charge
 * becomes `paid` when the worker has processed it.
 * @param options.date - a due-date charge's day of payment (`YYYY-MM-DD` in São Paulo, default today): the payment is
 *   of what its terms come to that day (DESIGN §13), made at noon in São Paulo (now, for today)
 * @returns the charge as it is now (still `pending`)
 * @throws ApiError `test_mode_only` for a live key; `resource_not_found` (unknown or foreign id); `invalid_state`
 *   unless the charge is pending and its BR Code our own (a charge a test bank registered is paid at that bank), or
 *   for a recurrence's cycle (the sandbox debits it on its due date);
 *   `validation_failed` (param `date`) for a date given for an immediate charge or outside a due-date charge's payable
 *   window (from its creation to its last payable date)
 */
export async function simulatePayment(
  deps: UseCaseDeps,
  scope: MerchantScope,
  id: string,
  options: { date?: string; settle?: boolean } = {},
): Promise<Transaction> {
  if (scope.mode !== "test") throw new ApiError("test_mode_only", "Payments can be simulated with test keys only.");
  const transaction = await findTransaction(deps.repos, scope, id);
  const now = deps.now();
  if (transaction.status !== "pending" || isExpiredAt(transaction, now)) {
    throw new ApiError("invalid_state", "Only a pending transaction can be paid.");
  }
  if (transaction.acquirer_id !== null) {
    throw new ApiError("invalid_state", "This transaction is registered at a bank: pay it through the bank.");
  }
  if (transaction.type === "recurring") throw cycleSimulated("paid");
  const terms = dueDateTermsOf(transaction);
  if (terms === null && options.date !== undefined) {
    throw validationFailed("date is for due-date charges; an immediate charge is paid now.", "date");
  }
  const today = saoPauloDate(now);
  const date = terms === null ? today : paymentDayOf(transaction, terms, options.date, now);
  const paidAt = date === today ? now : noonInSaoPaulo(date);
  const document =
    transaction.customer_document === null
      ? null
      : decryptDocument(
          deps.config.encryptionKey,
          transaction.customer_document,
          `${transaction.id}:customer_document`,
        );
  const items = await postSandboxPayment(deps, {
    txid: transaction.txid,
    amount: amountDueOn(transaction, date).total,
    paidAt,
    payer: { name: transaction.customer_name ?? SANDBOX_PAYER_NAME, document },
  });
  if (options.settle === true) for (const item of items) await processInboxItem(deps, item);
  return transaction;
}

/**
 * Posts a signed sandbox payment of `amount` centavos to reusable QR code `id` of `scope` through the inbound path.
 * The payment becomes a paid charge of the code (`type` `qr_code`) when the worker has processed it; a payment to a
 * code deactivated meanwhile is kept as an anomaly, as a real one would be.
 * @param amount - centavos: required when the code has no amount, equal to it when it has one
 * @returns the code as it is now (without the payment)
 * @throws ApiError `test_mode_only` for a live key; `resource_not_found` (unknown or foreign id); `invalid_state`
 *   when the code is inactive or carries a test bank's key (paid at that bank); `validation_failed` (param `amount`)
 *   when it is missing for a code without an amount, or differs from the code's amount
 */
export async function simulateQrCodePayment(
  deps: UseCaseDeps,
  scope: MerchantScope,
  id: string,
  amount: number | undefined,
): Promise<QrCode> {
  if (scope.mode !== "test") throw new ApiError("test_mode_only", "Payments can be simulated with test keys only.");
  const code = await findQrCode(deps.repos, scope, id);
  if (!code.active) throw new ApiError("invalid_state", "This QR code is inactive: it takes no more payments.");
  if (code.acquirer_id !== null) {
    throw new ApiError("invalid_state", "This QR code carries a bank's Pix key: pay it through the bank.");
  }
  const paid = amount ?? code.amount;
  if (paid === null) throw validationFailed("This QR code has no amount: give the amount the payer pays.", "amount");
  if (code.amount !== null && paid !== code.amount) {
    throw validationFailed(`This QR code is paid ${code.amount} centavos, no other amount.`, "amount");
  }
  await postSandboxPayment(deps, {
    txid: code.txid,
    amount: paid,
    paidAt: deps.now(),
    payer: { name: SANDBOX_PAYER_NAME, document: null },
  });
  return code;
}

/**
 * The refusal of a simulation on a recurrence's cycle, which the recurrence engine settles on its due date (DESIGN
 * §14): the message says how to get there.
 * @param what - what was asked (`paid`, `expired`)
 */
export function cycleSimulated(what: string): ApiError {
  return new ApiError(
    "invalid_state",
    `A recurrence's cycle is not ${what} by simulation: the sandbox debits it on its due date (an amount ending in 13 ` +
      "fails). Give the recurrence a test clock and advance it (POST /v1/test-clocks/{id}/advance).",
  );
}
