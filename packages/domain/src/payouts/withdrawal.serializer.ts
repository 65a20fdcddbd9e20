/**
 * Wire form of a withdrawal (DESIGN §7 "Withdrawals"): the only place that knows it. The panel and merchant routes
 * reply with it and every `withdrawal.*` event stores it as `data.object`.
 */
import type { WithdrawalWithPayoutKey } from "@lm/db";
import type { PayoutKeyType } from "../payout-keys/payout-keys";

/** A withdrawal with the payout key it pays. */
export type WithdrawalWithKey = WithdrawalWithPayoutKey;

/** A withdrawal as `GET /v1/withdrawals/{id}` returns it. */
export interface WithdrawalWire {
  id: string;
  object: "withdrawal";
  mode: "live" | "test";
  status: "pending" | "processing" | "completed" | "failed";
  /** Integer centavos. */
  amount: number;
  currency: string;
  payout_key: { id: string; type: PayoutKeyType; key_masked: string };
  end_to_end_id: string | null;
  /** `rejected_by_acquirer` or `acquirer_unavailable`. */
  failure_reason: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  failed_at: string | null;
}

/** Serializes `withdrawal` (its key masked). */
export function serializeWithdrawal(withdrawal: WithdrawalWithKey): WithdrawalWire {
  return {
    id: withdrawal.id,
    object: "withdrawal",
    mode: withdrawal.mode,
    status: withdrawal.status,
    amount: withdrawal.amount,
    currency: withdrawal.currency,
    payout_key: {
      id: withdrawal.payout_key.id,
      type: withdrawal.payout_key.type,
      key_masked: withdrawal.payout_key.key_masked,
    },
    end_to_end_id: withdrawal.end_to_end_id,
    failure_reason: withdrawal.failure_reason,
    created_at: withdrawal.created_at.toISOString(),
    updated_at: withdrawal.updated_at.toISOString(),
    completed_at: withdrawal.completed_at?.toISOString() ?? null,
    failed_at: withdrawal.failed_at?.toISOString() ?? null,
  };
}
