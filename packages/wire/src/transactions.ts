import { Type, type Static } from "@sinclair/typebox";
import { listOf, Nullable, StringEnum, StringMap, Timestamp, wireObject } from "./schema";
import { Mode } from "./common";

/** A Pix charge (DESIGN §5 "Transaction"). */
export const Transaction = wireObject(
  "Transaction",
  Type.Object(
    {
      id: Type.String({ pattern: "^txn_[0-9A-HJKMNP-TV-Z]{26}$" }),
      object: Type.Literal("transaction"),
      status: StringEnum(["pending", "paid", "expired", "canceled", "refunded"], {
        description: "A pending charge past `expires_at` reads as `expired` at once.",
      }),
      mode: Mode,
      amount: Type.Integer({ description: "Centavos.", minimum: 1 }),
      amount_refunded: Type.Integer({
        description:
          "Centavos of this charge's refunds that are not `failed`; `amount - amount_refunded` is what can still be refunded.",
        minimum: 0,
      }),
      amount_disputed: Type.Integer({
        description:
          "Centavos the payer's bank took back under the MED (the sum of this charge's disputes, DESIGN §11); the status stays `paid` (or `refunded`).",
        minimum: 0,
      }),
      currency: Type.Literal("BRL"),
      description: Nullable(Type.String()),
      external_id: Nullable(Type.String()),
      txid: Type.String({ pattern: "^[A-Za-z0-9]{26,35}$" }),
      pix: Type.Object({
        copy_paste: Type.String({
          description:
            "EMV BR Code (valid CRC16). For a charge registered at a bank (live mode, or test mode with a bank activated for it) the bank's `pixCopiaECola`, as the bank returned it; otherwise, in test mode, a dynamic code on the sandbox host, never payable. `qr_code_png_base64` is drawn from it.",
        }),
        qr_code_png_base64: Type.String({ contentEncoding: "base64", contentMediaType: "image/png" }),
      }),
      customer: Nullable(
        Type.Object({
          name: Type.String(),
          document_masked: Nullable(Type.String()),
          email: Nullable(Type.String({ format: "email" })),
        }),
      ),
      postback_url: Nullable(Type.String({ format: "uri" })),
      metadata: StringMap(Type.String()),
      expires_in: Type.Integer({ description: "Seconds." }),
      expires_at: Timestamp,
      paid_at: Nullable(Timestamp),
      expired_at: Nullable(Timestamp),
      canceled_at: Nullable(Timestamp),
      payment: Nullable(
        Type.Object({
          end_to_end_id: Type.String(),
          amount: Nullable(Type.Integer(), { description: "Centavos paid." }),
          payer: Type.Object({
            name: Nullable(Type.String()),
            document_masked: Nullable(Type.String()),
          }),
        }),
      ),
      created_at: Timestamp,
      updated_at: Timestamp,
    },
    { description: 'A Pix charge (DESIGN §5 "Transaction").' },
  ),
);
/** Transaction as sent. */
export type Transaction = Static<typeof Transaction>;

/** A page of Transaction objects. */
export const TransactionList = listOf("TransactionList", Transaction);
/** TransactionList as sent. */
export type TransactionList = Static<typeof TransactionList>;
