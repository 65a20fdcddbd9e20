/**
 * Wire form of the event-type catalog: a list of `{id: "<type>", object: "event_type", description}`, where `id` is
 * the value an endpoint's `events` takes.
 */
import { SUBSCRIBABLE_EVENT_TYPES } from "@lm/domain";

/** The whole catalog as one (unpaged) list. */
export function serializeEventTypes() {
  return {
    object: "list" as const,
    data: Object.entries(SUBSCRIBABLE_EVENT_TYPES).map(([type, description]) => ({
      id: type,
      object: "event_type" as const,
      description,
    })),
    has_more: false,
  };
}
