/**
 * Use case: pay a test charge (`POST /v1/transactions/{id}/simulate-payment`, DESIGN §5). It writes the notification
 * the sandbox acquirer would send, signs it with the sandbox secret and hands it to the same receipt use case as a
 * real acquirer's request, so the same code stores, processes and settles it.
 */
import { randomBytes } from "node:crypto";
import type { Transaction } from "@lm/db";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { decryptDocument } from "../document-at-rest";
import { ApiError } from "../errors";
import { findTransaction } from "../transactions/find-transactions";
import { isExpiredAt } from "../transactions/transaction.serializer";
import { signatureHeader } from "../webhooks/signature";
import { loadAcquirer, SANDBOX_ACQUIRER_SLUG } from "./acquirers";
import { valorFromCentavos } from "./pix-notification";
import { ACQUIRER_SIGNATURE_HEADER, receiveAcquirerNotification } from "./receive-notification";

/** ISPB written in sandbox end-to-end ids: eight zeros, which no participant has. */
const SANDBOX_ISPB = "00000000";

/**
 * A sandbox `endToEndId` in the central bank's layout: `E` + ISPB (8) + `yyyyMMddHHmm` (UTC) + 11 alphanumerics,
 * 32 characters.
 */
export function sandboxEndToEndId(now: Date): string {
  const stamp = now.toISOString().replace(/[-T:]/g, "").slice(0, 12);
  const suffix = randomBytes(11).toString("hex").slice(0, 11);
  return `E${SANDBOX_ISPB}${stamp}${suffix}`;
}

/**
 * Posts a signed sandbox payment notification for charge `id` of `scope` through the inbound path. The charge
 * becomes `paid` when the worker has processed it.
 * @returns the charge as it is now (still `pending`)
 * @throws ApiError `test_mode_only` for a live key; `resource_not_found` (unknown or foreign id); `invalid_state`
 *   unless the charge is pending
 */
export async function simulatePayment(deps: UseCaseDeps, scope: MerchantScope, id: string): Promise<Transaction> {
  if (scope.mode !== "test") throw new ApiError("test_mode_only", "Payments can be simulated with test keys only.");
  const transaction = await findTransaction(deps.db, scope, id);
  const now = deps.now();
  if (transaction.status !== "pending" || isExpiredAt(transaction, now)) {
    throw new ApiError("invalid_state", "Only a pending transaction can be paid.");
  }
  const document =
    transaction.customer_document === null
      ? null
      : decryptDocument(deps.config.encryptionKey, transaction.customer_document, `${transaction.id}:customer_document`);
  const body = JSON.stringify({
    pix: [
      {
        endToEndId: sandboxEndToEndId(now),
        txid: transaction.txid,
        valor: valorFromCentavos(transaction.amount),
        horario: now.toISOString(),
        pagador: {
          nome: transaction.customer_name ?? "Pagador Sandbox",
          ...(document === null ? {} : { [document.length === 11 ? "cpf" : "cnpj"]: document }),
        },
      },
    ],
  });
  const { secret } = await loadAcquirer(deps.db, deps.config, SANDBOX_ACQUIRER_SLUG);
  await receiveAcquirerNotification(deps, {
    slug: SANDBOX_ACQUIRER_SLUG,
    rawBody: Buffer.from(body, "utf8"),
    headers: {
      "content-type": "application/json",
      "user-agent": "lm-pix-sandbox/1.0",
      [ACQUIRER_SIGNATURE_HEADER]: signatureHeader([secret], Math.floor(now.getTime() / 1000), body),
    },
  });
  return transaction;
}
