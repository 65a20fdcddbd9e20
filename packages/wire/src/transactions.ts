/**
 * Wire form of a transaction (DESIGN §5 "Transaction"): the only place that knows it. The merchant API replies with
 * it and every `transaction.*` event stores it as `data.object`, so a webhook and a `GET` at the same moment agree.
 * The API and the worker (which writes `transaction.paid` and `transaction.expired`) both use it.
 *
 * What never changes once a charge is created (its terms, BR Code and QR image, customer) is stored once, on the charge
 * (DESIGN §10 "No copies"): an event's object and a kept idempotent reply store the other fields
 * ({@link withoutChargeFields}) and every reader puts the charge's back ({@link withChargeFields}), so the wire is
 * unchanged. The QR image alone was two thirds of each event row and of each kept reply; the rest of the fixed fields,
 * about half of what remained.
 */
import { Type, type Static } from "@sinclair/typebox";
import type { Transaction as TransactionRow } from "@lm/db";
import { iso, listOf, Nullable, StringEnum, StringMap, Timestamp, wireObject } from "./schema";
import { Mode } from "./common";

const IsoDate = Type.String({ format: "date", description: "A calendar date, `YYYY-MM-DD`, in America/Sao_Paulo." });
const Centavos = Type.Integer({ minimum: 1, description: "Centavos." });
const Percent = Type.String({
  pattern: "^(0|[1-9][0-9]{0,2})\\.[0-9]{2}$",
  description: 'A percentage written with two decimals, as the standard writes it: `"2.00"` is 2 %.',
});
const DayCount = StringEnum(["calendar", "business"], {
  description: "Which days count: every calendar day, or business days (no weekends, no national holidays).",
});

/**
 * A due-date charge's terms (DESIGN §13; the standard's `cobv`, names in brackets): fine [`multa`], interest
 * [`juros`], reduction [`abatimento`] and discount [`desconto`], and the dates they refer to.
 */
export const DueDate = wireObject(
  "DueDate",
  Type.Object({
    date: Type.String({
      format: "date",
      description:
        "The due date [`dataDeVencimento`]; one on a weekend or national holiday moves to the next business day.",
    }),
    days_after_due: Type.Integer({
      minimum: 0,
      maximum: 365,
      description: "Calendar days the charge stays payable after the due date [`validadeAposVencimento`].",
    }),
    fine: Nullable(
      Type.Union([
        Type.Object({ type: Type.Literal("fixed"), value: Centavos }),
        Type.Object({ type: Type.Literal("percent"), value: Percent }),
      ]),
      { description: "Charged once when paid late [`multa`, modalidade 1 fixed, 2 percent of the original]." },
    ),
    interest: Nullable(
      Type.Union([
        Type.Object({ type: Type.Literal("fixed_per_day"), days: DayCount, value: Centavos }),
        Type.Object({
          type: StringEnum(["percent_per_day", "percent_per_month", "percent_per_year"]),
          days: DayCount,
          value: Percent,
        }),
      ]),
      {
        description:
          "Simple interest per day late [`juros`, modalidades 1-8]: a monthly rate is divided by 30 per calendar day " +
          "or by 21 per business day, a yearly one by 365 or by 252.",
      },
    ),
    reduction: Nullable(
      Type.Union([
        Type.Object({ type: Type.Literal("fixed"), value: Centavos }),
        Type.Object({ type: Type.Literal("percent"), value: Percent }),
      ]),
      { description: "Taken off whatever the day [`abatimento`]." },
    ),
    discount: Nullable(
      Type.Union([
        Type.Object({
          type: Type.Literal("fixed_until"),
          tiers: Type.Array(Type.Object({ until: IsoDate, value: Centavos }), { minItems: 1, maxItems: 3 }),
        }),
        Type.Object({
          type: Type.Literal("percent_until"),
          tiers: Type.Array(Type.Object({ until: IsoDate, value: Percent }), { minItems: 1, maxItems: 3 }),
        }),
        Type.Object({ type: Type.Literal("fixed_per_day_early"), days: DayCount, value: Centavos }),
        Type.Object({ type: Type.Literal("percent_per_day_early"), days: DayCount, value: Percent }),
      ]),
      {
        description:
          "For paying early [`desconto`]: until fixed dates (1 to 3 tiers, the earliest tier not yet past applies) or " +
          "per day before the due date.",
      },
    ),
    last_payable_date: Type.String({
      format: "date",
      description: "The last day the charge can be paid; it expires the day after.",
    }),
  }),
);
/** DueDate as sent. */
export type DueDate = Static<typeof DueDate>;

/** The parts of an amount due or paid on a due-date charge, in centavos (the standard's `componentesValor`). */
const AmountParts = {
  original: Type.Integer({ minimum: 0 }),
  fine: Type.Integer({ minimum: 0 }),
  interest: Type.Integer({ minimum: 0 }),
  reduction: Type.Integer({ minimum: 0 }),
  discount: Type.Integer({ minimum: 0 }),
};

/** What a due-date charge's payer owes on a date, and its parts (`GET /v1/transactions/{id}/amount-due`). */
export const AmountDue = wireObject(
  "AmountDue",
  Type.Object({
    object: Type.Literal("amount_due"),
    date: IsoDate,
    ...AmountParts,
    total: Type.Integer({
      minimum: 0,
      description: "original + fine + interest − reduction − discount, never below zero.",
    }),
  }),
);
/** AmountDue as sent. */
export type AmountDue = Static<typeof AmountDue>;

/** A Pix charge (DESIGN §5 "Transaction"). */
export const Transaction = wireObject(
  "Transaction",
  Type.Object(
    {
      id: Type.String({ pattern: "^txn_[0-9A-HJKMNP-TV-Z]{26}$" }),
      object: Type.Literal("transaction"),
      status: StringEnum(["pending", "paid", "expired", "canceled", "refunded", "scheduled", "failed"], {
        description:
          "A pending charge past `expires_at` reads as `expired` at once. A recurrence's cycle (`type` `recurring`) is `scheduled` until sent, then `pending` until the payer's bank debits it (`paid`) or every debit failed (`failed`); it never reads as `expired`.",
      }),
      type: StringEnum(["immediate", "due_date", "qr_code", "recurring"], {
        description:
          "`due_date`: a charge with a due date, fine, interest and discounts (DESIGN §13). `qr_code`: one payment to a reusable QR code (`qr_code_id`), born `paid`: it was never pending, so its `expires_in` is 0 and its `expires_at` the time of payment. `recurring`: one cycle of a Pix Automático recurrence (`recurrence_id`, DESIGN §14), debited by the payer's bank on `due_date.date` (and on its retries until `due_date.last_payable_date`); it has no BR Code (`pix` holds empty strings) and its `expires_at` is the end of its last debit day.",
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
            "EMV BR Code (valid CRC16). For a charge registered at a bank (live mode, or test mode with a bank activated for it) the bank's `pixCopiaECola`, as the bank returned it; otherwise, in test mode, a dynamic code on the sandbox host, never payable. A QR code's charge (`type` `qr_code`) carries its code's static BR Code. `qr_code_png_base64` is drawn from it.",
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
      failure_reason: Nullable(StringEnum(["debit_failed", "rejected_by_acquirer"]), {
        description:
          "Why a recurrence's cycle (`type` `recurring`) is `failed`: `debit_failed`, every debit the policy allows failed; `rejected_by_acquirer`, its bank refused to register the cycle's charge (a refusal, not an outage: an outage is retried). Null otherwise.",
      }),
      payment: Nullable(
        Type.Object({
          end_to_end_id: Type.String(),
          amount: Nullable(Type.Integer(), { description: "Centavos paid." }),
          payer: Type.Object({
            name: Nullable(Type.String()),
            document_masked: Nullable(Type.String()),
          }),
          components: Nullable(Type.Object(AmountParts), {
            description: "A due-date charge's: the parts of what was paid, as the acquirer reported them.",
          }),
        }),
      ),
      due_date: Nullable(DueDate, {
        description:
          "A due-date charge's terms; a recurrence's cycle's due date (never moved: Pix Automático debits on any day) and `last_payable_date`, its last debit day (retries included), without fine, interest, reduction or discount; null otherwise.",
      }),
      amount_due: Nullable(Type.Object({ date: IsoDate, amount: Type.Integer({ minimum: 0 }) }), {
        description: "A due-date charge's total for today in São Paulo while it is pending; null otherwise.",
      }),
      qr_code_id: Nullable(Type.String({ pattern: "^qr_[0-9A-HJKMNP-TV-Z]{26}$" }), {
        description: "The reusable QR code this charge is a payment of (`type` `qr_code`); null otherwise.",
      }),
      recurrence_id: Nullable(Type.String({ pattern: "^rec_[0-9A-HJKMNP-TV-Z]{26}$" }), {
        description:
          "The recurrence this charge is a cycle of (`type` `recurring`) or the first payment of (journey `qr_with_first_payment`); null otherwise.",
      }),
      created_at: Timestamp,
      updated_at: Timestamp,
    },
    { description: 'A Pix charge (DESIGN §5 "Transaction").' },
  ),
);
/** Transaction as sent. */
export type Transaction = Static<typeof Transaction>;
/** The parts of a due-date charge's payment. */
type PaymentComponents = NonNullable<NonNullable<Transaction["payment"]>["components"]>;

/** A page of Transaction objects. */
export const TransactionList = listOf("TransactionList", Transaction);
/** TransactionList as sent. */
export type TransactionList = Static<typeof TransactionList>;

/**
 * Whether a charge reads as expired at `now`: stored `expired`, or still `pending` with `expires_at` passed (DESIGN §5:
 * "An expired charge reads as expired even before the expiry job runs"). A recurrence's cycle never does: the
 * recurrence engine ends it `paid` or `failed` (DESIGN §14), on its test clock's time when it has one.
 */
export function isExpiredAt(transaction: Pick<TransactionRow, "status" | "expires_at" | "type">, now: Date): boolean {
  if (transaction.status === "expired") return true;
  return transaction.status === "pending" && transaction.type !== "recurring" && transaction.expires_at <= now;
}

/**
 * Serializes `transaction` as it reads at `now`. Documents are masked; the full customer and payer documents never
 * leave the database.
 */
export function serializeTransaction(
  transaction: TransactionRow,
  now: Date,
  amountDue: Transaction["amount_due"] = null,
): Transaction {
  const expired = isExpiredAt(transaction, now);
  return {
    id: transaction.id,
    object: "transaction",
    status: expired ? "expired" : transaction.status,
    mode: transaction.mode,
    type: transaction.type,
    amount: transaction.amount,
    amount_refunded: transaction.amount_refunded,
    amount_disputed: transaction.amount_disputed,
    // The service charges in reais only; the column exists for the day it does not.
    currency: transaction.currency as "BRL",
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
    failure_reason: transaction.failure_reason as Transaction["failure_reason"],
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
            components: transaction.payment_components as PaymentComponents | null,
          },
    due_date: transaction.due_terms as DueDate | null,
    amount_due: amountDue,
    qr_code_id: transaction.qr_code_id,
    recurrence_id: transaction.recurrence_id,
    created_at: transaction.created_at.toISOString(),
    updated_at: transaction.updated_at.toISOString(),
  };
}

/**
 * The fields of a transaction's wire form that no change of the charge touches after its creation (see the file's
 * comment). `expires_at` is not one: the test mode's simulated expiration brings it forward.
 */
const CHARGE_FIXED_FIELDS: ReadonlySet<string> = new Set<keyof Transaction>([
  "mode",
  "type",
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
  "due_date",
  "qr_code_id",
  "recurrence_id",
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
 * is. An object stored whole (before the fixed fields were left out) reads the same: those fields never change. An
 * object stored before `amount_due` existed reads it as null, which it was for every charge then (immediate ones).
 * @param charge - the charge {@link storedChargeId} names, as read now
 */
export function withChargeFields(stored: object, charge: TransactionRow | null | undefined): object {
  if (storedChargeId(stored) === null || !charge) return stored;
  const fixed = serializeTransaction(charge, charge.created_at) as unknown as Record<string, unknown>;
  const kept = stored as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(fixed)
      .filter((key) => CHARGE_FIXED_FIELDS.has(key) || key in kept || FIELDS_ADDED_SINCE_STORED.has(key))
      .map((key) => [key, CHARGE_FIXED_FIELDS.has(key) ? fixed[key] : (kept[key] ?? null)]),
  );
}

/** Changing fields added to the wire after objects were first stored: an older stored object reads them as null. */
const FIELDS_ADDED_SINCE_STORED: ReadonlySet<string> = new Set<keyof Transaction>(["amount_due"]);
