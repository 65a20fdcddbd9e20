/**
 * `lm listen` (DESIGN §12): forwards the store's test-mode events to a local URL as they happen, each signed with the
 * session's secret exactly as the worker signs a delivery, so the integrator's verification code is the production
 * code.
 *
 * Transport: polling of the public events API (`GET /v1/events?created_after=`) four times a second, rather than a
 * server-sent events stream. The events API already is the durable, paged, per-key record of what happened, so resuming
 * after a disconnect is a query from the last event seen rather than a replay protocol the service would have to keep;
 * it needs no new long-lived connections on the API processes (each would hold one per listener, through load
 * balancers and poolers that cut idle streams); and it costs 4 of the key's 100 requests a second. A quarter-second
 * poll keeps the delay within the 1 s the design asks for.
 *
 * A listener starts {@link OVERLAP_MS} back, so that an event fired while it was starting (a trigger pasted right after
 * it) is not missed; a receiver deduplicates by event id anyway, as it must for retries.
 *
 * Nothing is lost: an event committed late (its transaction ran long, so its `created_at` is older than events already
 * seen) is still inside the {@link OVERLAP_MS} window every poll re-reads, and events are remembered by id so none is
 * forwarded twice. After a disconnect (the service restarting, a network cut), the cursor has not moved, so the next
 * poll that succeeds reads everything created meanwhile.
 */
import { createHmac } from "node:crypto";
import got from "got";
import { signedDeliveryHeaders } from "@lm/domain/src/deliveries/delivery-request";
import { newId } from "@lm/domain/src/ids";
import type { SecretScheme } from "@lm/domain/src/webhooks/signature";
import { webhookSecretOf } from "@lm/domain/src/webhooks/webhook-secret";
import { ApiRequestError, type MerchantApi, replyOf, type Schemas } from "./merchant-api";

/** An event as the events API lists it (SPEC "Event envelope"). */
type EventEnvelope = Schemas["EventEnvelope"];

/** Time between two polls of the events API, ms. */
export const POLL_INTERVAL_MS = 250;
/** How far back of the newest event seen each poll reads again, ms: longer than any transaction that records events. */
export const OVERLAP_MS = 10_000;
/** Time between two polls while the service cannot be reached, ms. */
const RECONNECT_INTERVAL_MS = 1_000;
/** A forward's whole time, ms (the worker's delivery timeout, DESIGN §4 "Attempt"). */
const FORWARD_TIMEOUT_MS = 10_000;

/**
 * The session's signing secret, derived from the API key: the same on every run with that key (as the Stripe CLI's
 * is), so `lm listen --print-secret` can hand it to a receiver before the listener starts. Knowing it reveals nothing
 * of the key (HMAC-SHA256 is one-way), and whoever holds the key can read these events anyway.
 * @returns `whsec_` + 43 characters in the form of `scheme`
 */
export function listenSecret(apiKey: string, scheme: SecretScheme): string {
  const bytes = createHmac("sha256", apiKey).update("lm listen session secret").digest();
  return webhookSecretOf(bytes, scheme);
}

/** What {@link startListening} needs. */
export interface ListenOptions {
  api: MerchantApi;
  /** Where each event is POSTed, e.g. `http://localhost:4000/webhooks`. */
  forwardTo: string;
  /** Event types to forward; null for all. */
  events: string[] | null;
  scheme: SecretScheme;
  /** From {@link listenSecret}. */
  secret: string;
  /** Receives each line of the session's log (no trailing newline). */
  print: (line: string) => void;
}

/** A running listener. */
export interface Listener {
  /** Stops polling after the event being forwarded, if any; resolves when stopped. */
  stop(): Promise<void>;
  /** Resolves when the listener stops by itself: the API refused the key (rejects with the {@link ApiRequestError}). */
  done: Promise<void>;
}

/**
 * Starts forwarding the events created from {@link OVERLAP_MS} ago on (by the service's clock). The caller refuses live
 * keys first.
 * @throws ApiRequestError when the API refuses the key at start (401); ApiUnreachableError when it does not answer
 */
export async function startListening(options: ListenOptions): Promise<Listener> {
  const { api, print } = options;
  const { serverTime } = await replyOf(api.GET("/v1/seller"));
  const startedAt = serverTime.getTime() - OVERLAP_MS;
  let newest = startedAt;
  const seen = new Map<string, number>();
  let stopping = false;
  let disconnected = false;
  let wake: (() => void) | undefined;

  const poll = async () => {
    const from = Math.max(startedAt, newest - OVERLAP_MS);
    const found: EventEnvelope[] = [];
    for (let after: string | undefined; ;) {
      const query = { created_after: new Date(from).toISOString(), limit: 100, starting_after: after };
      const { body: page } = await replyOf(api.GET("/v1/events", { params: { query } }));
      found.push(...page.data);
      if (!page.has_more || page.data.length === 0) break;
      after = page.data[page.data.length - 1]!.id;
    }
    for (const event of found.sort((a, b) => (a.id < b.id ? -1 : 1))) {
      if (seen.has(event.id)) continue;
      const createdAt = Date.parse(event.created_at);
      seen.set(event.id, createdAt);
      newest = Math.max(newest, createdAt);
      if (options.events === null || options.events.includes(event.type)) await forward(options, event);
    }
    for (const [id, createdAt] of seen) if (createdAt < from) seen.delete(id);
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const done = (async () => {
    while (!stopping) {
      try {
        await poll();
        if (disconnected) print("Reconnected: caught up with the events created meanwhile.");
        disconnected = false;
      } catch (err) {
        if (err instanceof ApiRequestError && (err.status === 401 || err.status === 403)) throw err;
        if (!disconnected) print(`Lost the connection to the API (${describe(err)}); retrying every second.`);
        disconnected = true;
      }
      if (!stopping) await sleep(disconnected ? RECONNECT_INTERVAL_MS : POLL_INTERVAL_MS);
    }
  })();

  return {
    done,
    async stop() {
      stopping = true;
      wake?.();
      await done.catch(() => undefined);
    },
  };
}

/** POSTs `event` to the forward URL, signed as the worker signs attempt 1 of a delivery, and logs both ways. */
async function forward(options: ListenOptions, event: EventEnvelope): Promise<void> {
  const body = JSON.stringify(event);
  const headers = signedDeliveryHeaders({
    scheme: options.scheme,
    secrets: [options.secret],
    eventId: event.id,
    eventType: event.type,
    deliveryId: newId("delivery"),
    attempt: 1,
    body,
    timestampSeconds: Math.floor(Date.now() / 1000),
  });
  options.print(`${event.created_at}  --> ${event.type} [${event.id}]`);
  try {
    const response = await got.post(options.forwardTo, {
      body,
      headers,
      throwHttpErrors: false,
      followRedirect: false,
      retry: { limit: 0 },
      timeout: { request: FORWARD_TIMEOUT_MS },
    });
    options.print(`${new Date().toISOString()}  <-- [${response.statusCode}] POST ${options.forwardTo} [${event.id}]`);
  } catch (err) {
    options.print(`${new Date().toISOString()}  <-- [ERR] POST ${options.forwardTo} [${event.id}]: ${describe(err)}`);
  }
}

/** A short reason for a failed request: the API's error, else the connection's code (`ECONNREFUSED`, `ETIMEDOUT`). */
function describe(err: unknown): string {
  if (err instanceof ApiRequestError) return `${err.status} ${err.code}`;
  const code = (err as { code?: unknown }).code;
  return typeof code === "string" ? code : err instanceof Error ? err.message : String(err);
}
