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
  const found = isId("event", id) ? await db.event.findFirst({ where: { id, store_id: scope.storeId, mode: scope.mode } }) : null;
  if (!found) throw notFound("event");
  return found;
}

/** One page of `scope`'s events, optionally of one `type`, in the page's order. */
export function listEvents(db: DbClient, scope: MerchantScope, filters: { type?: string }, page: PageArgs): Promise<Event[]> {
  return db.event.findMany({
    where: {
      store_id: scope.storeId,
      mode: scope.mode,
      ...(filters.type === undefined ? {} : { type: filters.type }),
      ...(page.id === undefined ? {} : { id: page.id }),
    },
    orderBy: page.orderBy,
    take: page.take,
  });
}
