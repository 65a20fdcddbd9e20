/**
 * Reading events for the merchant API's polling safety net (`GET /v1/events`, DESIGN §5): within the caller's store
 * and mode only. A charge's events come back whole: the fields their rows leave out are put back from the charge
 * (DESIGN §10 "No copies").
 */
import type { Event } from "@lm/db";
import { storedChargeId, withChargeFields } from "@lm/wire";
import type { MerchantScope, UseCaseDeps } from "../deps";
import { notFound } from "../errors";
import { assertEventType } from "./event-types";
import { isId } from "../ids";
import type { PageArgs } from "../paging";
import { historyKeptSince } from "../retention/retention-window";

/** What reading events needs: the database, `RETENTION_DAYS` and the clock. */
export type EventReadDeps = Pick<UseCaseDeps, "repos" | "config" | "now">;

/**
 * The event `id` of `scope`.
 * @throws ApiError `resource_not_found` when it is malformed, unknown, of another store or mode, or older than
 *   `RETENTION_DAYS` (DESIGN §10 "Retention": gone, even while its week is not dropped yet)
 */
export async function findEvent(deps: EventReadDeps, scope: MerchantScope, id: string): Promise<Event> {
  const keptSince = historyKeptSince(deps.config.retentionDays, deps.now());
  const found = isId("event", id) ? await deps.repos.events.findStoreEvent(scope, id, keptSince) : null;
  if (!found) throw notFound("event");
  const [complete] = await withTheirCharges(deps, [found]);
  return complete ?? found;
}

/** Filters of `GET /v1/events`; they combine with AND. */
export interface EventFilters {
  /** Exact type, e.g. `transaction.paid`. */
  type?: string;
  /** Only events created strictly after this instant (DESIGN §8 "Polling by time"). */
  created_after?: Date;
  /** Only events created strictly before this instant. */
  created_before?: Date;
}

/**
 * One page of `scope`'s events matching `filters`, in the page's order; events older than retention are gone.
 * @throws ApiError `invalid_event_type` (param `type`) when `filters.type` is no event type (DESIGN §12 "Safer
 *   defaults": a typo is told, not answered with an empty list)
 */
export async function listEvents(
  deps: EventReadDeps,
  scope: MerchantScope,
  filters: EventFilters,
  page: PageArgs,
): Promise<Event[]> {
  if (filters.type !== undefined) assertEventType(filters.type, "type", "recorded");
  const keptSince = historyKeptSince(deps.config.retentionDays, deps.now());
  const events = await deps.repos.events.listStoreEvents(
    scope,
    { type: filters.type, createdAfter: filters.created_after, createdBefore: filters.created_before, keptSince },
    page,
  );
  return withTheirCharges(deps, events);
}

/** `events` with each charge's fixed fields put back in its object, the charges read in one statement for them all. */
async function withTheirCharges(deps: Pick<EventReadDeps, "repos">, events: Event[]): Promise<Event[]> {
  const chargeIds = events.map((event) => storedChargeId(event.data)).filter((id): id is string => id !== null);
  const charges = new Map((await deps.repos.charges.findChargesByIds(chargeIds)).map((charge) => [charge.id, charge]));
  return events.map((event) => {
    const chargeId = storedChargeId(event.data);
    if (chargeId === null) return event;
    return { ...event, data: withChargeFields(event.data as object, charges.get(chargeId)) } as Event;
  });
}
