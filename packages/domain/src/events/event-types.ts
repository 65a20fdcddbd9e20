/**
 * The domain's face of the event catalog (`@lm/wire`'s `SUBSCRIBABLE_EVENTS`, SPEC "Events", DESIGN §4): it validates
 * endpoint subscriptions and every filter that names a type (one check, {@link assertEventType}) and types the code
 * that records events.
 */
import { closest, distance } from "fastest-levenshtein";
import { PING_EVENT_TYPE, SUBSCRIBABLE_EVENTS, type SubscribableEventType } from "@lm/wire";
import { ApiError } from "../errors";

export { PING_EVENT_TYPE, type SubscribableEventType };

/** Every subscribable type with the one-line description `GET /v1/me/event-types` shows. */
export const SUBSCRIBABLE_EVENT_TYPES = Object.fromEntries(
  Object.entries(SUBSCRIBABLE_EVENTS).map(([type, entry]) => [type, entry.description]),
) as Record<SubscribableEventType, string>;

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
