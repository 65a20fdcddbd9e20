/**
 * Delivery search across destinations (DESIGN §8): every attempt of the seller's deliveries, account endpoints and
 * charges' postback URLs alike, filtered by mode, destination, charge, event and status; cursor-paged, newest first.
 */
import type { WebhookDelivery, WebhookDeliverySearch, Repositories } from "@lm/db";
import type { PageArgs } from "../paging";

/** Filters of `GET /v1/me/webhook-deliveries`; each is optional and they combine with AND. */
export type DeliverySearch = WebhookDeliverySearch;

/** One page of `sellerId`'s delivery rows matching `filters`, in the page's order. */
export function searchDeliveries(
  repos: Repositories,
  sellerId: string,
  filters: DeliverySearch,
  page: PageArgs,
): Promise<WebhookDelivery[]> {
  return repos.deliveries.searchWebhookDeliveriesPage(sellerId, filters, page);
}
