import { Type, type Static } from "@sinclair/typebox";
import type { Notification as NotificationRow } from "@lm/db";
import { listOf, Nullable, StringMap, wireObject, Timestamp } from "./schema";

/** An item of the seller's panel feed. */
export const Notification = wireObject(
  "Notification",
  Type.Object(
    {
      id: Type.String({ pattern: "^ntf_[0-9A-HJKMNP-TV-Z]{26}$" }),
      object: Type.Literal("notification"),
      type: Type.String({ description: "`<resource>.<what happened>`, e.g. `webhook_endpoint.auto_disabled`." }),
      title: Type.String(),
      message: Type.String(),
      data: StringMap(Nullable(Type.Union([Type.String(), Type.Number(), Type.Boolean()])), {
        description: "Ids of the resources concerned; never secrets.",
      }),
      created_at: Timestamp,
    },
    { description: "An item of the seller's panel feed." },
  ),
);
/** Notification as sent. */
export type Notification = Static<typeof Notification>;

/** A page of Notification objects. */
export const NotificationList = listOf("NotificationList", Notification);
/** NotificationList as sent. */
export type NotificationList = Static<typeof NotificationList>;

/** Serializes a panel notification; its `data` holds ids only, never secrets. */
export function serializeNotification(notification: NotificationRow): Notification {
  return {
    id: notification.id,
    object: "notification",
    type: notification.type,
    title: notification.title,
    message: notification.message,
    data: notification.data as Notification["data"],
    created_at: notification.created_at.toISOString(),
  };
}
