/**
 * Use cases: a seller creates, changes, deletes and rotates the secret of its account-level webhook endpoints (SPEC
 * "Webhook endpoint (account-level)", its state table and "Limits"; DESIGN §4 "Secrets", §5, §16 "Delivery
 * controls"). Routes decide the step-up; these enforce the rules of the rows. Creation, secret rotation and deletion
 * change where the seller's data goes and who can sign for it, so they are audited like API keys.
 */
import type { WebhookEndpoint, WebhookEndpointChanges } from "@lm/db";
import type { WebhookEndpointView } from "@lm/wire";
import type { Mode } from "../api-keys/api-key";
import { audited, type PanelActor } from "../audit/security-audit";
import type { UseCaseDeps } from "../deps";
import { ApiError, notFound, validationFailed } from "../errors";
import { ALL_EVENT_TYPES, assertEventType } from "../events/event-types";
import { MAX_WEBHOOK_ENDPOINTS_PER_MODE } from "../events/record-event";
import { idFloor, newId } from "../ids";
import { encryptSecret } from "../secret-box";
import {
  assertCustomHeaders,
  decryptCustomHeaders,
  encryptCustomHeaders,
  mergeCustomHeaders,
  type CustomHeaders,
} from "../webhooks/custom-headers";
import { checkDestination } from "../webhooks/destination";
import { DEFAULT_SIGNATURE_SCHEME, type SignatureScheme } from "../webhooks/signature";
import { generateSigningKey } from "../webhooks/webhook-secret";
import { wakeOrderedHead } from "../deliveries/delivery-turns";
import { endpointView, findWebhookEndpoint } from "./find-webhook-endpoints";

/**
 * How recently every delivery still waiting on the retry schedule was made, ms: a retry's row is made when the attempt
 * before it fails, and the longest wait of the schedule is 12 h (SPEC "Retry schedule"); two days leaves room.
 */
const WAITING_DELIVERIES_MADE_WITHIN_MS = 2 * 24 * 60 * 60 * 1000;

/** How long the previous secret still signs after a rotation (SPEC "Limits": 24 h). */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;

/** What the endpoint use cases need. */
type EndpointDeps = Pick<UseCaseDeps, "repos" | "config" | "now" | "logger" | "producer">;

/** A validated creation request (the route's schema checks shapes and lengths). */
export interface CreateWebhookEndpointInput {
  url: string;
  /** Catalog types, or `["*"]`. */
  events: string[];
  mode: Mode;
  /** `""` and `null` mean none. */
  description?: string | null;
  /** How its deliveries are signed (DESIGN §12, §16); `stripe` when absent. Fixed for the endpoint's life. */
  signature_scheme?: SignatureScheme;
  /** DESIGN §16 "Ordering"; `none` when absent. */
  ordering?: WebhookEndpoint["ordering"];
  /** Attempts per second, 1..1000 (the route's schema checks the range); null or absent: unlimited. */
  rate_limit?: number | null;
  /** Created paused (DESIGN §16 "Pause"); false when absent. */
  paused?: boolean;
  /** Custom headers (DESIGN §16); none when absent. */
  headers?: CustomHeaders;
}

/** The fields a PATCH may change; absent ones stay as they are. */
export interface UpdateWebhookEndpointInput {
  url?: string;
  events?: string[];
  /** `null` or `""` clears it. */
  description?: string | null;
  enabled?: boolean;
  /**
   * Accepted only when it equals the endpoint's scheme (a no-op): the scheme decides the secret's form, so it is
   * fixed at creation; changing it is 400 `validation_failed` (param `signature_scheme`).
   */
  signature_scheme?: SignatureScheme;
  ordering?: WebhookEndpoint["ordering"];
  /** null: unlimited. */
  rate_limit?: number | null;
  /** true pauses, false resumes (DESIGN §16 "Pause"). */
  paused?: boolean;
  /** A JSON merge patch of the custom headers: a string sets a header, null removes it, others stay. */
  headers?: Record<string, string | null>;
}

/** An endpoint with the secret that is shown this once (creation, rotation). */
export interface EndpointWithSecret {
  endpoint: WebhookEndpointView;
  /**
   * `whsec_…`; never stored in clear, never shown again. Null for a `standard_webhooks_ed25519` endpoint, whose
   * private key is never shown (its `public_key` verifies).
   */
  secret: string | null;
}

/**
 * Creates an enabled endpoint of `sellerId`'s store with a fresh secret (or Ed25519 key pair) in the form of its
 * signature scheme (DESIGN §12, §16), stored encrypted with the endpoint id as associated data (DESIGN §3), with its
 * delivery controls and custom headers (encrypted likewise).
 * @throws ApiError `invalid_url` (param `url`) when the URL fails the destination check; `invalid_event_type` (param
 *   `events`) for a type outside the catalog, `ping`, or `*` beside other types; `validation_failed` (param
 *   `headers.<name>`) for a custom header refused; `invalid_state` when the store already has 5 not-deleted
 *   endpoints of that mode
 */
export async function createWebhookEndpoint(
  deps: EndpointDeps,
  actor: PanelActor,
  input: CreateWebhookEndpointInput,
): Promise<EndpointWithSecret> {
  const url = await approvedDestination(deps, input.url);
  const events = subscriptions(input.events);
  const headers = input.headers ?? {};
  assertCustomHeaders(headers, url);
  const now = deps.now();
  const id = newId("webhookEndpoint", now.getTime());
  const scheme = input.signature_scheme ?? DEFAULT_SIGNATURE_SCHEME;
  const key = generateSigningKey(scheme);
  const endpoint = await audited(deps, actor, async (tx) => {
    // The store's lock makes concurrent creations queue instead of both passing the count, so the limit holds.
    await tx.sellers.lockStoreForUpdate(actor.storeId);
    const count = await tx.webhookEndpoints.countLiveWebhookEndpoints(actor.storeId, input.mode);
    if (count >= MAX_WEBHOOK_ENDPOINTS_PER_MODE) {
      throw new ApiError(
        "invalid_state",
        `At most ${MAX_WEBHOOK_ENDPOINTS_PER_MODE} ${input.mode} webhook endpoints are allowed; delete one first.`,
      );
    }
    const created = await tx.webhookEndpoints.insertWebhookEndpoint({
      id,
      store_id: actor.storeId,
      mode: input.mode,
      url,
      events,
      description: input.description || null,
      signature_scheme: scheme,
      secret_ciphertext: encryptSecret(deps.config.encryptionKey, key.secret, id),
      secret_prefix: key.prefix,
      public_key: key.publicKey,
      ordering: input.ordering ?? "none",
      rate_limit: input.rate_limit ?? null,
      paused: input.paused ?? false,
      headers_ciphertext: encryptCustomHeaders(deps.config.encryptionKey, headers, id),
      created_at: now,
      updated_at: now,
    });
    const action = {
      event: "webhook_endpoint.created" as const,
      details: { webhook_endpoint_id: id, mode: input.mode },
      title: "Webhook endpoint created",
      message: `A ${input.mode} webhook endpoint was added for ${new URL(url).host}.`,
    };
    return { result: created, action };
  });
  return { endpoint: endpointView(deps.config.encryptionKey, endpoint), secret: key.shown };
}

/**
 * Changes the given fields (SPEC endpoint state table): switching off sets `disabled_reason: "manual"`; switching back
 * on clears `disabled_reason` and `auto_disabled_at` and restarts the dead-chain count, and only events from then on
 * are delivered (nothing missed meanwhile is resent). Setting `enabled` to what it already is changes nothing. A new
 * `url` also receives the pending retries of earlier events: the engine always sends to the current URL. The delivery
 * controls (DESIGN §16) change as given: made FIFO, the endpoint's waiting deliveries join its order; a resume gives
 * the endpoint's head its turn, so what the pause held goes out in order; `headers` is merged into the endpoint's
 * custom headers, and the result is checked against the endpoint's (new) URL.
 * @throws ApiError `resource_not_found`; `invalid_url`, `invalid_event_type` as {@link createWebhookEndpoint};
 *   `validation_failed` (param `signature_scheme`) when asked to change the scheme: create a new endpoint instead;
 *   `validation_failed` (param `headers.<name>`) for a custom header refused, including an `Authorization` header
 *   kept while the url becomes http
 */
export async function updateWebhookEndpoint(
  deps: EndpointDeps,
  sellerId: string,
  id: string,
  input: UpdateWebhookEndpointInput,
): Promise<WebhookEndpointView> {
  const endpoint = await findWebhookEndpoint(deps.repos, sellerId, id);
  if (input.signature_scheme !== undefined && input.signature_scheme !== endpoint.signature_scheme) {
    throw validationFailed(
      `signature_scheme cannot be changed (the secret's form depends on it): create a new endpoint with ` +
        `signature_scheme "${input.signature_scheme}", move your receiver to its secret, then delete this one.`,
      "signature_scheme",
    );
  }
  const url = input.url === undefined ? undefined : await approvedDestination(deps, input.url);
  const now = deps.now();
  const data: WebhookEndpointChanges = {
    url,
    events: input.events === undefined ? undefined : subscriptions(input.events),
    description: input.description === undefined ? undefined : input.description || null,
    ordering: input.ordering,
    rate_limit: input.rate_limit,
    paused: input.paused,
    headers_ciphertext: changedHeaders(deps, endpoint, input, url),
    updated_at: now,
  };
  if (input.enabled === true && !endpoint.enabled) {
    Object.assign(data, { enabled: true, disabled_reason: null, auto_disabled_at: null, consecutive_dead_chains: 0 });
  } else if (input.enabled === false && endpoint.enabled) {
    Object.assign(data, { enabled: false, disabled_reason: "manual" });
  }
  const count = await deps.repos.webhookEndpoints.updateLiveWebhookEndpoint(endpoint.id, data);
  if (count === 0) throw notFound("webhook endpoint");
  // Made FIFO: the deliveries already waiting take their places in its order, from its head.
  const ordered = input.ordering === "fifo" && endpoint.ordering !== "fifo";
  if (ordered) {
    const madeSince = idFloor("delivery", now.getTime() - WAITING_DELIVERIES_MADE_WITHIN_MS);
    await deps.repos.deliveries.markEndpointDeliveriesOrdered(endpoint.id, madeSince);
  }
  // Resumed: what the pause held goes out from its head, one at a time in order.
  if (ordered || (input.paused === false && endpoint.paused)) await wakeOrderedHead(deps, endpoint.id);
  return endpointView(
    deps.config.encryptionKey,
    await deps.repos.webhookEndpoints.findWebhookEndpointOrThrow(endpoint.id),
  );
}

/**
 * The `headers_ciphertext` a PATCH writes: undefined (unchanged) unless it changes the headers, or moves the url while
 * headers are set (they are checked again against it).
 * @throws ApiError `validation_failed` (param `headers.<name>`) as {@link assertCustomHeaders}
 */
function changedHeaders(
  deps: EndpointDeps,
  endpoint: WebhookEndpoint,
  input: UpdateWebhookEndpointInput,
  url: string | undefined,
): string | null | undefined {
  if (input.headers === undefined && (url === undefined || endpoint.headers_ciphertext === null)) return undefined;
  const current = decryptCustomHeaders(deps.config.encryptionKey, endpoint.headers_ciphertext, endpoint.id);
  const headers = input.headers === undefined ? current : mergeCustomHeaders(current, input.headers);
  assertCustomHeaders(headers, url ?? endpoint.url);
  return encryptCustomHeaders(deps.config.encryptionKey, headers, endpoint.id);
}

/**
 * Deletes the endpoint softly (`deleted_at`): it leaves lists and fan-out, its id answers 404, its pending deliveries
 * end `endpoint_disabled`, and it no longer counts towards the limit.
 * @throws ApiError `resource_not_found`
 */
export async function deleteWebhookEndpoint(deps: EndpointDeps, actor: PanelActor, id: string): Promise<void> {
  const endpoint = await findWebhookEndpoint(deps.repos, actor.sellerId, id);
  const now = deps.now();
  await audited(deps, actor, async (tx) => {
    const count = await tx.webhookEndpoints.updateLiveWebhookEndpoint(endpoint.id, {
      deleted_at: now,
      updated_at: now,
    });
    if (count === 0) throw notFound("webhook endpoint");
    const action = {
      event: "webhook_endpoint.deleted" as const,
      details: { webhook_endpoint_id: endpoint.id, mode: endpoint.mode },
      title: "Webhook endpoint deleted",
      message: `The ${endpoint.mode} webhook endpoint for ${new URL(endpoint.url).host} was deleted.`,
    };
    return { result: undefined, action };
  });
}

/** An endpoint after rotation, its new secret and the end of the old one's grace. */
export interface RotatedEndpoint extends EndpointWithSecret {
  previousSecretExpiresAt: Date;
}

/**
 * Replaces the secret with a fresh one in the form of the endpoint's signature scheme (SPEC "Limits": old secret
 * valid 24 h; an Ed25519 endpoint gets a new key pair and shows its new `public_key`, DESIGN §16): the current one
 * becomes the previous one, which keeps signing beside the new one until `previousSecretExpiresAt`. One statement
 * moves the secrets, so concurrent rotations apply one after the other; a rotation within the grace drops the secret
 * rotated out before.
 * @throws ApiError `resource_not_found`
 */
export async function rotateWebhookEndpointSecret(
  deps: EndpointDeps,
  actor: PanelActor,
  id: string,
): Promise<RotatedEndpoint> {
  // The scheme never changes (see updateWebhookEndpoint), so the form read here is the form of the row rotated.
  const { id: endpointId, signature_scheme: scheme } = await findWebhookEndpoint(deps.repos, actor.sellerId, id);
  const now = deps.now();
  const previousSecretExpiresAt = new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS);
  const key = generateSigningKey(scheme);
  const endpoint = await audited(deps, actor, async (tx) => {
    const moved = await tx.webhookEndpoints.replaceWebhookEndpointSecret(endpointId, {
      secretCiphertext: encryptSecret(deps.config.encryptionKey, key.secret, endpointId),
      secretPrefix: key.prefix,
      publicKey: key.publicKey,
      previousSecretExpiresAt,
      now,
    });
    if (moved === 0) throw notFound("webhook endpoint");
    const rotated = await tx.webhookEndpoints.findWebhookEndpointOrThrow(endpointId);
    const action = {
      event: "webhook_endpoint.secret_rotated" as const,
      details: { webhook_endpoint_id: endpointId, grace_ends_at: previousSecretExpiresAt.toISOString() },
      title: "Webhook signing secret rotated",
      message: `The signing secret of the ${rotated.mode} webhook endpoint for ${new URL(rotated.url).host} was rotated; the old one stops signing at ${previousSecretExpiresAt.toISOString()}.`,
    };
    return { result: rotated, action };
  });
  return { endpoint: endpointView(deps.config.encryptionKey, endpoint), secret: key.shown, previousSecretExpiresAt };
}

/**
 * The URL to store: the normalised form the destination check approved, never the input as typed.
 * @throws ApiError `invalid_url` (param `url`) with the reason when `url` fails the destination check
 */
async function approvedDestination(deps: EndpointDeps, url: string): Promise<string> {
  const check = await checkDestination(url, { allowLocal: deps.config.webhookAllowLocalDestinations });
  if (!check.ok) throw new ApiError("invalid_url", `Invalid url: ${check.reason}.`, { param: "url" });
  return check.href;
}

/**
 * The subscription list to store: catalog types, or `["*"]` alone.
 * @throws ApiError `invalid_event_type` (param `events`) naming the first type that is not subscribable
 */
function subscriptions(events: string[]): string[] {
  if (events.includes(ALL_EVENT_TYPES)) {
    if (events.length === 1) return events;
    throw new ApiError("invalid_event_type", `"${ALL_EVENT_TYPES}" subscribes to every type; give it alone.`, {
      param: "events",
    });
  }
  for (const type of events) assertEventType(type, "events", "subscribable");
  return events;
}
