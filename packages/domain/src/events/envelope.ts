/**
 * The event envelope, the body of every webhook delivery and the reply of `GET /v1/events/{id}` (SPEC "Event
 * envelope"). `data.object` is the resource exactly as its read operation returned it when the event happened, stored
 * on the event row at that moment, so every attempt and every reader sees the same snapshot.
 */
import type { Event } from "@lm/db";

/** Wire form of an event. */
export interface EventEnvelope {
  /** `evt_…`, the deduplication key receivers use (also `X-Event-Id` and `Idempotency-Key`). */
  id: string;
  object: "event";
  /** e.g. `transaction.paid`; equals `X-Event-Type`. */
  type: string;
  mode: "live" | "test";
  /** ISO 8601 UTC. */
  created_at: string;
  data: { object: Record<string, unknown> };
}

/** Builds the envelope of a stored event. */
export function buildEventEnvelope(event: Pick<Event, "id" | "type" | "mode" | "data" | "created_at">): EventEnvelope {
  return {
    id: event.id,
    object: "event",
    type: event.type,
    mode: event.mode,
    created_at: event.created_at.toISOString(),
    data: { object: event.data as Record<string, unknown> },
  };
}
