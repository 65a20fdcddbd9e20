/**
 * Use case: pay a test charge (`POST /v1/transactions/{id}/simulate-payment`, DESIGN §5). It writes the notification
 * the sandbox acquirer would send and posts it through the sandbox (see sandbox-acquirer.ts), so the same code as a
 * real acquirer's request stores, processes and settles it.
 */
import { valorFromCentavos } from "@lm/pix-api";
import type { Transaction } from "@lm/db";
import { isExpiredAt } from "@lm/wire";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { decryptDocument } from "../document-at-rest";
import { ApiError, validationFailed } from "../errors";
import { noonInSaoPaulo, saoPauloDate } from "../due-dates";
import { amountDueOn, dueDateTermsOf, paymentDayOf } from "../transactions/due-date-charge";
import { findTransaction } from "../transactions/find-transactions";
import { postSandboxNotification, sandboxEndToEndId } from "../acquirers";

/**
 * Posts a signed sandbox payment notification for charge `id` of `scope` through the inbound path. The charge
 * becomes `paid` when the worker has processed it.
 * @param options.date - a due-date charge's day of payment (`YYYY-MM-DD` in São Paulo, default today): the payment is
 *   of what its terms come to that day (DESIGN §13), made at noon in São Paulo (now, for today)
 * @returns the charge as it is now (still `pending`)
 * @throws ApiError `test_mode_only` for a live key; `resource_not_found` (unknown or foreign id); `invalid_state`
 *   unless the charge is pending and its BR Code our own (a charge a test bank registered is paid at that bank);
 *   `validation_failed` (param `date`) for a date given for an immediate charge or outside a due-date charge's payable
 *   window (from its creation to its last payable date)
 */
export async function simulatePayment(
  deps: UseCaseDeps,
  scope: MerchantScope,
  id: string,
  options: { date?: string } = {},
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
  await postSandboxNotification(deps, {
    pix: [
      {
        endToEndId: sandboxEndToEndId(now),
        txid: transaction.txid,
        valor: valorFromCentavos(amountDueOn(transaction, date).total),
        horario: paidAt.toISOString(),
        pagador: {
          nome: transaction.customer_name ?? "Pagador Sandbox",
          ...(document === null ? {} : { [document.length === 11 ? "cpf" : "cnpj"]: document }),
        },
      },
    ],
  });
  return transaction;
}
