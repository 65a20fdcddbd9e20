/**
 * What follows an automatic disabling of an endpoint (SPEC endpoint state table, DESIGN §4 "Auto-disable"): an item
 * in the seller's panel feed, written in the transaction that disables, and after commit an email to every owner of
 * the seller.
 */
import type { Db, DbClient, Notification, WebhookEndpoint } from "@lm/db";
import type { Logger } from "@lm/logging";
import { endpointAutoDisabledMail, type Mailer } from "@lm/mail";
import { sendMailSafely } from "../accounts/account-deps";
import { notifySeller } from "../notifications/notifications";
import { AUTO_DISABLE_DEAD_CHAINS } from "../webhooks/auto-disable";

/** `type` of the feed item. */
export const ENDPOINT_AUTO_DISABLED_NOTIFICATION = "webhook_endpoint.auto_disabled";

/** Adds the feed item of `endpoint`'s automatic disabling for `sellerId`; call it with the disabling transaction. */
export function notifyEndpointAutoDisabled(
  tx: DbClient,
  sellerId: string,
  endpoint: Pick<WebhookEndpoint, "id" | "url" | "mode">,
): Promise<Notification> {
  return notifySeller(tx, {
    sellerId,
    type: ENDPOINT_AUTO_DISABLED_NOTIFICATION,
    title: "Webhook endpoint disabled",
    message:
      `Your ${endpoint.mode} webhook endpoint ${endpoint.url} was disabled automatically: ${AUTO_DISABLE_DEAD_CHAINS} ` +
      "deliveries in a row failed " +
      "through every retry and none succeeded in the last 7 days. Events are not delivered to it until you switch it " +
      "back on, and events missed meanwhile are not sent then.",
    data: { webhook_endpoint_id: endpoint.id, mode: endpoint.mode },
  });
}

/**
 * Mails every owner of the endpoint's seller, after the disabling committed. A mail that cannot be sent is logged, not
 * thrown: the disabling is committed and must not be undone or repeated for it.
 */
export async function mailEndpointAutoDisabled(
  deps: { db: Db; mailer: Mailer; logger: Logger },
  endpointId: string,
): Promise<void> {
  const endpoint = await deps.db.webhookEndpoint.findUniqueOrThrow({
    where: { id: endpointId },
    include: { store: { select: { seller: { select: { users: { where: { role: "owner" } } } } } } },
  });
  const disabledAt = endpoint.auto_disabled_at ?? endpoint.updated_at;
  for (const owner of endpoint.store.seller.users) {
    const mail = endpointAutoDisabledMail(owner.email, owner.name, { ...endpoint, disabledAt });
    await sendMailSafely(deps, mail, "webhook endpoint auto-disabled");
  }
}
