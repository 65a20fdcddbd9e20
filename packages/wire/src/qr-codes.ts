/**
 * Wire form of a reusable QR code (DESIGN §13 "Reusable QR codes", static Pix): the merchant API replies with it.
 * Each payment to the code is a charge of its own (`Transaction`, `type` `qr_code`), announced by `transaction.paid`.
 */
import { Type, type Static } from "@sinclair/typebox";
import type { QrCode as QrCodeRow } from "@lm/db";
import { iso, listOf, Nullable, Timestamp, wireObject } from "./schema";
import { Mode } from "./common";

/** A reusable QR code (DESIGN §13). */
export const QrCode = wireObject(
  "QrCode",
  Type.Object(
    {
      id: Type.String({ pattern: "^qr_[0-9A-HJKMNP-TV-Z]{26}$" }),
      object: Type.Literal("qr_code"),
      mode: Mode,
      amount: Nullable(Type.Integer({ minimum: 1 }), {
        description:
          "Centavos every payment must be, written in the code; null when the payer chooses. A payment of another amount to a code with one is not credited (the operator returns it).",
      }),
      description: Nullable(Type.String({ description: "Shown to the payer, and on each payment's charge." })),
      external_id: Nullable(Type.String()),
      txid: Type.String({
        pattern: "^[A-Za-z0-9]{25}$",
        description: "Ours, written in the code: every payment to the code carries it.",
      }),
      pix: Type.Object({
        copy_paste: Type.String({
          description:
            "Static EMV BR Code (valid CRC16, no point of initiation, so payable any number of times): the receiving account's Pix key (in live mode the bank acquirer's; in test mode the sandbox's, which no account holds, so never payable), the amount when fixed, and `txid`. `qr_code_png_base64` is drawn from it.",
        }),
        qr_code_png_base64: Type.String({ contentEncoding: "base64", contentMediaType: "image/png" }),
      }),
      active: Type.Boolean({
        description:
          "False once deactivated: a later payment to it is kept as an anomaly and not credited (the operator returns it).",
      }),
      payments_count: Type.Integer({
        minimum: 0,
        description: "Payments received, each a charge of `type` `qr_code`.",
      }),
      amount_received: Type.Integer({ minimum: 0, description: "Centavos received by those payments." }),
      created_at: Timestamp,
      deactivated_at: Nullable(Timestamp),
    },
    { description: 'A reusable QR code (DESIGN §13 "Reusable QR codes").' },
  ),
);
/** QrCode as sent. */
export type QrCode = Static<typeof QrCode>;

/** A page of QrCode objects. */
export const QrCodeList = listOf("QrCodeList", QrCode);
/** QrCodeList as sent. */
export type QrCodeList = Static<typeof QrCodeList>;

/** Serializes `code`. */
export function serializeQrCode(code: QrCodeRow): QrCode {
  return {
    id: code.id,
    object: "qr_code",
    mode: code.mode,
    amount: code.amount,
    description: code.description,
    external_id: code.external_id,
    txid: code.txid,
    pix: { copy_paste: code.br_code, qr_code_png_base64: code.qr_code_png_base64 },
    active: code.active,
    payments_count: code.payments_count,
    // A bigint column (the sum of many payments); centavos stay exact as a JSON number up to 2^53.
    amount_received: Number(code.amount_received),
    created_at: code.created_at.toISOString(),
    deactivated_at: iso(code.deactivated_at),
  };
}
