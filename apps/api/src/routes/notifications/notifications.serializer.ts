/**
 * Wire form of a panel notification.
 */
import type { Notification } from "@lm/db";

/** `{id, object: "notification", type, title, message, data, created_at}`. */
export function serializeNotification(notification: Notification) {
  return {
    id: notification.id,
    object: "notification" as const,
    type: notification.type,
    title: notification.title,
    message: notification.message,
    data: notification.data,
    created_at: notification.created_at.toISOString(),
  };
}
