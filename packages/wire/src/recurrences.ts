/**
 * Wire form of a Pix Automático recurrence and of a test clock (DESIGN §14): the merchant API replies with them and
 * the `recurrence.*` events carry a recurrence as `data.object`. Each cycle's charge is a `Transaction` of `type`
 * `recurring`.
 */
import { Type, type Static } from "@sinclair/typebox";
import type { Recurrence as RecurrenceRow, TestClock as TestClockRow } from "@lm/db";
import { iso, listOf, Nullable, StringEnum, Timestamp, wireObject } from "./schema";
import { Mode } from "./common";

const IsoDate = Type.String({ format: "date", description: "A calendar date, `YYYY-MM-DD`, in America/Sao_Paulo." });

/** A push journey's payer account (the standard's `destinatario`). */
const PayerAccount = Type.Object(
  {
    ispb: Type.String({ pattern: "^[0-9]{8}$", description: "The payer's bank's ISPB, 8 digits." }),
    branch: Type.String({ pattern: "^[0-9]{1,4}$", description: "Agência, up to 4 digits." }),
    number: Type.String({ pattern: "^[0-9]{1,20}$", description: "Account number with its check digit, digits only." }),
  },
  { description: "The payer's account, where the push journey's request is sent (the standard's `destinatario`)." },
);
/** A payer account as stored and sent. */
export type PayerAccount = Static<typeof PayerAccount>;

/** A Pix Automático recurrence (DESIGN §14, the standard's `rec`). */
export const Recurrence = wireObject(
  "Recurrence",
  Type.Object(
    {
      id: Type.String({ pattern: "^rec_[0-9A-HJKMNP-TV-Z]{26}$" }),
      object: Type.Literal("recurrence"),
      mode: Mode,
      status: StringEnum(["created", "approved", "rejected", "expired", "canceled"], {
        description:
          "`created` until the payer answers; `approved` while its cycles are charged (it stays `approved` after its `end_date`, with no `next_due_date`); `rejected` by the payer; `expired` when not approved within 30 days; `canceled` by either side (`canceled_by`).",
      }),
      contract: Type.String({ description: "The merchant's contract reference (the standard's `vinculo.contrato`)." }),
      description: Nullable(Type.String({ description: "Shown to the payer (the standard's `vinculo.objeto`)." })),
      customer: Type.Object({
        name: Type.String(),
        document_masked: Type.String({ description: "The payer's CPF or CNPJ, masked." }),
      }),
      payer_account: Nullable(PayerAccount),
      start_date: Type.String({ format: "date", description: "The first cycle's due date." }),
      end_date: Nullable(IsoDate, { description: "No cycle falls after it; null: no end." }),
      interval: StringEnum(["weekly", "monthly", "quarterly", "semiannual", "annual"], {
        description:
          "Weekly cycles every 7 days; the others every 1, 3, 6 or 12 calendar months from `start_date`, on its day (or the month's last day when shorter).",
      }),
      amount: Nullable(Type.Integer({ minimum: 1 }), {
        description: "Centavos of every cycle (a fixed amount); null for a variable amount.",
      }),
      minimum_amount: Nullable(Type.Integer({ minimum: 1 }), {
        description:
          "A variable amount's least, centavos: each cycle is what the merchant sets (`POST /v1/recurrences/{id}/charges`), or this when it sets none by 2 days before the due date; null for a fixed amount.",
      }),
      retry_policy: StringEnum(["none", "three_in_seven_days"], {
        description:
          "Whether a failed debit is tried again (the standard's `politicaRetentativa`): up to 3 more times within 7 days after the due date (1, 3 and 5 days after), then the cycle is `failed`.",
      }),
      journey: StringEnum(["qr", "qr_with_first_payment", "push"], {
        description:
          "How the payer authorizes: `qr`, a QR code that only authorizes (the standard's journey 2); `qr_with_first_payment`, an immediate charge and the authorization in one QR code (journey 3); `push`, a request sent to the payer's bank (journey 1).",
      }),
      authorization: Nullable(
        Type.Object({
          copy_paste: Type.String({
            description:
              "EMV BR Code (valid CRC16) carrying the authorization (field 80, `br.gov.bcb.pix.automatico`) and, for `qr_with_first_payment`, the first payment's charge. In test mode on the sandbox host, never payable.",
          }),
          qr_code_png_base64: Type.String({ contentEncoding: "base64", contentMediaType: "image/png" }),
        }),
        { description: "The QR code the payer scans to authorize; null for `push`." },
      ),
      first_payment_transaction_id: Nullable(Type.String({ pattern: "^txn_[0-9A-HJKMNP-TV-Z]{26}$" }), {
        description: "The immediate charge of `qr_with_first_payment`; null otherwise.",
      }),
      next_due_date: Nullable(IsoDate, {
        description:
          "The due date of the next cycle not yet charged; null when none is left or it is no longer approved.",
      }),
      canceled_by: Nullable(StringEnum(["payer", "merchant"])),
      postback_url: Nullable(Type.String({ format: "uri" }), {
        description: "Given to each of its charges, whose events it receives.",
      }),
      test_clock: Nullable(Type.String({ pattern: "^clk_[0-9A-HJKMNP-TV-Z]{26}$" }), {
        description: "The test clock whose time it runs on; null: real time.",
      }),
      created_at: Timestamp,
      updated_at: Timestamp,
    },
    { description: "A Pix Automático recurrence (DESIGN §14)." },
  ),
);
/** Recurrence as sent. */
export type Recurrence = Static<typeof Recurrence>;

/** A page of Recurrence objects. */
export const RecurrenceList = listOf("RecurrenceList", Recurrence);
/** RecurrenceList as sent. */
export type RecurrenceList = Static<typeof RecurrenceList>;

/** Serializes `recurrence`; the customer's document is masked. */
export function serializeRecurrence(recurrence: RecurrenceRow): Recurrence {
  const approved = recurrence.status === "approved";
  return {
    id: recurrence.id,
    object: "recurrence",
    mode: recurrence.mode,
    status: recurrence.status,
    contract: recurrence.contract,
    description: recurrence.description,
    customer: { name: recurrence.customer_name, document_masked: recurrence.customer_document_masked },
    payer_account: recurrence.payer_account as PayerAccount | null,
    start_date: recurrence.start_date,
    end_date: recurrence.end_date,
    interval: recurrence.interval,
    amount: recurrence.amount,
    minimum_amount: recurrence.minimum_amount,
    retry_policy: recurrence.retry_policy,
    journey: recurrence.journey,
    authorization:
      recurrence.br_code === null || recurrence.qr_code_png_base64 === null
        ? null
        : { copy_paste: recurrence.br_code, qr_code_png_base64: recurrence.qr_code_png_base64 },
    first_payment_transaction_id: recurrence.first_payment_transaction_id,
    next_due_date: approved ? recurrence.next_due_date : null,
    canceled_by: recurrence.canceled_by,
    postback_url: recurrence.postback_url,
    test_clock: recurrence.test_clock_id,
    created_at: recurrence.created_at.toISOString(),
    updated_at: recurrence.updated_at.toISOString(),
  };
}

/** A test clock (DESIGN §14, Stripe's test clocks). */
export const TestClock = wireObject(
  "TestClock",
  Type.Object(
    {
      id: Type.String({ pattern: "^clk_[0-9A-HJKMNP-TV-Z]{26}$" }),
      object: Type.Literal("test_clock"),
      frozen_time: Timestamp,
      status: StringEnum(["ready", "advancing"], {
        description:
          "`advancing` while the engine runs what falls due up to the new time (cycles sent, debited or failed, retries, ends); `ready` again once done, `frozen_time` then the new time.",
      }),
      advancing_to: Nullable(Timestamp, { description: "While `advancing`: the time it advances to; null otherwise." }),
      created_at: Timestamp,
    },
    { description: "A test clock (DESIGN §14): the time its test recurrences run on." },
  ),
);
/** TestClock as sent. */
export type TestClock = Static<typeof TestClock>;

/** A page of TestClock objects. */
export const TestClockList = listOf("TestClockList", TestClock);
/** TestClockList as sent. */
export type TestClockList = Static<typeof TestClockList>;

/** Serializes `clock`. */
export function serializeTestClock(clock: TestClockRow): TestClock {
  return {
    id: clock.id,
    object: "test_clock",
    frozen_time: clock.frozen_time.toISOString(),
    status: clock.status,
    advancing_to: iso(clock.advancing_to),
    created_at: clock.created_at.toISOString(),
  };
}
