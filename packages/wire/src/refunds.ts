import { Type, type Static } from "@sinclair/typebox";
import type { Refund as RefundRow } from "@lm/db";
import { Nullable, StringEnum, Timestamp, listOf, wireObject } from "./schema";
import { Mode } from "./common";

/** DESIGN §7 "Refunds": a Pix devolução of a paid charge. */
export const Refund = wireObject(
  "Refund",
  Type.Object(
    {
      id: Type.String({ pattern: "^rfd_[0-9A-HJKMNP-TV-Z]{26}$" }),
      object: Type.Literal("refund"),
      mode: Mode,
      transaction_id: Type.String({ pattern: "^txn_[0-9A-HJKMNP-TV-Z]{26}$" }),
      amount: Type.Integer({ description: "Centavos.", minimum: 1 }),
      status: StringEnum(["pending", "processing", "succeeded", "failed"], {
        description:
          "`pending` (created), `processing` (handed to the acquirer), then `succeeded` or `failed` when the acquirer's notification arrives.",
      }),
      reason: Nullable(Type.String()),
      end_to_end_id: Nullable(Type.String(), {
        description: "The return's own end-to-end id (`rtrId`), once the acquirer accepted it.",
      }),
      failure_reason: Nullable(StringEnum(["rejected_by_acquirer", "acquirer_unavailable"]), {
        description:
          "`rejected_by_acquirer`: the acquirer refused it (in test mode: an amount whose last two digits are 13). `acquirer_unavailable`: the acquirer never accepted the request.",
      }),
      created_at: Timestamp,
      updated_at: Timestamp,
    },
    { description: 'DESIGN §7 "Refunds": a Pix devolução of a paid charge.' },
  ),
);
/** Refund as sent. */
export type Refund = Static<typeof Refund>;

/** A page of Refund objects. */
export const RefundList = listOf("RefundList", Refund);
/** RefundList as sent. */
export type RefundList = Static<typeof RefundList>;

/** Serializes `refund` (SPEC "Refund"). */
export function serializeRefund(refund: RefundRow): Refund {
  return {
    id: refund.id,
    object: "refund",
    mode: refund.mode,
    transaction_id: refund.transaction_id,
    amount: refund.amount,
    status: refund.status,
    reason: refund.reason,
    end_to_end_id: refund.end_to_end_id,
    failure_reason: refund.failure_reason as Refund["failure_reason"],
    created_at: refund.created_at.toISOString(),
    updated_at: refund.updated_at.toISOString(),
  };
}
