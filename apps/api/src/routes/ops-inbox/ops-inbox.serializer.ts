/**
 * Wire form of an inbound inbox item (SPEC "Webhook inbox item"); the detail form adds the stored request.
 */
import type { InboxItemWithAcquirer } from "@lm/domain";

const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString());

/** An inbox item as the list and the reprocess flow show it. */
export function serializeInboxItem(item: InboxItemWithAcquirer) {
  return {
    id: item.id,
    object: "inbox_item" as const,
    acquirer: { id: item.acquirer.id, slug: item.acquirer.slug },
    provider_event_id: item.provider_event_id,
    event_type: item.event_type,
    signature_valid: item.signature_valid,
    received_at: item.received_at.toISOString(),
    processed_at: iso(item.processed_at),
    attempts: item.attempts,
    error: item.error,
    transaction_id: item.transaction_id,
    withdrawal_id: item.withdrawal_id,
    end_to_end_id: item.end_to_end_id,
    reprocessed_at: iso(item.reprocessed_at),
  };
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The stored body bytes as a string: their UTF-8 text when they are valid UTF-8 (`raw_body_encoding: "utf8"`, the
 * usual case: JSON, NUL included), else base64 (`"base64"`), so that no byte is lost or replaced in the reply.
 */
function rawBodyText(bytes: Uint8Array): { raw_body: string; raw_body_encoding: "utf8" | "base64" } {
  try {
    return { raw_body: UTF8.decode(bytes), raw_body_encoding: "utf8" };
  } catch {
    return { raw_body: Buffer.from(bytes).toString("base64"), raw_body_encoding: "base64" };
  }
}

/** The detail form: the item plus the request exactly as stored (`raw_body`, `headers`), for operators only. */
export function serializeInboxItemDetail(item: InboxItemWithAcquirer) {
  return {
    ...serializeInboxItem(item),
    ...rawBodyText(item.raw_body),
    headers: item.headers as Record<string, string>,
  };
}
