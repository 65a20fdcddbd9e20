/**
 * A recurrence's events (`recurrence.created`, `.approved`, `.rejected`, `.expired`, `.canceled`, DESIGN §14), to its
 * store's subscribed endpoints, written with the change they describe; `data.object` is the recurrence as
 * `GET /v1/recurrences/{id}` returns it then. A recurrence's `postback_url` receives its charges' events, not these: a
 * postback delivery names a charge. Events are dated on real time, never a test clock's (events are kept in weekly
 * partitions of real time).
 */
import type { EventsToWrite, Recurrence, Repositories } from "@lm/db";
import { serializeRecurrence } from "@lm/wire";
import type { SubscribableEventType } from "../events/event-types";
import { planEvents, recordEvent, type EventInput, type RecordedEvent } from "../events/record-event";

/** The `recurrence.*` types of the event catalog. */
export type RecurrenceEventType = Extract<SubscribableEventType, `recurrence.${string}`>;

/** The `type` event of `recurrence` as it reads now, at `now` (real time). */
function recurrenceEvent(recurrence: Recurrence, type: RecurrenceEventType, now: Date): EventInput {
  return {
    scope: { storeId: recurrence.store_id, mode: recurrence.mode },
    type,
    object: serializeRecurrence(recurrence),
    now,
  };
}

/** The `type` event of `recurrence`, ready for the statement that writes it (`insertRecurrence`). */
export function planRecurrenceEvent(recurrence: Recurrence, type: RecurrenceEventType, now: Date): EventsToWrite {
  return planEvents([{ ...recurrenceEvent(recurrence, type, now), subjectId: recurrence.id }]);
}

/** Records `type` for `recurrence` with `tx`, at `now` (real time); commit it with the change it describes. */
export function recordRecurrenceEvent(
  tx: Repositories,
  recurrence: Recurrence,
  type: RecurrenceEventType,
  now: Date,
): Promise<RecordedEvent> {
  return recordEvent(tx, recurrenceEvent(recurrence, type, now));
}
