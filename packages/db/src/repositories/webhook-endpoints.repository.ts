/**
 * A seller's account-level webhook endpoints (`webhook_endpoints`, SPEC "Webhook endpoint (account-level)"; DESIGN §4,
 * §5): their rows and secrets, their health as delivery chains end (auto-disable, early warning), their delivery
 * stats and the events a recovery re-sends to them. A deleted endpoint keeps its row (`deleted_at`); the seller's
 * reads here never return it.
 */
import { onSql, onPrisma, type Connection } from "../connection";
import type { DbClient } from "../client";
import type { PageArgs } from "../page";
import type { Prisma, User, WebhookEndpoint } from "../generated/client";
import { emptySql, plannedOnEachCall, sql, sqlQuery, type SqlClient } from "../sql";
import { deliveredEventIds } from "./webhook-recoveries.repository";

/**
 * The endpoint `id` of a store of `sellerId`, unless it is deleted.
 * @returns null when there is no such endpoint, it is deleted or another seller's
 */
export function findSellerWebhookEndpoint(
  client: DbClient,
  sellerId: string,
  id: string,
): Promise<WebhookEndpoint | null> {
  return client.webhookEndpoint.findFirst({ where: { id, deleted_at: null, store: { seller_id: sellerId } } });
}

/**
 * The endpoint `id`, deleted or not, as it reads now (after a change the caller made).
 * @throws Prisma's `P2025` error when there is no such row
 */
export function findWebhookEndpointOrThrow(client: DbClient, id: string): Promise<WebhookEndpoint> {
  return client.webhookEndpoint.findUniqueOrThrow({ where: { id } });
}

/** An endpoint with the owners of its store's seller, whom its health mails go to. */
export type WebhookEndpointWithOwners = WebhookEndpoint & { store: { seller: { users: User[] } } };

/**
 * The endpoint `id` with the users of role `owner` of its store's seller.
 * @throws Prisma's `P2025` error when there is no such row
 */
export function findWebhookEndpointWithOwners(client: DbClient, id: string): Promise<WebhookEndpointWithOwners> {
  return client.webhookEndpoint.findUniqueOrThrow({
    where: { id },
    include: { store: { select: { seller: { select: { users: { where: { role: "owner" } } } } } } },
  });
}

/** One page of `sellerId`'s not-deleted endpoints, optionally of one `mode`, in the page's order. */
export function listWebhookEndpointsPage(
  client: DbClient,
  sellerId: string,
  filters: { mode?: WebhookEndpoint["mode"] },
  page: PageArgs,
): Promise<WebhookEndpoint[]> {
  return client.webhookEndpoint.findMany({
    where: {
      deleted_at: null,
      store: { seller_id: sellerId },
      ...(filters.mode === undefined ? {} : { mode: filters.mode }),
      ...(page.id === undefined ? {} : { id: page.id }),
    },
    orderBy: page.orderBy,
    take: page.take,
  });
}

/**
 * How many not-deleted endpoints store `storeId` has in `mode` (the limit of SPEC "Limits"). For the limit to hold,
 * count inside the transaction that holds the store's lock and then creates the endpoint.
 */
export function countLiveWebhookEndpoints(
  client: DbClient,
  storeId: string,
  mode: WebhookEndpoint["mode"],
): Promise<number> {
  return client.webhookEndpoint.count({ where: { store_id: storeId, mode, deleted_at: null } });
}

/**
 * Writes a new endpoint row (its secret already encrypted).
 * @returns the row as written
 * @throws Prisma's error on a duplicate id or an unknown store
 */
export function insertWebhookEndpoint(
  client: DbClient,
  data: Prisma.WebhookEndpointUncheckedCreateInput,
): Promise<WebhookEndpoint> {
  return client.webhookEndpoint.create({ data });
}

/** The fields of a webhook endpoint an update may change. */
export type WebhookEndpointChanges = Prisma.WebhookEndpointUpdateManyMutationInput;

/**
 * Changes endpoint `id` while it is not deleted: a seller's change of its fields, or its deletion
 * (`deleted_at`).
 * @returns how many rows changed: 0 when the endpoint is deleted (or gone) meanwhile, else 1
 */
export async function updateLiveWebhookEndpoint(
  client: DbClient,
  id: string,
  data: WebhookEndpointChanges,
): Promise<number> {
  const { count } = await client.webhookEndpoint.updateMany({ where: { id, deleted_at: null }, data });
  return count;
}

/** A new signing secret of an endpoint, and when the one it replaces stops signing. */
export interface WebhookEndpointSecretChange {
  /** The new secret, encrypted with the endpoint id as associated data. */
  secretCiphertext: string;
  /** The new secret's displayable prefix. */
  secretPrefix: string;
  /** The new Ed25519 public key (`whpk_…`); null for the shared-secret schemes. */
  publicKey: string | null;
  /** End of the grace in which the replaced secret still signs. */
  previousSecretExpiresAt: Date;
  now: Date;
}

/**
 * Replaces the signing secret of endpoint `id` while it is not deleted: the current one becomes the previous one,
 * which keeps signing until `previousSecretExpiresAt`. One statement moves the secrets, so concurrent rotations apply
 * one after the other; a rotation within the grace drops the secret rotated out before.
 * @returns how many rows changed: 0 when the endpoint is deleted (or gone), else 1
 */
export function replaceWebhookEndpointSecret(
  client: DbClient,
  id: string,
  change: WebhookEndpointSecretChange,
): Promise<number> {
  return client.$executeRaw(sql`
      UPDATE webhook_endpoints
      SET previous_secret_ciphertext = secret_ciphertext, previous_secret_expires_at = ${change.previousSecretExpiresAt},
          secret_ciphertext = ${change.secretCiphertext},
          secret_prefix = ${change.secretPrefix}, public_key = ${change.publicKey}, updated_at = ${change.now}
      WHERE id = ${id} AND deleted_at IS NULL`);
}

/** What the auto-disable rule and the owners' notice read of an endpoint whose chain ended `dead`. */
export type DeadChainEndpoint = Pick<
  WebhookEndpoint,
  "id" | "url" | "mode" | "enabled" | "consecutive_dead_chains" | "last_succeeded_at"
> & { store: { seller_id: string } };

/**
 * Adds a chain that ended `dead` to endpoint `id`'s run, as an atomic increment, so concurrent chains each see their
 * own count.
 * @returns the endpoint after the increment, with its store's seller
 * @throws Prisma's `P2025` error when there is no such row
 */
export function incrementWebhookEndpointDeadChains(client: DbClient, id: string): Promise<DeadChainEndpoint> {
  return client.webhookEndpoint.update({
    where: { id },
    data: { consecutive_dead_chains: { increment: 1 } },
    select: {
      id: true,
      url: true,
      mode: true,
      enabled: true,
      consecutive_dead_chains: true,
      last_succeeded_at: true,
      store: { select: { seller_id: true } },
    },
  });
}

/**
 * Disables endpoint `id` by the auto-disable rule (`disabled_reason` `auto`, `auto_disabled_at` `now`) while it is
 * still enabled, so that of concurrent chains only one disables it (and notifies).
 * @returns whether this call disabled it
 */
export async function autoDisableWebhookEndpoint(client: DbClient, id: string, now: Date): Promise<boolean> {
  const { count } = await client.webhookEndpoint.updateMany({
    where: { id, enabled: true },
    data: { enabled: false, disabled_reason: "auto", auto_disabled_at: now },
  });
  return count === 1;
}

/** What the owners' notice of a delivery that ended without a retry reads of its endpoint. */
export type StopNoticeEndpoint = Pick<WebhookEndpoint, "id" | "url" | "mode"> & { seller_id: string };

/**
 * Claims the day's notice of endpoint `id` (DESIGN §16 "no silent endings"): sets `stop_noticed_at` to `now` unless
 * it is at or after `noticedSince`, in one conditional statement, so that of concurrent endings exactly one claims it.
 * @returns the endpoint with its store's seller when this call claimed the notice, else null
 */
export async function claimWebhookEndpointStopNotice(
  client: SqlClient,
  id: string,
  now: Date,
  noticedSince: Date,
): Promise<StopNoticeEndpoint | null> {
  const [row] = await sqlQuery<StopNoticeEndpoint>(
    client,
    sql`
    UPDATE webhook_endpoints w SET stop_noticed_at = ${now}
    FROM stores s
    WHERE w.id = ${id} AND s.id = w.store_id AND (w.stop_noticed_at IS NULL OR w.stop_noticed_at < ${noticedSince})
    RETURNING w.id, w.url, w.mode, s.seller_id`,
  );
  return row ?? null;
}

/** An endpoint's attempts that finished in a window, as {@link readWebhookEndpointStats} counts them. */
export interface WebhookEndpointStatsRow {
  /** Attempts that finished. */
  finished: number;
  /** Of them, the succeeded ones. */
  succeeded: number;
  /** When the latest attempt of a `ping` event finished; null without one. */
  last_ping_at: Date | null;
  /** That attempt's status; null without one. */
  last_ping_status: string | null;
}

/**
 * Counts endpoint `endpointId`'s attempts whose `attempted_at` (set when an attempt finishes) is at or after `since`,
 * in one aggregate statement: an index-only scan of the partial index of finished attempts (see `schema.prisma`), no
 * row is loaded.
 * @param pingEventType - the event type of pings, whose latest attempt is reported apart
 */
export async function readWebhookEndpointStats(
  client: SqlClient,
  endpointId: string,
  since: Date,
  pingEventType: string,
): Promise<WebhookEndpointStatsRow> {
  const [row] = await sqlQuery<WebhookEndpointStatsRow>(
    client,
    sql`
    SELECT count(*)::int AS finished,
           count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded,
           max(attempted_at) FILTER (WHERE event_type = ${pingEventType}) AS last_ping_at,
           (array_agg(status::text ORDER BY attempted_at DESC) FILTER (WHERE event_type = ${pingEventType}))[1]
             AS last_ping_status
    FROM webhook_deliveries
    WHERE endpoint_id = ${endpointId} AND attempted_at >= ${since}`,
  );
  return row ?? { finished: 0, succeeded: 0, last_ping_at: null, last_ping_status: null };
}

/** An endpoint's finished attempts of one São Paulo day, as {@link readWebhookEndpointDailyStats} counts them. */
export interface WebhookEndpointDayRow {
  /** The day in America/Sao_Paulo, `YYYY-MM-DD`. */
  day: string;
  /** Attempts that finished that day. */
  finished: number;
  /** Of them, the succeeded ones. */
  succeeded: number;
}

/**
 * Counts endpoint `endpointId`'s attempts whose `attempted_at` is at or after `since`, per day of São Paulo (the
 * dashboard's chart, DESIGN §15), in one aggregate statement over the same index-only scan as
 * {@link readWebhookEndpointStats}. Days without an attempt have no row.
 */
export function readWebhookEndpointDailyStats(
  client: SqlClient,
  endpointId: string,
  since: Date,
): Promise<WebhookEndpointDayRow[]> {
  return sqlQuery<WebhookEndpointDayRow>(
    client,
    sql`
    SELECT to_char(attempted_at AT TIME ZONE 'America/Sao_Paulo', 'YYYY-MM-DD') AS day,
           count(*)::int AS finished,
           count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded
    FROM webhook_deliveries
    WHERE endpoint_id = ${endpointId} AND attempted_at >= ${since}
    GROUP BY 1
    ORDER BY 1`,
  );
}

/** Which events a recovery of an endpoint looks for (DESIGN §8 "Recover"). */
export interface MissedEventsQuery {
  endpoint: Pick<WebhookEndpoint, "id" | "store_id" | "mode">;
  /** The window, both ends included. */
  since: Date;
  until: Date;
  /** The types the endpoint subscribes to; null when it subscribes to every type. */
  types: string[] | null;
  /** A type never recovered (pings). */
  excludedType: string;
  /** A delivery id below every delivery of the window's events (see `RecoveryPageQuery.deliveriesFrom`). */
  deliveriesFrom: string;
  /** Most events counted. */
  limit: number;
}

/**
 * How many events of the endpoint's store and mode created in the window, of the subscribed types, the endpoint missed
 * (their latest chain to it did not succeed, or they never had one: `deliveredEventIds`), counting up to `limit`. One
 * statement, in no transaction: the window's events anti-joined with the endpoint's deliveries from
 * `query.deliveriesFrom` on (a hash join, not a look-up per event); the worker writes the chains later, in pages.
 * {@link plannedOnEachCall}, as the recovery's pages are (see `listRecoveryPage`).
 */
export async function countWebhookEndpointMissedEvents(client: SqlClient, query: MissedEventsQuery): Promise<number> {
  const { endpoint, since, until, types, excludedType, limit } = query;
  const [row] = await sqlQuery<{ missed: number }>(
    client,
    plannedOnEachCall(sql`
      SELECT count(*)::int AS missed FROM (
        SELECT 1
        FROM events e
        LEFT JOIN (${deliveredEventIds(endpoint.id, query.deliveriesFrom, sql`true`)}) ok ON ok.event_id = e.id
        WHERE e.store_id = ${endpoint.store_id} AND e.mode = ${endpoint.mode}::mode
          AND e.created_at >= ${since} AND e.created_at <= ${until}
          AND e.type <> ${excludedType}
          ${types === null ? emptySql : sql`AND e.type = ANY(${types}::text[])`}
          AND ok.event_id IS NULL
        LIMIT ${limit}) m`),
  );
  return row?.missed ?? 0;
}

/** This repository bound to connection `c` (`createRepositories`): each function without its client. */
export function webhookEndpointsRepository(c: Connection) {
  return {
    ...onSql(c, {
      readWebhookEndpointStats,
      readWebhookEndpointDailyStats,
      countWebhookEndpointMissedEvents,
      claimWebhookEndpointStopNotice,
    }),
    ...onPrisma(c, {
      findSellerWebhookEndpoint,
      findWebhookEndpointOrThrow,
      findWebhookEndpointWithOwners,
      listWebhookEndpointsPage,
      countLiveWebhookEndpoints,
      insertWebhookEndpoint,
      updateLiveWebhookEndpoint,
      replaceWebhookEndpointSecret,
      incrementWebhookEndpointDeadChains,
      autoDisableWebhookEndpoint,
    }),
  };
}
