/**
 * Use case: receive an acquirer's inbound notification (`POST /v1/acquirers/{slug}/notifications`, DESIGN §5).
 * Every request is stored first, one inbox item per notified payment, with its exact body bytes (whatever they are:
 * NUL, invalid UTF-8), its headers and whether its `X-Acquirer-Signature` is valid; only items with a valid signature
 * that were not received before are enqueued for the worker, sharing jobs with the items received in the same few
 * milliseconds. Nothing is ever dropped: a bad signature, a repeat or an unreadable body is kept with its reason.
 */
import type { UseCaseDeps } from "../deps";
import { newId } from "../ids";
import { verifySignatureHeader } from "../webhooks/signature";
import { forgetAcquirer, knownAcquirer, type AcquirerWithSecret } from "./acquirer-secrets";
import { INBOX_ERRORS } from "./inbox-errors";
import { enqueueReceivedInboxItems } from "./enqueue-inbox-items";
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
 * judges its timestamp as it was when it arrived. A bank reached through the API Pix standard signs nothing (DESIGN
 * §9): its requests pass here, and what they name is read back from the bank before it settles anything.
 * @returns `ok`, or the reason recorded as the item's error (`invalid_signature: <reason>`)
 */
export function checkAcquirerSignature(
  { acquirer, secret }: AcquirerWithSecret,
  request: Pick<InboundRequest, "rawBody" | "headers">,
  receivedAt: Date,
): { ok: true } | { ok: false; error: string } {
  if (acquirer.profile !== null) return { ok: true };
  const verification = verifySignatureHeader(request.headers[ACQUIRER_SIGNATURE_HEADER], [secret], request.rawBody, {
    toleranceSeconds: ACQUIRER_SIGNATURE_TOLERANCE_SECONDS,
    now: receivedAt,
  });
  return verification.ok
    ? { ok: true }
    : { ok: false, error: `${INBOX_ERRORS.invalidSignature}: ${verification.reason}` };
}

/** Tries of a receipt whose acquirer row changed under it (each reads the row again). */
const RECEIPT_TRIES = 2;

/**
 * Stores the request as inbox items and enqueues the processable ones after commit. The acquirer and its secret are
 * the ones this process keeps ({@link knownAcquirer}); the insert checks that the row still has that secret, and a
 * receipt that finds it changed reads the row again and judges the request anew.
 * @throws ApiError `resource_not_found` for an unknown acquirer slug (nothing can be stored without an acquirer);
 *   Error when the acquirer's row changed under every try
 */
export async function receiveAcquirerNotification(deps: UseCaseDeps, request: InboundRequest): Promise<InboundReceipt> {
  return (await storeAcquirerNotification(deps, request)).receipt;
}

/**
 * {@link receiveAcquirerNotification}, also giving the ids of the items it enqueued for processing (the sandbox's
 * simulations process theirs at once).
 * @throws as {@link receiveAcquirerNotification}
 */
export async function storeAcquirerNotification(
  deps: UseCaseDeps,
  request: InboundRequest,
): Promise<{ receipt: InboundReceipt; enqueued: string[] }> {
  for (let tries = 1; ; tries++) {
    const stored = await storeNotification(deps, request, await knownAcquirer(deps.repos, deps.config, request.slug));
    if (stored !== null) return stored;
    forgetAcquirer(deps.repos, request.slug);
    if (tries === RECEIPT_TRIES) throw new Error(`acquirer ${request.slug} changed during the receipt`);
  }
}

/**
 * One try of the receipt against `known`: the request's items written in one statement, while the acquirer's row
 * still has the secret they were judged with.
 * @returns the reply and the ids of the items enqueued; null when the row has changed (nothing was written)
 */
async function storeNotification(
  deps: UseCaseDeps,
  request: InboundRequest,
  known: AcquirerWithSecret,
): Promise<{ receipt: InboundReceipt; enqueued: string[] } | null> {
  const { acquirer } = known;
  const now = deps.now();
  const signature = checkAcquirerSignature(known, request, now);
  const entries = notificationEntries(request.rawBody);
  // Why an entry is not processed before looking at earlier items, or null (a repeat is found by the insert below).
  const receiptError = (entry: NotificationEntry): string | null => {
    if (!signature.ok) return signature.error;
    return entry.endToEndId === null ? INBOX_ERRORS.malformed : null;
  };
  const rows = entries.map((entry) => ({
    id: newId("inboxItem", now.getTime()),
    providerEventId: entry.providerEventId,
    eventType: entry.endToEndId === null ? null : entry.kind,
    endToEndId: entry.endToEndId,
    error: receiptError(entry),
  }));
  // One statement, the repeat check and the acquirer's secret check included (the inbox repository). Every request
  // has at least one entry, so no row written means a changed secret.
  const stored = await deps.repos.inbox.storeInboxItems({
    acquirer: { id: acquirer.id, secretCiphertext: acquirer.secret_ciphertext },
    signatureValid: signature.ok,
    rawBody: request.rawBody,
    headers: request.headers,
    receivedAt: now,
    duplicateError: INBOX_ERRORS.duplicate,
    items: rows,
  });
  if (stored.length === 0) return null;
  const enqueued = stored.filter((row) => row.error === null).map((row) => row.id);
  await enqueueReceivedInboxItems(deps, enqueued);

  const duplicate = signature.ok && stored.every((row) => row.error === INBOX_ERRORS.duplicate);
  return { receipt: duplicate ? { received: true, duplicate: true } : { received: true }, enqueued };
}
