/**
 * Wire form of a transaction (DESIGN §5 "Transaction"): the only place that knows it. The merchant API replies with
 * it and every `transaction.*` event stores it as `data.object`, so a webhook and a `GET` at the same moment agree.
 * It lives in the domain because the worker writes `transaction.paid` and `transaction.expired` events too.
 *
 * What never changes once a charge is created (its terms, BR Code and QR image, customer) is stored once, on the charge
 * (DESIGN §10 "No copies"): an event's object and a kept idempotent reply store the other fields
 * ({@link withoutChargeFields}) and every reader puts the charge's back ({@link withChargeFields}), so the wire is
 * unchanged. The QR image alone was two thirds of each event row and of each kept reply; the rest of the fixed fields,
 * about half of what remained.
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

/**
 * The fields of a transaction's wire form that no change of the charge touches after its creation (see the file's
 * comment). `expires_at` is not one: the test mode's simulated expiration brings it forward.
 */
const CHARGE_FIXED_FIELDS: ReadonlySet<string> = new Set<keyof TransactionWire>([
  "mode",
  "amount",
  "currency",
  "description",
  "external_id",
  "txid",
  "pix",
  "customer",
  "postback_url",
  "metadata",
  "expires_in",
  "created_at",
]);

/**
 * The charge whose wire form `object` is (whole, or as {@link withoutChargeFields} stored it): its id; null for any
 * other resource.
 */
export function storedChargeId(object: unknown): string | null {
  if (typeof object !== "object" || object === null) return null;
  const { object: kind, id } = object as { object?: unknown; id?: unknown };
  return kind === "transaction" && typeof id === "string" ? id : null;
}

/**
 * `object` (a transaction's wire form, or any other resource, returned as is) without the fields its charge keeps for
 * good: the form an event's object and a kept idempotent reply store (DESIGN §10 "No copies").
 */
export function withoutChargeFields(object: object): Record<string, unknown> {
  if (storedChargeId(object) === null) return object as Record<string, unknown>;
  return Object.fromEntries(Object.entries(object).filter(([key]) => !CHARGE_FIXED_FIELDS.has(key)));
}

/**
 * A stored object with its charge's fixed fields put back, every field where {@link serializeTransaction} writes it,
 * so that its JSON is the text first sent byte for byte; any other resource, or a charge not given, is returned as
 * is. An object stored whole (before the fixed fields were left out) reads the same: those fields never change.
 * @param charge - the charge {@link storedChargeId} names, as read now
 */
export function withChargeFields(stored: object, charge: Transaction | null | undefined): object {
  if (storedChargeId(stored) === null || !charge) return stored;
  const fixed = serializeTransaction(charge, charge.created_at) as unknown as Record<string, unknown>;
  const kept = stored as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(fixed)
      .filter((key) => CHARGE_FIXED_FIELDS.has(key) || key in kept)
      .map((key) => [key, CHARGE_FIXED_FIELDS.has(key) ? fixed[key] : kept[key]]),
  );
}
