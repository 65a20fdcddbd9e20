/**
 * Use case: create a reusable QR code (`POST /v1/qr-codes`, DESIGN §13 "Reusable QR codes"): a static BR Code,
 * built here by our BR Code module around the receiving account's Pix key (a bank's `--pix-key` in live mode, the
 * sandbox's in test mode) and a txid of ours, paid any number of times. No bank is asked: the standard registers no
 * static code, and the bank notifies every payment to its key with the txid the payer's app read from the code.
 */
import { isUniqueViolation, type IdempotentReply, type NewQrCode, type QrCode } from "@lm/db";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { ApiError } from "../errors";
import { newId } from "../ids";
import { acquirerFor, acquirerNotConfigured } from "../acquirers";
import { buildStaticPixBrCode, renderQrPngBase64 } from "../br-code";
import { generateStaticTxid } from "../transactions/txid";

/** A validated creation request (the API's joi schema enforces the lengths and ranges). */
export interface CreateQrCodeInput {
  /** Centavos every payment must be, at least 1; absent, the payer chooses. */
  amount?: number;
  /** Shown to the payer, and on each payment's charge. */
  description?: string;
  /** The integrator's reference, unique per store and mode. */
  external_id?: string;
}

/** How a creation is written. */
export interface CreateQrCodeOptions {
  /**
   * The idempotent reply to store with the code, given the code: the merchant API keeps its reply this way, so the
   * reply and the code commit together or not at all.
   */
  reply?: (code: QrCode) => IdempotentReply | undefined;
}

/**
 * Creates an active reusable QR code for `merchant`, with its txid, static BR Code and QR image.
 * @param merchant.storeName - written in the BR Code as the receiver's name
 * @returns the code as written
 * @throws ApiError `acquirer_not_configured` (503) in a mode without an acquirer (live mode without an activated
 *   bank); `invalid_state` (param `external_id`) when the store already has a code of this mode with that
 *   `external_id`. Nothing is written when it throws.
 */
export async function createQrCode(
  deps: UseCaseDeps,
  merchant: MerchantScope & { storeName: string },
  input: CreateQrCodeInput,
  options: CreateQrCodeOptions = {},
): Promise<QrCode> {
  const acquirer = await acquirerFor(deps, merchant.mode);
  if (acquirer === null) throw acquirerNotConfigured(merchant.mode, "receive payments to QR codes");
  const now = deps.now();
  const txid = generateStaticTxid();
  const brCode = buildStaticPixBrCode({
    pixKey: acquirer.pixKey(),
    merchantName: merchant.storeName,
    amount: input.amount ?? null,
    txid,
    description: input.description ?? null,
  });
  const row: NewQrCode = {
    id: newId("qrCode", now.getTime()),
    store_id: merchant.storeId,
    mode: merchant.mode,
    amount: input.amount ?? null,
    description: input.description ?? null,
    external_id: input.external_id ?? null,
    txid,
    br_code: brCode,
    qr_code_png_base64: renderQrPngBase64(brCode),
    acquirer_id: acquirer.acquirerId,
    deactivated_at: null,
    created_at: now,
    updated_at: now,
  };
  // The whole code as the table completes it, so the reply is built without reading it back.
  const code: QrCode = { ...row, active: true, payments_count: 0, amount_received: 0n };
  try {
    await deps.repos.qrCodes.insertQrCode(row, options.reply?.(code));
  } catch (err) {
    if (isUniqueViolation(err, "external_id")) {
      throw new ApiError("invalid_state", "A QR code with this external_id already exists.", { param: "external_id" });
    }
    throw err;
  }
  return code;
}
