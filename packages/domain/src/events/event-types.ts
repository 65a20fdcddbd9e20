/**
 * The event-type catalog (SPEC "Events", DESIGN §4 "Event types (v1)"): the one list of what the service emits. It
 * validates endpoint subscriptions, types the code that records events and feeds `GET /v1/me/event-types`. New types
 * are additive (SPEC "Versioning"): add them here and every consumer follows.
 */

/** Every subscribable type with the one-line description `GET /v1/me/event-types` shows. */
export const SUBSCRIBABLE_EVENT_TYPES = {
  "transaction.created": "A charge was created and awaits payment.",
  "transaction.paid": "The payer's bank confirmed the payment of a charge.",
  "transaction.expired": "A charge reached its deadline unpaid.",
  "transaction.canceled": "A pending charge was canceled by the merchant.",
  "transaction.refunded": "A charge was refunded in full.",
  "transaction.disputed": "The payer's bank took money of a paid charge back (MED); see its dispute.",
  "refund.created": "A refund of a paid charge was requested; its amount left the available balance.",
  "refund.succeeded": "The payer's bank received a refund.",
  "refund.failed": "A refund was refused; its amount is back in the balance.",
  "dispute.created": "The payer's bank returned money of a paid charge without our asking (MED); the balance paid it.",
  "withdrawal.created": "A withdrawal to a payout key was requested.",
  "withdrawal.processing": "A withdrawal was sent to the bank.",
  "withdrawal.completed": "A withdrawal reached the payout key.",
  "withdrawal.failed": "A withdrawal was refused or returned; its amount is back in the balance.",
  "seller.updated": "The seller's profile or KYC status changed.",
} as const;

/** A type an endpoint may subscribe to. */
export type SubscribableEventType = keyof typeof SUBSCRIBABLE_EVENT_TYPES;

/** Sent only on request, to one endpoint, whatever it subscribes to (DESIGN §4); never subscribable. */
export const PING_EVENT_TYPE = "ping";

/** Every type the service records. */
export type EventType = SubscribableEventType | typeof PING_EVENT_TYPE;

/** The subscription value that means every subscribable type, now and later (SPEC "Events"). */
export const ALL_EVENT_TYPES = "*";

/** Whether `type` is in the subscribable catalog (`ping` and unknown names are not). */
export function isSubscribableEventType(type: string): type is SubscribableEventType {
  return Object.hasOwn(SUBSCRIBABLE_EVENT_TYPES, type);
}
