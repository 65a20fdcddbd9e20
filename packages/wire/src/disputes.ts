import { Type, type Static } from "@sinclair/typebox";
import type { Dispute as DisputeRow } from "@lm/db";
import { listOf, Nullable, wireObject, Timestamp } from "./schema";
import { Mode } from "./common";

/** DESIGN §11: money of a paid charge that the payer's bank took back without our asking, under the Pix MED (Mecanismo Especial de Devolução). The bank has returned it already, so a dispute is always `lost`; its `dispute` balance transaction took the amount out of `available`. */
export const Dispute = wireObject(
  "Dispute",
  Type.Object(
    {
      id: Type.String({ pattern: "^dsp_[0-9A-HJKMNP-TV-Z]{26}$" }),
      object: Type.Literal("dispute"),
      mode: Mode,
      transaction_id: Type.String({ pattern: "^txn_[0-9A-HJKMNP-TV-Z]{26}$" }),
      amount: Type.Integer({ description: "Centavos the payer's bank took back.", minimum: 1 }),
      reason: Nullable(Type.String(), {
        description: "The bank's `natureza` and `motivo` as given, e.g. `MED_FRAUDE: …`; null when it gave neither.",
      }),
      status: Type.Literal("lost", { description: "Always `lost`: under the MED the money has already left." }),
      end_to_end_id: Type.String({ description: "The return's own end-to-end id (`rtrId`); one dispute per return." }),
      created_at: Timestamp,
    },
    {
      description:
        "DESIGN §11: money of a paid charge that the payer's bank took back without our asking, under the Pix MED (Mecanismo Especial de Devolução). The bank has returned it already, so a dispute is always `lost`; its `dispute` balance transaction took the amount out of `available`.",
    },
  ),
);
/** Dispute as sent. */
export type Dispute = Static<typeof Dispute>;

/** A page of Dispute objects. */
export const DisputeList = listOf("DisputeList", Dispute);
/** DisputeList as sent. */
export type DisputeList = Static<typeof DisputeList>;

/** Serializes `dispute` (DESIGN §11): always `lost`, since under the MED the bank has returned the money already. */
export function serializeDispute(dispute: DisputeRow): Dispute {
  return {
    id: dispute.id,
    object: "dispute",
    mode: dispute.mode,
    transaction_id: dispute.transaction_id,
    amount: dispute.amount,
    reason: dispute.reason,
    status: "lost",
    end_to_end_id: dispute.end_to_end_id,
    created_at: dispute.created_at.toISOString(),
  };
}
