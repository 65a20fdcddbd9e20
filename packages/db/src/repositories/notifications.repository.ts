/**
 * The seller's panel feed: items written in the transaction of the change they report, read a page at a time.
 */
import { onPrisma, type Connection } from "../connection";
import type { DbClient } from "../client";
import type { Notification, Prisma } from "../generated/client";
import type { PageArgs } from "../page";

/** Inserts a feed item and returns the stored row. */
export function insertNotification(db: DbClient, data: Prisma.NotificationUncheckedCreateInput): Promise<Notification> {
  return db.notification.create({ data });
}

/** One page of seller `sellerId`'s feed, in the page's order. */
export function listNotificationsPage(db: DbClient, sellerId: string, page: PageArgs): Promise<Notification[]> {
  return db.notification.findMany({
    where: { seller_id: sellerId, ...(page.id === undefined ? {} : { id: page.id }) },
    orderBy: page.orderBy,
    take: page.take,
  });
}

/** This repository bound to connection `c` (`createRepositories`): each function without its client. */
export function notificationsRepository(c: Connection) {
  return {
    ...onPrisma(c, { insertNotification, listNotificationsPage }),
  };
}
