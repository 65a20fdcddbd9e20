/**
 * Wire forms of the balance and its balance transactions (DESIGN §7): the only place that knows them.
 */
import type { BalanceTransaction } from "@lm/db";
import type { BalanceScope, BalanceTransactionType } from "./ledger";

/** `GET /v1/balance` and `GET /v1/me/balance`. */
export interface BalanceWire {
  object: "balance";
  mode: "live" | "test";
  currency: "BRL";
  /** Centavos: the sum of the mode's balance transactions. */
  available: number;
  /** Centavos of refunds and withdrawals still pending or processing (already out of `available`). */
  reserved: number;
}

/** A balance transaction as the lists return it. */
export interface BalanceTransactionWire {
  id: string;
  object: "balance_transaction";
  mode: "live" | "test";
  type: BalanceTransactionType;
  /** Signed centavos. */
  amount: number;
  source: { object: "transaction" | "refund" | "withdrawal" | "dispute"; id: string };
  created_at: string;
}

/** The object kind a balance transaction's `source_id` names, by type. */
const SOURCE_OBJECT: Record<BalanceTransactionType, BalanceTransactionWire["source"]["object"]> = {
  payment: "transaction",
  refund: "refund",
  refund_reversal: "refund",
  withdrawal: "withdrawal",
  withdrawal_reversal: "withdrawal",
  dispute: "dispute",
};

/** Serializes the running totals of `scope` (zero for a seller that never had a movement). */
export function serializeBalance(
  scope: Pick<BalanceScope, "mode">,
  totals: { available: bigint; reserved: bigint } | null,
): BalanceWire {
  return {
    object: "balance",
    mode: scope.mode,
    currency: "BRL",
    available: Number(totals?.available ?? 0n),
    reserved: Number(totals?.reserved ?? 0n),
  };
}

/** Serializes one ledger entry. */
export function serializeBalanceTransaction(entry: BalanceTransaction): BalanceTransactionWire {
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
