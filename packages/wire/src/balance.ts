import { Type, type Static } from "@sinclair/typebox";
import type { BalanceTransaction as BalanceTransactionRow } from "@lm/db";
import { StringEnum, Timestamp, listOf, wireObject } from "./schema";
import { Mode } from "./common";

/** DESIGN §7 "Balance", read from a running total (one row). */
export const Balance = wireObject(
  "Balance",
  Type.Object(
    {
      object: Type.Literal("balance"),
      mode: Mode,
      currency: Type.Literal("BRL"),
      available: Type.Integer({
        description:
          "Centavos: the sum of the mode's balance transactions. Negative only after a dispute (DESIGN §11), the one debit that may overdraw because the bank has already taken the money: withdrawals are then refused (`insufficient_funds`) and new payments repay the debt first.",
      }),
      reserved: Type.Integer({
        description:
          "Centavos of refunds and withdrawals still `pending` or `processing` (already out of `available`).",
        minimum: 0,
      }),
    },
    { description: 'DESIGN §7 "Balance", read from a running total (one row).' },
  ),
);
/** Balance as sent. */
export type Balance = Static<typeof Balance>;

/** DESIGN §7, §11: one append-only movement of the balance. */
export const BalanceTransaction = wireObject(
  "BalanceTransaction",
  Type.Object(
    {
      id: Type.String({ pattern: "^btx_[0-9A-HJKMNP-TV-Z]{26}$" }),
      object: Type.Literal("balance_transaction"),
      mode: Mode,
      type: StringEnum(["payment", "refund", "refund_reversal", "withdrawal", "withdrawal_reversal", "dispute"]),
      amount: Type.Integer({
        description:
          "Signed centavos: positive for `payment` and the reversals, negative for `refund`, `withdrawal` and `dispute`.",
      }),
      source: Type.Object(
        {
          object: StringEnum(["transaction", "refund", "withdrawal", "dispute"]),
          id: Type.String(),
        },
        {
          description:
            "The charge for `payment`, the refund for `refund*`, the withdrawal for `withdrawal*`, the dispute for `dispute`.",
        },
      ),
      created_at: Timestamp,
    },
    { description: "DESIGN §7, §11: one append-only movement of the balance." },
  ),
);
/** BalanceTransaction as sent. */
export type BalanceTransaction = Static<typeof BalanceTransaction>;

/** A page of BalanceTransaction objects. */
export const BalanceTransactionList = listOf("BalanceTransactionList", BalanceTransaction);
/** BalanceTransactionList as sent. */
export type BalanceTransactionList = Static<typeof BalanceTransactionList>;

/** The ledger entry type's source object: what moved the money. */
const SOURCE_OBJECT: Record<BalanceTransactionRow["type"], BalanceTransaction["source"]["object"]> = {
  payment: "transaction",
  refund: "refund",
  refund_reversal: "refund",
  withdrawal: "withdrawal",
  withdrawal_reversal: "withdrawal",
  dispute: "dispute",
};

/**
 * The balance of one mode (DESIGN §7): `totals` in centavos (bigint sums of the ledger), null when the mode has no
 * entry yet.
 */
export function serializeBalance(
  mode: Balance["mode"],
  totals: { available: bigint; reserved: bigint } | null,
): Balance {
  return {
    object: "balance",
    mode,
    currency: "BRL",
    available: Number(totals?.available ?? 0n),
    reserved: Number(totals?.reserved ?? 0n),
  };
}

/** Serializes a ledger entry: signed centavos, and the object that moved them. */
export function serializeBalanceTransaction(entry: BalanceTransactionRow): BalanceTransaction {
  return {
    id: entry.id,
    object: "balance_transaction",
    mode: entry.mode,
    type: entry.type,
    amount: entry.amount,
    source: { object: SOURCE_OBJECT[entry.type], id: entry.source_id },
    created_at: entry.created_at.toISOString(),
  };
}
