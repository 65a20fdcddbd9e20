import { Type, type Static } from "@sinclair/typebox";
import { SUBSCRIBABLE_EVENTS } from "./event-catalog";
import { listOf, wireObject, Timestamp } from "./schema";
import { Mode } from "./common";

/** SPEC "Event envelope": the body of every webhook delivery and the reply of `GET /v1/events/{id}`. */
export const EventEnvelope = wireObject(
  "EventEnvelope",
  Type.Object(
    {
      id: Type.String({
        description: "Also `X-Event-Id`; the key receivers deduplicate on.",
        pattern: "^evt_[0-9A-HJKMNP-TV-Z]{26}$",
      }),
      object: Type.Literal("event"),
      type: Type.String({
        description:
          "E.g. `transaction.paid`, `dispute.created`; equals `X-Event-Type`. `GET /v1/me/event-types` lists the subscribable ones; new types may appear at any time.",
      }),
      mode: Mode,
      created_at: Timestamp,
      data: Type.Object({
        object: Type.Object(
          {
            id: Type.String(),
            object: Type.String(),
            status: Type.String(),
          },
          {
            description:
              'The resource as its read operation returned it when the event happened: a Transaction for `transaction.*`, a TransactionBatch for `transaction_batch.completed`, a Recurrence for `recurrence.*`, a Refund for `refund.*`, a Dispute for `dispute.created`, a Withdrawal for `withdrawal.*`, the Seller (document masked) for `seller.updated`, `{id, object: "webhook_endpoint", status}` for `ping`.',
            additionalProperties: true,
          },
        ),
      }),
    },
    {
      description: 'SPEC "Event envelope": the body of every webhook delivery and the reply of `GET /v1/events/{id}`.',
    },
  ),
);
/** EventEnvelope as sent. */
export type EventEnvelope = Static<typeof EventEnvelope>;

/** A page of EventEnvelope objects. */
export const EventList = listOf("EventList", EventEnvelope);
/** EventList as sent. */
export type EventList = Static<typeof EventList>;

/** EventType */
export const EventType = wireObject(
  "EventType",
  Type.Object({
    id: Type.String({ description: "The value an endpoint's `events` takes, e.g. `transaction.paid`." }),
    object: Type.Literal("event_type"),
    description: Type.String(),
  }),
);
/** EventType as sent. */
export type EventType = Static<typeof EventType>;

/** A page of EventType objects. */
export const EventTypeList = listOf("EventTypeList", EventType);
/** EventTypeList as sent. */
export type EventTypeList = Static<typeof EventTypeList>;

/** The subscribable part of the event catalog as one (unpaged) list, as `GET /v1/me/event-types` returns it. */
export function serializeEventTypes(): EventTypeList {
  return {
    object: "list",
    data: Object.entries(SUBSCRIBABLE_EVENTS).map(([type, entry]) => ({
      id: type,
      object: "event_type",
      description: entry.description,
    })),
    has_more: false,
  };
}
