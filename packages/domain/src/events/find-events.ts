/**
 * Reading events for the merchant API's polling safety net (`GET /v1/events`, DESIGN §5): within the caller's store
 * and mode only.
 */
import type { DbClient, Event } from "@lm/db";
import type { MerchantScope } from "../deps";
import { notFound } from "../errors";
import { isId } from "../ids";
import type { PageArgs } from "../paging";

/**
 * The event `id` of `scope`.
 * @throws ApiError `resource_not_found` when it is malformed, unknown, or of another store or mode
 */
export async function findEvent(db: DbClient, scope: MerchantScope, id: string): Promise<Event> {
  const found = isId("event", id)
    ? await db.event.findFirst({ where: { id, store_id: scope.storeId, mode: scope.mode } })
    : null;
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
  const createdAt = {
    ...(filters.created_after === undefined ? {} : { gt: filters.created_after }),
    ...(filters.created_before === undefined ? {} : { lt: filters.created_before }),
  };
  return db.event.findMany({
    where: {
      store_id: scope.storeId,
      mode: scope.mode,
      ...(filters.type === undefined ? {} : { type: filters.type }),
      ...(Object.keys(createdAt).length === 0 ? {} : { created_at: createdAt }),
      ...(page.id === undefined ? {} : { id: page.id }),
    },
    orderBy: page.orderBy,
    take: page.take,
  });
}
