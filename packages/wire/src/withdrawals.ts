import { Type, type Static } from "@sinclair/typebox";
import type { WithdrawalWithPayoutKey } from "@lm/db";
import { Nullable, StringEnum, Timestamp, listOf, wireObject, iso } from "./schema";
import { Mode } from "./common";

/** DESIGN §7 "Withdrawals": money sent from the balance to a payout key by the acquirer. */
export const Withdrawal = wireObject(
  "Withdrawal",
  Type.Object(
    {
      id: Type.String({ pattern: "^wd_[0-9A-HJKMNP-TV-Z]{26}$" }),
      object: Type.Literal("withdrawal"),
      mode: Mode,
      status: StringEnum(["pending", "processing", "completed", "failed"], {
        description:
          "`pending` (created, the amount already out of `available`), `processing` (handed to the acquirer), then `completed` or `failed` (its amount back) when the acquirer's notification arrives.",
      }),
      amount: Type.Integer({ description: "Centavos.", minimum: 1 }),
      currency: Type.Literal("BRL"),
      payout_key: Type.Object({
        id: Type.String(),
        type: StringEnum(["cpf", "cnpj", "email", "phone", "evp"]),
        key_masked: Type.String(),
      }),
      end_to_end_id: Nullable(Type.String(), {
        description: "The sent Pix's end-to-end id, once the acquirer accepted it.",
      }),
      failure_reason: Nullable(StringEnum(["rejected_by_acquirer", "acquirer_unavailable"]), {
        description:
          "`rejected_by_acquirer`: the acquirer refused it (in test mode: an amount whose last two digits are 13). `acquirer_unavailable`: the acquirer never accepted the request.",
      }),
      created_at: Timestamp,
      updated_at: Timestamp,
      completed_at: Nullable(Timestamp),
      failed_at: Nullable(Timestamp),
    },
    { description: 'DESIGN §7 "Withdrawals": money sent from the balance to a payout key by the acquirer.' },
  ),
);
/** Withdrawal as sent. */
export type Withdrawal = Static<typeof Withdrawal>;

/** A page of Withdrawal objects. */
export const WithdrawalList = listOf("WithdrawalList", Withdrawal);
/** WithdrawalList as sent. */
export type WithdrawalList = Static<typeof WithdrawalList>;

/** Serializes `withdrawal` with its payout key (masked). */
export function serializeWithdrawal(withdrawal: WithdrawalWithPayoutKey): Withdrawal {
  return {
    id: withdrawal.id,
    object: "withdrawal",
    mode: withdrawal.mode,
    status: withdrawal.status,
    amount: withdrawal.amount,
    currency: withdrawal.currency as "BRL",
    payout_key: {
      id: withdrawal.payout_key.id,
      type: withdrawal.payout_key.type,
      key_masked: withdrawal.payout_key.key_masked,
    },
    end_to_end_id: withdrawal.end_to_end_id,
    failure_reason: withdrawal.failure_reason as Withdrawal["failure_reason"],
    created_at: withdrawal.created_at.toISOString(),
    updated_at: withdrawal.updated_at.toISOString(),
    completed_at: iso(withdrawal.completed_at),
    failed_at: iso(withdrawal.failed_at),
  };
}
