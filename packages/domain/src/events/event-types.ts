/**
 * The event-type catalog (SPEC "Events", DESIGN §4 "Event types (v1)"): the one list of what the service emits. It
 * validates endpoint subscriptions and every filter that names a type (one check, {@link assertEventType}), types the
 * code that records events and feeds `GET /v1/me/event-types`. New types are additive (SPEC "Versioning"): add them
 * here and every consumer follows.
 */
import { closest, distance } from "fastest-levenshtein";
import { ApiError } from "../errors";

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

/** Whether `type` is one the service records: a subscribable type or `ping`. */
export function isEventType(type: string): type is EventType {
  return type === PING_EVENT_TYPE || isSubscribableEventType(type);
}

/**
 * Refuses a request that names an event type the service does not have, so that a typo is told rather than matching
 * nothing (DESIGN §12 "Safer defaults": `?type=transaction.payed` used to answer an empty list).
 * @param type - the name as the request gave it
 * @param param - the request field that gave it (`events`, `type`, `event_type`), reported as the error's `param`
 * @param accepted - `"recorded"` for filters over events and deliveries (a `ping` is recorded too), `"subscribable"`
 *   for an endpoint's subscriptions (`ping` is sent only on request)
 * @throws ApiError `invalid_event_type` (400, param `param`) naming the closest valid type when one is a likely typo,
 *   and `GET /v1/me/event-types`, which lists them
 */
export function assertEventType(type: string, param: string, accepted: "recorded" | "subscribable"): void {
  const valid = accepted === "recorded" ? isEventType(type) : isSubscribableEventType(type);
  if (valid) return;
  const candidates: string[] = Object.keys(SUBSCRIBABLE_EVENT_TYPES);
  if (accepted === "recorded") candidates.push(PING_EVENT_TYPE);
  const closest = closestName(type, candidates);
  const hint = closest === undefined ? "" : ` Did you mean "${closest}"?`;
  const kind = accepted === "recorded" ? "an event type" : "a subscribable event type";
  throw new ApiError(
    "invalid_event_type",
    `"${type}" is not ${kind}.${hint} GET /v1/me/event-types lists the valid types.`,
    { param },
  );
}

/**
 * The candidate nearest to `name` by Levenshtein distance (case-insensitive), when it is close enough to be a typo:
 * at most a third of the longer name's length, and never more than 4 edits.
 */
function closestName(name: string, candidates: string[]): string | undefined {
  const typed = name.toLowerCase();
  const nearest = closest(typed, candidates);
  const limit = Math.min(4, Math.floor(Math.max(typed.length, nearest.length) / 3));
  return distance(typed, nearest) <= limit ? nearest : undefined;
}
