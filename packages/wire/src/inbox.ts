import { Type, type Static } from "@sinclair/typebox";
import type { InboxItemWithAcquirer } from "@lm/db";
import { Nullable, StringEnum, StringMap, Timestamp, listOf, wireObject, iso } from "./schema";

/** The central bank's Pix webhook body, one item per payment. Any body is stored (raw, with its headers) before it is judged; only a valid signature (none for a configured bank, whose payments are read back from the bank first) gets it processed. */
export const PixNotification = wireObject(
  "PixNotification",
  Type.Object(
    {
      pix: Type.Array(
        Type.Object({
          endToEndId: Type.String({ description: "Deduplication key per acquirer.", minLength: 1, maxLength: 64 }),
          txid: Type.String(),
          valor: Type.String({
            description: "Reais with two decimals, e.g. `10.50`.",
            pattern: "^\\d{1,10}\\.\\d{2}$",
          }),
          horario: Timestamp,
          pagador: Type.Optional(
            Type.Object({
              nome: Type.Optional(Type.String()),
              cpf: Type.Optional(Type.String()),
              cnpj: Type.Optional(Type.String()),
            }),
          ),
          infoPagador: Type.Optional(Type.String()),
          devolucoes: Type.Optional(
            Type.Array(Type.Unknown(), {
              description:
                "The payment's devoluções (`id`, `rtrId`, `valor`, `natureza`, `status`, `motivo`). One of our refunds settles it; one we did not ask for (an unknown `id`, or a `natureza` beginning `MED_`) is recorded as a dispute of the charge this payment paid (DESIGN §11).",
            }),
          ),
        }),
        { minItems: 1 },
      ),
    },
    {
      description:
        "The central bank's Pix webhook body, one item per payment. Any body is stored (raw, with its headers) before it is judged; only a valid signature (none for a configured bank, whose payments are read back from the bank first) gets it processed.",
    },
  ),
);
/** PixNotification as sent. */
export type PixNotification = Static<typeof PixNotification>;

/** A bank's Pix Automático recurrence callback (the standard's `webhookrec`, posted to the URL + `/rec`). */
export const RecurrenceNotification = wireObject(
  "RecurrenceNotification",
  Type.Object(
    {
      recs: Type.Array(
        Type.Object(
          {
            idRec: Type.String({ description: "The bank's id of the recurrence: 29 letters and digits." }),
            status: StringEnum(["CRIADA", "APROVADA", "REJEITADA", "EXPIRADA", "CANCELADA"]),
          },
          { additionalProperties: true },
        ),
        { minItems: 1 },
      ),
    },
    {
      description:
        'A bank\'s Pix Automático recurrence callback (`webhookrec`, DESIGN §14 "Live"): a hint, stored first like any notification; each recurrence it names is read back from the bank (`GET /rec/{idRec}`) and what the bank says is applied (approved, rejected, expired, canceled).',
    },
  ),
);
/** RecurrenceNotification as sent. */
export type RecurrenceNotification = Static<typeof RecurrenceNotification>;

/** A bank's Pix Automático cycle charge callback (the standard's `webhookcobr`, posted to the URL + `/cobr`). */
export const CycleChargeNotification = wireObject(
  "CycleChargeNotification",
  Type.Object(
    {
      cobsr: Type.Array(
        Type.Object(
          {
            idRec: Type.String({ description: "The bank's id of the recurrence." }),
            txid: Type.String({ description: "Our txid of the cycle's charge." }),
            status: StringEnum(["CRIADA", "ATIVA", "CONCLUIDA", "EXPIRADA", "REJEITADA", "CANCELADA"]),
          },
          { additionalProperties: true },
        ),
        { minItems: 1 },
      ),
    },
    {
      description:
        "A bank's Pix Automático cycle charge callback (`webhookcobr`, DESIGN §14 \"Live\"): a hint, stored first like any notification; each charge it names is read back from the bank (`GET /cobr/{txid}`): paid, it settles as any payment; a failed debit is retried at the bank while the recurrence's policy allows, else the charge fails.",
    },
  ),
);
/** CycleChargeNotification as sent. */
export type CycleChargeNotification = Static<typeof CycleChargeNotification>;

/** SPEC "An inbound receipt". */
export const InboundReceipt = wireObject(
  "InboundReceipt",
  Type.Object(
    {
      received: Type.Literal(true),
      duplicate: Type.Optional(
        Type.Literal(true, { description: "Present when every payment of the request had been received before." }),
      ),
    },
    { description: 'SPEC "An inbound receipt".' },
  ),
);
/** InboundReceipt as sent. */
export type InboundReceipt = Static<typeof InboundReceipt>;

/** SPEC "Webhook inbox item". */
export const InboxItem = wireObject(
  "InboxItem",
  Type.Object(
    {
      id: Type.String({ pattern: "^inb_[0-9A-HJKMNP-TV-Z]{26}$" }),
      object: Type.Literal("inbox_item"),
      acquirer: Type.Object({
        id: Type.String({ pattern: "^acq_[0-9A-HJKMNP-TV-Z]{26}$" }),
        slug: Type.String(),
      }),
      provider_event_id: Type.String({
        description: "The payment's `endToEndId`, or `sha256:<digest of the body>[:<index>]` when it has none.",
      }),
      event_type: Nullable(Type.String()),
      signature_valid: Type.Boolean({
        description:
          "Always true for a configured bank's item: the standard signs nothing, and what it names is read back from the bank instead.",
      }),
      received_at: Timestamp,
      processed_at: Nullable(Timestamp),
      attempts: Type.Integer({ minimum: 0 }),
      error: Nullable(Type.String(), {
        description:
          "`invalid_signature: <reason>`, `malformed_notification`, `duplicate`, `unknown_txid`, `mode_mismatch`, `acquirer_mismatch` (another acquirer than the one holding the charge's, refund's, dispute's or payout's money reports on it), `amount_mismatch` or `not_pending` (with detail); `qr_code_inactive: <detail>` (a payment to a deactivated reusable QR code: no charge, no money moved, the operator returns it); `unknown_payment` (a devolução we did not ask for, of a payment we do not know); `dispute_exceeds_remainder` (a devolução larger than what is left of its charge: nothing is booked); `not_confirmed_by_acquirer: <detail>` when a bank, asked back, does not confirm what its notification names (a later notification or the reconciliation of the same payment is then stored and processed as new); or `processing_failed: <reason>` while processing fails (retried; cleared by a later success); null when none.",
      }),
      note: Nullable(Type.String(), {
        description:
          "A remark that is not an error: `amount_differs_from_computed: computed <centavos>, the bank reported <centavos>` when a bank confirmed a due-date charge's payment at another amount than ours for that day (the bank's figure prevails: the payment is credited as reported); null when none.",
      }),
      transaction_id: Nullable(Type.String()),
      withdrawal_id: Nullable(Type.String()),
      end_to_end_id: Nullable(Type.String()),
      reprocessed_at: Nullable(Timestamp),
    },
    { description: 'SPEC "Webhook inbox item".' },
  ),
);
/** InboxItem as sent. */
export type InboxItem = Static<typeof InboxItem>;

/** InboxItemDetail */
export const InboxItemDetail = wireObject(
  "InboxItemDetail",
  Type.Composite([
    InboxItem,
    Type.Object({
      raw_body: Type.String({
        description:
          "The request body's exact bytes (stored as received, byte for byte): their UTF-8 text when they are valid UTF-8 (NUL characters included), otherwise their base64; `raw_body_encoding` says which.",
      }),
      raw_body_encoding: StringEnum(["utf8", "base64"]),
      headers: StringMap(Type.String(), { description: "The request headers, lower-case names." }),
    }),
  ]),
);
/** InboxItemDetail as sent. */
export type InboxItemDetail = Static<typeof InboxItemDetail>;

/** A page of InboxItem objects. */
export const InboxItemList = listOf("InboxItemList", InboxItem);
/** InboxItemList as sent. */
export type InboxItemList = Static<typeof InboxItemList>;

/** Serializes an inbox item for operators, without its body and headers. */
export function serializeInboxItem(item: InboxItemWithAcquirer): InboxItem {
  return {
    id: item.id,
    object: "inbox_item",
    acquirer: { id: item.acquirer.id, slug: item.acquirer.slug },
    provider_event_id: item.provider_event_id,
    event_type: item.event_type,
    signature_valid: item.signature_valid,
    received_at: item.received_at.toISOString(),
    processed_at: iso(item.processed_at),
    attempts: item.attempts,
    error: item.error,
    note: item.note,
    transaction_id: item.transaction_id,
    withdrawal_id: item.withdrawal_id,
    end_to_end_id: item.end_to_end_id,
    reprocessed_at: iso(item.reprocessed_at),
  };
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The body's exact bytes as text: UTF-8 when they are valid UTF-8 (NUL characters included), else base64. */
function rawBodyText(bytes: Uint8Array): Pick<InboxItemDetail, "raw_body" | "raw_body_encoding"> {
  try {
    return { raw_body: UTF8.decode(bytes), raw_body_encoding: "utf8" };
  } catch {
    return { raw_body: Buffer.from(bytes).toString("base64"), raw_body_encoding: "base64" };
  }
}

/** Serializes an inbox item with the request's exact body and its headers, for an operator's investigation. */
export function serializeInboxItemDetail(item: InboxItemWithAcquirer): InboxItemDetail {
  return {
    ...serializeInboxItem(item),
    ...rawBodyText(item.raw_body),
    headers: item.headers as Record<string, string>,
  };
}
