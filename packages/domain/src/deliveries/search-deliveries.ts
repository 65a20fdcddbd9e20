/**
 * Delivery search across destinations (DESIGN §8): every attempt of the seller's deliveries, account endpoints and
 * charges' postback URLs alike, filtered by mode, destination, charge, event and status; cursor-paged, newest first.
 */
import { searchWebhookDeliveriesPage, type DbClient, type WebhookDelivery, type WebhookDeliverySearch } from "@lm/db";
import type { PageArgs } from "../paging";

/** Filters of `GET /v1/me/webhook-deliveries`; each is optional and they combine with AND. */
export type DeliverySearch = WebhookDeliverySearch;

/** One page of `sellerId`'s delivery rows matching `filters`, in the page's order. */
export function searchDeliveries(
  db: DbClient,
  sellerId: string,
  filters: DeliverySearch,
  page: PageArgs,
): Promise<WebhookDelivery[]> {
  return searchWebhookDeliveriesPage(db, sellerId, filters, page);
}
