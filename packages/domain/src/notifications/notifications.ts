/**
 * The seller's panel feed (DESIGN §4 auto-disable notice, the audit of credential changes): what the system did on the seller's
 * account that its people should know about. Written in the same database transaction as the change it reports
 * when there is one; never carries secrets.
 */
import type { Notification, Repositories } from "@lm/db";
import { newId } from "../ids";
import type { PageArgs } from "../paging";

/** What a notification says. */
export interface NotificationInput {
  sellerId: string;
  /** Machine-readable kind, `<resource>.<what happened>`, e.g. `webhook_endpoint.auto_disabled`. */
  type: string;
  /** One line for the feed, e.g. "Webhook endpoint disabled". */
  title: string;
  /** A sentence or two for people. */
  message: string;
  /** Ids of the resources concerned, e.g. `{webhook_endpoint_id: "we_…"}`; never secrets. */
  data?: Record<string, string | number | boolean | null>;
}

/** Adds an item to the seller's feed and returns it. */
export function notifySeller(repos: Repositories, input: NotificationInput): Promise<Notification> {
  return repos.notifications.insertNotification({
    id: newId("notification"),
    seller_id: input.sellerId,
    type: input.type,
    title: input.title,
    message: input.message,
    data: input.data ?? {},
  });
}

/** One page of the seller's feed, in the page's order. */
export function listNotifications(repos: Repositories, sellerId: string, page: PageArgs): Promise<Notification[]> {
  return repos.notifications.listNotificationsPage(sellerId, page);
}
