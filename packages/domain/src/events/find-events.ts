/**
 * Reading events for the merchant API's polling safety net (`GET /v1/events`, DESIGN §5): within the caller's store
 * and mode only.
 */
import { findStoreEvent, listStoreEvents, type DbClient, type Event } from "@lm/db";
import type { MerchantScope } from "../deps";
import { notFound } from "../errors";
import { isId } from "../ids";
import type { PageArgs } from "../paging";

/**
 * The event `id` of `scope`.
 * @throws ApiError `resource_not_found` when it is malformed, unknown, or of another store or mode
 */
export async function findEvent(db: DbClient, scope: MerchantScope, id: string): Promise<Event> {
  const found = isId("event", id) ? await findStoreEvent(db, scope, id) : null;
  if (!found) throw notFound("event");
  return found;
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

/** One page of `scope`'s events matching `filters`, in the page's order. */
export function listEvents(
  db: DbClient,
  scope: MerchantScope,
  filters: EventFilters,
  page: PageArgs,
): Promise<Event[]> {
  return listStoreEvents(
    db,
    scope,
    { type: filters.type, createdAfter: filters.created_after, createdBefore: filters.created_before },
    page,
  );
}
