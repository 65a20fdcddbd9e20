/**
 * Use case: receive an acquirer's inbound notification (`POST /v1/acquirers/{slug}/notifications`, DESIGN §5).
 * Every request is stored first, one inbox item per notified payment, with its exact body bytes (whatever they are:
 * NUL, invalid UTF-8), its headers and whether its
 * `X-Acquirer-Signature` is valid; only items with a valid signature that were not received before are enqueued for
 * the worker. Nothing is ever dropped: a bad signature, a repeat or an unreadable body is kept with its reason.
 */
import { insertWrite, runWrites, sqlQuery, type Prisma } from "@lm/db";
import type { UseCaseDeps } from "../deps";
import { newId } from "../ids";
import { verifySignatureHeader } from "../webhooks/signature";
import { loadAcquirer } from "./acquirers";
import { enqueueInboxItems, INBOX_ERRORS } from "./process-inbox-item";
import { notificationEntries, type NotificationEntry } from "./pix-notification";

/** Header carrying the acquirer's `t=<unix>,v1=<hex>` signature (DESIGN §5). */
export const ACQUIRER_SIGNATURE_HEADER = "x-acquirer-signature";

/** Largest accepted distance between the signature's `t` and the time of receipt, seconds (against replays). */
export const ACQUIRER_SIGNATURE_TOLERANCE_SECONDS = 300;

/** A request as received: exact body bytes and headers (lower-case names, string values). */
export interface InboundRequest {
  slug: string;
  rawBody: Buffer;
  headers: Record<string, string>;
}

/** Reply of the receipt (SPEC "An inbound receipt"). */
export interface InboundReceipt {
  received: true;
  /** Present, true, when every payment of the request had been received before. */
  duplicate?: true;
}

/**
 * Verifies the signature of a stored or incoming request: against `receivedAt`, so that reprocessing a stored request
 * judges its timestamp as it was when it arrived.
 * @returns `ok`, or the reason recorded as the item's error (`invalid_signature: <reason>`)
 */
export function checkAcquirerSignature(
  secret: string,
  request: Pick<InboundRequest, "rawBody" | "headers">,
  receivedAt: Date,
): { ok: true } | { ok: false; error: string } {
  const verification = verifySignatureHeader(request.headers[ACQUIRER_SIGNATURE_HEADER], [secret], request.rawBody, {
    toleranceSeconds: ACQUIRER_SIGNATURE_TOLERANCE_SECONDS,
    now: receivedAt,
  });
  return verification.ok
    ? { ok: true }
    : { ok: false, error: `${INBOX_ERRORS.invalidSignature}: ${verification.reason}` };
}

/**
 * Stores the request as inbox items and enqueues the processable ones after commit.
 * @throws ApiError `resource_not_found` for an unknown acquirer slug (nothing can be stored without an acquirer)
 */
export async function receiveAcquirerNotification(deps: UseCaseDeps, request: InboundRequest): Promise<InboundReceipt> {
  const { acquirer, secret } = await loadAcquirer(deps.db, deps.config, request.slug);
  const now = deps.now();
  const signature = checkAcquirerSignature(secret, request, now);
  const entries = notificationEntries(request.rawBody);
  // Plain SQL on the pool, here and for the insert: a burst of notifications must not wait on Prisma (issue 13).
  const seen = signature.ok
    ? await sqlQuery<{ provider_event_id: string }>(
        deps.db.pool,
        `SELECT provider_event_id FROM inbox_items
         WHERE acquirer_id = $1 AND signature_valid AND provider_event_id = ANY($2::text[])`,
        [acquirer.id, entries.flatMap((e) => (e.endToEndId === null ? [] : [e.providerEventId]))],
      )
    : [];
  const seenIds = new Set(seen.map((item) => item.provider_event_id));
  // Why an entry is not processed, or null when it goes to the worker.
  const receiptError = (entry: NotificationEntry): string | null => {
    if (!signature.ok) return signature.error;
    if (entry.endToEndId === null) return INBOX_ERRORS.malformed;
    return seenIds.has(entry.providerEventId) ? INBOX_ERRORS.duplicate : null;
  };

  const rows: Prisma.InboxItemCreateManyInput[] = entries.map((entry) => ({
    id: newId("inboxItem", now.getTime()),
    acquirer_id: acquirer.id,
    provider_event_id: entry.providerEventId,
    event_type: entry.endToEndId === null ? null : entry.kind,
    signature_valid: signature.ok,
    raw_body: new Uint8Array(request.rawBody),
    headers: request.headers,
    received_at: now,
    end_to_end_id: entry.endToEndId,
    error: receiptError(entry),
  }));
  await runWrites(deps.db.pool, [
    insertWrite("inbox_items", rows as unknown as Record<string, unknown>[], { headers: "jsonb" }),
  ]);
  await enqueueInboxItems(
    deps,
    rows.filter((row) => row.error === null).map((row) => ({ inboxItemId: row.id })),
  );

  const duplicate =
    signature.ok && entries.every((entry) => entry.endToEndId !== null && seenIds.has(entry.providerEventId));
  return duplicate ? { received: true, duplicate: true } : { received: true };
}
