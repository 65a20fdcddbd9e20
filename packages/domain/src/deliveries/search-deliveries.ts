/**
 * Delivery search across destinations (DESIGN §8): every attempt of the seller's deliveries, account endpoints and
 * charges' postback URLs alike, filtered by mode, destination, charge, event and status; cursor-paged, newest first.
 */
import type { DbClient, Prisma, WebhookDelivery } from "@lm/db";
import type { Mode } from "../api-keys/api-key";
import type { PageArgs } from "../paging";

/** Filters of `GET /v1/me/webhook-deliveries`; each is optional and they combine with AND. */
export interface DeliverySearch {
  /** The event's mode. */
  mode?: Mode;
  destination?: "endpoint" | "postback";
  /** `txn_…`: the charge's postback attempts and every attempt of its events. */
  transaction_id?: string;
  /** `evt_…`. */
  event_id?: string;
  status?: WebhookDelivery["status"];
}

/** One page of `sellerId`'s delivery rows matching `filters`, in the page's order. */
export function searchDeliveries(
  db: DbClient,
  sellerId: string,
  filters: DeliverySearch,
  page: PageArgs,
): Promise<WebhookDelivery[]> {
  const where: Prisma.WebhookDeliveryWhereInput = {
    event: {
      store: { seller_id: sellerId },
      ...(filters.mode === undefined ? {} : { mode: filters.mode }),
    },
    ...(filters.destination === undefined ? {} : { destination_type: filters.destination }),
    ...(filters.event_id === undefined ? {} : { event_id: filters.event_id }),
    ...(filters.status === undefined ? {} : { status: filters.status }),
    ...(page.id === undefined ? {} : { id: page.id }),
  };
  if (filters.transaction_id !== undefined) {
    // A charge's events name it in `data.object.id`; its postback rows name it in `transaction_id`.
    where.OR = [
      { transaction_id: filters.transaction_id },
      { event: { data: { path: ["id"], equals: filters.transaction_id } } },
    ];
  }
  return db.webhookDelivery.findMany({ where, orderBy: page.orderBy, take: page.take });
}
