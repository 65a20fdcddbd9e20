/**
 * The inbound inbox (`inbox_items`, DESIGN §5): every notification an acquirer sends is stored first, exactly as
 * received, then processed from here. Which items processing may still settle is decided in one place,
 * {@link PROCESSABLE}, for the worker's batch and one-by-one reads and the reconciler's sweep alike.
 */
import { onSql, onPrisma, type Connection } from "../connection";
import type { DbClient } from "../client";
import type { Acquirer, InboxItem, Prisma } from "../generated/client";
import type { PageArgs } from "../page";
import { rawSql, sql, sqlQuery, type Sql, type SqlClient } from "../sql";

/**
 * The code an item's `error` starts with (`processing_failed: <reason>`) while processing it threw and its job is
 * being retried; a success clears it. It is the one error that leaves an item processable.
 */
export const PROCESSING_FAILED_ERROR = "processing_failed";

/**
 * SQL true for an item `i` that processing can still settle: validly signed, not processed, and no error but a
 * retried failure of processing. A retry's job lost with Redis leaves its item with `processing_failed` recorded, and
 * the payment would otherwise never settle. It is written out as text, without parameters, and is exactly the predicate
 * of the partial index `inbox_items_processable_id_idx` (see `schema.prisma`), so the planner can prove that the index
 * holds every row it asks for whatever its statistics say: the reconciler's sweep reads only these items, never the
 * duplicates, badly signed and refuted items that stay unprocessed for good (DESIGN §10 "Sweeps").
 */
const PROCESSABLE = rawSql(`i.signature_valid AND i.processed_at IS NULL
  AND (i.error IS NULL OR starts_with(i.error, '${PROCESSING_FAILED_ERROR}:'))`);

/**
 * The anomaly of a notified payment, refund or payout the bank did not confirm when read back (DESIGN §9: a standard
 * acquirer signs nothing, so its notifications are hints). Such an item is no receipt of the payment it names: a
 * later notification or the reconciliation of the same payment is stored and processed as new.
 */
export const NOT_CONFIRMED_ERROR = "not_confirmed_by_acquirer";

/**
 * SQL true when an item of acquirer `acquirerId` already stands for identity `providerEventId`: validly received and
 * not refuted by the bank. A repeat of one is a duplicate, and the reconciliation does not store it again. The lookup
 * reads every week's partition, so it is the database function `inbox_identity_received`, planned once per connection
 * (see its migration), not a subquery planned inside each statement that uses it.
 */
function receivedBefore(acquirerId: Sql, providerEventId: Sql): Sql {
  return sql`inbox_identity_received(${acquirerId}, ${providerEventId}, ${NOT_CONFIRMED_ERROR})`;
}

/** A processable item as processing reads it, with its acquirer's slug, API Pix profile and mode. */
export interface ProcessableInboxItem {
  id: string;
  /** `pix` (a payment), `devolucao` (a refund's outcome), `pix_enviado` (a payout's outcome). */
  event_type: string;
  raw_body: Uint8Array;
  end_to_end_id: string;
  acquirer_id: string;
  acquirer_slug: string;
  /** Null for an acquirer that signs its notifications; a bank's profile when they must be read back first. */
  acquirer_profile: string | null;
  acquirer_mode: "live" | "test" | null;
}

/** The items of `ids` that processing can still settle ({@link PROCESSABLE}) and that name a payment, in no order. */
export function findProcessableInboxItems(client: SqlClient, ids: string[]): Promise<ProcessableInboxItem[]> {
  return sqlQuery<ProcessableInboxItem>(
    client,
    sql`SELECT i.id, i.event_type, i.raw_body, i.end_to_end_id, a.id AS acquirer_id, a.slug AS acquirer_slug,
               a.profile AS acquirer_profile, a.mode::text AS acquirer_mode
        FROM inbox_items i JOIN acquirers a ON a.id = i.acquirer_id
        WHERE i.id = ANY(${ids}::text[]) AND ${PROCESSABLE} AND i.end_to_end_id IS NOT NULL`,
  );
}

/**
 * The ids of up to `limit` items processing can still settle ({@link PROCESSABLE}), oldest first: ids are ULIDs, made
 * when an item is stored, and the partial index of exactly these items (`inbox_items_processable_id_idx`) serves this.
 */
export async function findProcessableInboxItemIds(client: SqlClient, limit: number): Promise<string[]> {
  const rows = await sqlQuery<{ id: string }>(
    client,
    sql`SELECT i.id FROM inbox_items i WHERE ${PROCESSABLE} ORDER BY i.id LIMIT ${limit}`,
  );
  return rows.map(({ id }) => id);
}

/** One entry of a notification to store. */
export interface InboxItemToStore {
  id: string;
  providerEventId: string;
  eventType: string | null;
  endToEndId: string | null;
  /** Why it will not be processed, known before looking at earlier items, or null. */
  error: string | null;
}

/**
 * Stores a request's entries as items in ONE statement, while acquirer `acquirer.id` still has the secret
 * `acquirer.secretCiphertext` they were judged with; an entry repeating a valid item of this acquirer with the same
 * identity gets `duplicateError`. A burst of notifications must not wait on Prisma or on a round trip more.
 * @returns the items written with their error; none when the acquirer's secret changed (nothing was written)
 */
export function storeInboxItems(
  client: SqlClient,
  request: {
    acquirer: { id: string; secretCiphertext: string };
    signatureValid: boolean;
    rawBody: Uint8Array;
    headers: Record<string, unknown>;
    receivedAt: Date;
    duplicateError: string;
    items: InboxItemToStore[];
    /** How the request arrived; `notification` when omitted. */
    source?: "notification" | "reconciliation";
  },
): Promise<Array<{ id: string; error: string | null }>> {
  const { acquirer, items } = request;
  return sqlQuery<{ id: string; error: string | null }>(
    client,
    sql`
        INSERT INTO inbox_items (id, acquirer_id, provider_event_id, event_type, signature_valid, raw_body, headers,
                                 received_at, end_to_end_id, error, source)
        SELECT v.id, ${acquirer.id}, v.provider_event_id, v.event_type, ${request.signatureValid}, ${request.rawBody},
               ${JSON.stringify(request.headers)}::jsonb, ${request.receivedAt}, v.end_to_end_id,
               COALESCE(v.error, CASE WHEN ${receivedBefore(sql`${acquirer.id}`, rawSql("v.provider_event_id"))}
                 THEN ${request.duplicateError} END), ${request.source ?? "notification"}
        FROM unnest(${items.map((item) => item.id)}::text[], ${items.map((item) => item.providerEventId)}::text[],
                    ${items.map((item) => item.eventType)}::text[], ${items.map((item) => item.endToEndId)}::text[],
                    ${items.map((item) => item.error)}::text[])
          AS v(id, provider_event_id, event_type, end_to_end_id, error)
        WHERE EXISTS (SELECT 1 FROM acquirers a WHERE a.id = ${acquirer.id} AND a.secret_ciphertext = ${acquirer.secretCiphertext})
        RETURNING id, error`,
  );
}

/** The identities among `providerEventIds` that acquirer `acquirerId` has already delivered (see {@link receivedBefore}). */
export async function findReceivedProviderEventIds(
  client: SqlClient,
  acquirerId: string,
  providerEventIds: string[],
): Promise<Set<string>> {
  const rows = await sqlQuery<{ id: string }>(
    client,
    sql`SELECT v.id FROM unnest(${providerEventIds}::text[]) AS v(id) WHERE ${receivedBefore(sql`${acquirerId}`, rawSql("v.id"))}`,
  );
  return new Set(rows.map(({ id }) => id));
}

/** What processing an item came to. */
export interface InboxItemOutcome {
  /** An anomaly (`<code>` or `<code>: <detail>`), or null when the item was applied. */
  error: string | null;
  transactionId?: string | undefined;
  withdrawalId?: string | undefined;
}

/** Writes item `id`'s outcome: processed at `now`, one more attempt. */
export async function finishInboxItem(db: DbClient, id: string, outcome: InboxItemOutcome, now: Date): Promise<void> {
  await db.inboxItem.update({
    where: { id },
    data: {
      processed_at: now,
      attempts: { increment: 1 },
      error: outcome.error,
      transaction_id: outcome.transactionId ?? null,
      withdrawal_id: outcome.withdrawalId ?? null,
    },
  });
}

/** Writes `error` (`processing_failed: <reason>`) on item `id`, counting the attempt, while it is not processed. */
export async function recordInboxItemFailure(db: DbClient, id: string, error: string): Promise<void> {
  await db.inboxItem.updateMany({ where: { id, processed_at: null }, data: { error, attempts: { increment: 1 } } });
}

/**
 * Writes `error` (a job given up) on each of items `ids` still unprocessed.
 * @returns whether an item was marked
 */
export async function markInboxItemsGivenUp(db: DbClient, ids: string[], error: string): Promise<boolean> {
  const marked = await db.inboxItem.updateMany({ where: { id: { in: ids }, processed_at: null }, data: { error } });
  return marked.count > 0;
}

/** An inbox item with its acquirer. */
export type InboxItemWithAcquirer = InboxItem & { acquirer: Acquirer };

/**
 * Derived status of an item: `pending` (not yet processed), `processed` (settled a charge or repeated one that did),
 * `failed` (an error: bad signature, malformed, duplicate receipt or a payment anomaly).
 */
export type InboxStatus = "pending" | "processed" | "failed";

/** The `where` of each derived status. */
const INBOX_STATUS_WHERE: Record<InboxStatus, Prisma.InboxItemWhereInput> = {
  pending: { processed_at: null, error: null },
  processed: { processed_at: { not: null }, error: null },
  failed: { error: { not: null } },
};

/** One page of items, optionally of one acquirer (slug) and status, with their acquirer, in the page's order. */
export function listInboxItemsPage(
  db: DbClient,
  filters: { acquirer?: string; status?: InboxStatus },
  page: PageArgs,
): Promise<InboxItemWithAcquirer[]> {
  return db.inboxItem.findMany({
    where: {
      ...(filters.acquirer === undefined ? {} : { acquirer: { slug: filters.acquirer } }),
      ...(filters.status === undefined ? {} : INBOX_STATUS_WHERE[filters.status]),
      ...(page.id === undefined ? {} : { id: page.id }),
    },
    include: { acquirer: true },
    orderBy: page.orderBy,
    take: page.take,
  });
}

/** Item `id` with its acquirer, or null. */
export function findInboxItemWithAcquirer(db: DbClient, id: string): Promise<InboxItemWithAcquirer | null> {
  return db.inboxItem.findUnique({ where: { id }, include: { acquirer: true } });
}

/** Clears item `id`'s outcome for a reprocessing at `now`, with its signature judged anew. */
export async function resetInboxItemForReprocessing(
  db: DbClient,
  id: string,
  judged: { signatureValid: boolean; error: string | null },
  now: Date,
): Promise<void> {
  await db.inboxItem.update({
    where: { id },
    data: { signature_valid: judged.signatureValid, error: judged.error, processed_at: null, reprocessed_at: now },
  });
}

/** This repository bound to connection `c` (`createRepositories`): each function without its client. */
export function inboxRepository(c: Connection) {
  return {
    ...onSql(c, {
      findProcessableInboxItems,
      findProcessableInboxItemIds,
      storeInboxItems,
      findReceivedProviderEventIds,
    }),
    ...onPrisma(c, {
      finishInboxItem,
      recordInboxItemFailure,
      markInboxItemsGivenUp,
      listInboxItemsPage,
      findInboxItemWithAcquirer,
      resetInboxItemForReprocessing,
    }),
  };
}
