/**
 * Wire form of a transaction (DESIGN §5 "Transaction"): the only place that knows it. The merchant API replies with
 * it and every `transaction.*` event stores it as `data.object`, so a webhook and a `GET` at the same moment agree.
 * It lives in the domain because the worker writes `transaction.paid` and `transaction.expired` events too.
 *
 * The QR image is stored once, on the charge (DESIGN §10 "No copies"): an event's stored object leaves it out
 * ({@link withoutQrImage}) and every reader puts the charge's back ({@link withQrImage}), so the wire is unchanged. It
 * was two thirds of each event row and of each stored idempotent reply.
 */
import type { Transaction } from "@lm/db";

/** A transaction as `GET /v1/transactions/{id}` returns it. */
export interface TransactionWire {
  id: string;
  object: "transaction";
  status: "pending" | "paid" | "expired" | "canceled" | "refunded";
  mode: "live" | "test";
  /** Integer centavos. */
  amount: number;
  /** Centavos of refunds not failed (pending, processing, succeeded); DESIGN §7. */
  amount_refunded: number;
  /** Centavos the payer's bank took back under the MED (disputes); DESIGN §11. */
  amount_disputed: number;
  currency: string;
  description: string | null;
  external_id: string | null;
  txid: string;
  pix: { copy_paste: string; qr_code_png_base64: string };
  customer: { name: string; document_masked: string | null; email: string | null } | null;
  postback_url: string | null;
  metadata: Record<string, string>;
  /** Seconds. */
  expires_in: number;
  expires_at: string;
  paid_at: string | null;
  expired_at: string | null;
  canceled_at: string | null;
  payment: {
    end_to_end_id: string;
    amount: number | null;
    payer: { name: string | null; document_masked: string | null };
  } | null;
  created_at: string;
  updated_at: string;
}

const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString());

/**
 * Whether a charge reads as expired at `now`: stored `expired`, or still `pending` with `expires_at` passed (DESIGN §5:
 * "An expired charge reads as expired even before the expiry job runs").
 */
export function isExpiredAt(transaction: Pick<Transaction, "status" | "expires_at">, now: Date): boolean {
  return transaction.status === "expired" || (transaction.status === "pending" && transaction.expires_at <= now);
}

/**
 * Serializes `transaction` as it reads at `now`. Documents are masked; the full customer and payer documents never
 * leave the database.
 */
export function serializeTransaction(transaction: Transaction, now: Date): TransactionWire {
  const expired = isExpiredAt(transaction, now);
  return {
    id: transaction.id,
    object: "transaction",
    status: expired ? "expired" : transaction.status,
    mode: transaction.mode,
    amount: transaction.amount,
    amount_refunded: transaction.amount_refunded,
    amount_disputed: transaction.amount_disputed,
    currency: transaction.currency,
    description: transaction.description,
    external_id: transaction.external_id,
    txid: transaction.txid,
    pix: { copy_paste: transaction.br_code, qr_code_png_base64: transaction.qr_code_png_base64 },
    customer:
      transaction.customer_name === null
        ? null
        : {
            name: transaction.customer_name,
            document_masked: transaction.customer_document_masked,
            email: transaction.customer_email,
          },
    postback_url: transaction.postback_url,
    metadata: transaction.metadata as Record<string, string>,
    expires_in: transaction.expires_in,
    expires_at: transaction.expires_at.toISOString(),
    paid_at: iso(transaction.paid_at),
    expired_at: expired ? (transaction.expired_at ?? transaction.expires_at).toISOString() : null,
    canceled_at: iso(transaction.canceled_at),
    payment:
      transaction.payment_end_to_end_id === null
        ? null
        : {
            end_to_end_id: transaction.payment_end_to_end_id,
            amount: transaction.payment_amount,
            payer: {
              name: transaction.payer_name,
              document_masked: transaction.payer_document_masked,
            },
          },
    created_at: transaction.created_at.toISOString(),
    updated_at: transaction.updated_at.toISOString(),
  };
}

/** The charge an object is the wire form of, when it carries a QR image: its id; otherwise null. */
export function qrImageOwner(object: unknown): string | null {
  if (typeof object !== "object" || object === null) return null;
  const { object: kind, id, pix } = object as { object?: unknown; id?: unknown; pix?: unknown };
  return kind === "transaction" && typeof id === "string" && typeof pix === "object" && pix !== null ? id : null;
}

/**
 * `object` (a transaction's wire form, or any other resource, returned as is) without `pix.qr_code_png_base64`: the
 * form an event stores (DESIGN §10 "No copies").
 */
export function withoutQrImage<T extends object>(object: T): T {
  if (qrImageOwner(object) === null) return object;
  const { qr_code_png_base64: _image, ...pix } = (object as unknown as TransactionWire).pix;
  return { ...object, pix };
}

/**
 * A stored object with its charge's QR image put back in `pix.qr_code_png_base64`, after `copy_paste` as
 * {@link serializeTransaction} writes it; any other resource is returned as is.
 * @param image - the charge's `qr_code_png_base64`, read with the object (see `qrImageOwner` for which charge)
 */
export function withQrImage<T extends object>(object: T, image: string | null): T {
  if (qrImageOwner(object) === null || image === null) return object;
  return { ...object, pix: { ...(object as unknown as TransactionWire).pix, qr_code_png_base64: image } };
}
