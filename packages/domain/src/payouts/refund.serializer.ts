/**
 * Wire form of a refund (DESIGN §7 "Refunds"): the only place that knows it. The merchant API replies with it and
 * every `refund.*` event stores it as `data.object`.
 */
import type { Refund } from "@lm/db";

/** A refund as `GET /v1/refunds/{id}` returns it. */
export interface RefundWire {
  id: string;
  object: "refund";
  mode: "live" | "test";
  transaction_id: string;
  /** Integer centavos. */
  amount: number;
  status: "pending" | "processing" | "succeeded" | "failed";
  reason: string | null;
  /** The return's end-to-end id (`rtrId`), once the acquirer accepted it. */
  end_to_end_id: string | null;
  /** Why it failed: `rejected_by_acquirer` (the acquirer refused it) or `acquirer_unavailable` (never accepted). */
  failure_reason: string | null;
  created_at: string;
  updated_at: string;
}

/** Serializes `refund`. */
export function serializeRefund(refund: Refund): RefundWire {
  return {
    id: refund.id,
    object: "refund",
    mode: refund.mode,
    transaction_id: refund.transaction_id,
    amount: refund.amount,
    status: refund.status,
    reason: refund.reason,
    end_to_end_id: refund.end_to_end_id,
    failure_reason: refund.failure_reason,
    created_at: refund.created_at.toISOString(),
    updated_at: refund.updated_at.toISOString(),
  };
}
