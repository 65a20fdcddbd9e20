/**
 * Recording a refund's events (DESIGN §7): `refund.*` with the refund as `data.object`, fanned out to the store's
 * subscribed endpoints and to the refunded charge's `postback_url` (they are that charge's events), in the caller's
 * database transaction.
 */
import type { Prisma, Refund, Transaction } from "@lm/db";
import type { SubscribableEventType } from "../events/event-types";
import { recordEvent, type RecordedEvent } from "../events/record-event";
import { serializeRefund } from "./refund.serializer";

/** The `refund.*` types of the event catalog. */
export type RefundEventType = Extract<SubscribableEventType, `refund.${string}`>;

/** Records `type` for `refund` of `charge` as it reads at `now`. */
export function recordRefundEvent(
  tx: Prisma.TransactionClient,
  refund: Refund,
  charge: Pick<Transaction, "id" | "postback_url">,
  type: RefundEventType,
  now: Date,
): Promise<RecordedEvent> {
  return recordEvent(tx, {
    scope: { storeId: refund.store_id, mode: refund.mode },
    type,
    object: serializeRefund(refund) as unknown as Record<string, unknown>,
    postback: { transactionId: charge.id, url: charge.postback_url },
    now,
  });
}
