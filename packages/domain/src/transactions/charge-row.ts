/**
 * A new charge's whole row (DESIGN §5 "Transaction"), written once and used for the reply and the events without
 * reading it back: what every way of making a charge gives (a creation, a reusable QR code's payment), and the rest as
 * a new charge starts it.
 */
import type { Transaction } from "@lm/db";

/** The columns a new charge is given; any other column may be given too, else it starts as {@link newChargeRow} says. */
export type NewChargeFields = Pick<
  Transaction,
  | "id"
  | "store_id"
  | "mode"
  | "type"
  | "amount"
  | "txid"
  | "br_code"
  | "qr_code_png_base64"
  | "expires_in"
  | "expires_at"
  | "acquirer_id"
  | "created_at"
> &
  Partial<Transaction>;

/**
 * The row of a new charge of `fields`: `pending`, in BRL, unpaid, nothing refunded or disputed, no customer, postback,
 * metadata, due-date terms, QR code or recurrence unless given, `updated_at` its `created_at`.
 */
export function newChargeRow(fields: NewChargeFields): Transaction {
  return {
    status: "pending",
    currency: "BRL",
    description: null,
    external_id: null,
    customer_name: null,
    customer_document: null,
    customer_document_masked: null,
    customer_email: null,
    postback_url: null,
    metadata: {},
    paid_at: null,
    expired_at: null,
    canceled_at: null,
    failure_reason: null,
    payment_end_to_end_id: null,
    payment_amount: null,
    payer_name: null,
    payer_document: null,
    payer_document_masked: null,
    amount_refunded: 0,
    amount_disputed: 0,
    due_terms: null,
    payment_components: null,
    qr_code_id: null,
    recurrence_id: null,
    updated_at: fields.created_at,
    ...fields,
  };
}
