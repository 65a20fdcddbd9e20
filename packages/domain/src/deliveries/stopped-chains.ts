/**
 * No silent endings (DESIGN §16): a delivery chain that ends without a retry (SPEC "Delivery error values", not
 * retried: `blocked_destination`, `endpoint_disabled`, `missing_secret`; and `paused_too_long`, DESIGN §16 "Pause")
 * is logged as a warning naming its destination and the reason, and the first such ending of an endpoint in a day
 * ({@link STOP_NOTICE_INTERVAL_MS}) writes a `webhook_endpoint.delivery_stopped` item in its owners' feed, saying why
 * and what to do. (An endpoint whose local URL was accepted while `WEBHOOK_ALLOW_LOCAL_DESTINATIONS` was on, run
 * after a restart without it, must not go quiet with nothing in any log.)
 */
import type { Repositories, WebhookEndpoint } from "@lm/db";
import type { Logger } from "@lm/logging";
import { notifySeller } from "../notifications/notifications";
import type { FinalDeliveryError } from "../webhooks/retry-policy";

/** `type` of the feed item of a delivery that ended without a retry. */
export const DELIVERY_STOPPED_NOTIFICATION = "webhook_endpoint.delivery_stopped";
/** At most one feed item per endpoint in this long, ms (a day). */
export const STOP_NOTICE_INTERVAL_MS = 24 * 60 * 60 * 1000;

/** Why a chain ended without a retry. */
export type StopReason = FinalDeliveryError | "paused_too_long";

/** The delivery that ended, as much of it as the notice names. */
export interface StoppedDelivery {
  id: string;
  endpoint_id: string | null;
  transaction_id: string | null;
  url: string;
  /** Its endpoint as loaded with the attempt: a notice given less than a day ago spares the database. */
  endpoint?: Pick<WebhookEndpoint, "stop_noticed_at"> | null;
}

/** What each reason tells the owners, after "Deliveries to your <mode> webhook endpoint <url> stopped: ". */
const EXPLANATIONS: Record<StopReason, string> = {
  blocked_destination:
    "its URL no longer passes the destination check (https on port 443 to a public address; a local address is " +
    "accepted only while the service runs with WEBHOOK_ALLOW_LOCAL_DESTINATIONS=true). Fix the URL, then resend or " +
    "recover what was missed.",
  endpoint_disabled:
    "the endpoint is disabled or deleted, so events are not delivered to it. Switch it back on to receive new " +
    "events; recover what was missed.",
  missing_secret:
    "its signing secret (or its custom headers) cannot be decrypted by the service. Rotate the secret, set the " +
    "headers again, then resend or recover what was missed.",
  paused_too_long:
    "events waited 14 days while the endpoint was paused and were given up. Resume it; recover what you still need.",
};

/**
 * Logs the ending of `delivery` with `reason` and, for an endpoint's delivery, claims the day's feed item (one
 * conditional statement, so concurrent endings write one). Never throws: the ending is recorded already, and a failure
 * here is logged.
 */
export async function noteStoppedDelivery(
  deps: { repos: Repositories; logger: Logger; now: () => Date },
  delivery: StoppedDelivery,
  reason: StopReason,
): Promise<void> {
  const host = hostOf(delivery.url);
  deps.logger.warn("delivery ended without retry", {
    delivery_id: delivery.id,
    ...(delivery.endpoint_id === null
      ? { destination: "postback", transaction_id: delivery.transaction_id }
      : { destination: "endpoint", endpoint_id: delivery.endpoint_id }),
    host,
    reason,
  });
  if (delivery.endpoint_id === null) return;
  const noticed = delivery.endpoint?.stop_noticed_at;
  if (noticed && noticed.getTime() >= deps.now().getTime() - STOP_NOTICE_INTERVAL_MS) return;
  await noticeStoppedEndpoint(deps, delivery.endpoint_id, reason);
}

/**
 * Writes the owners' feed item of endpoint `endpointId`'s deliveries that ended with `reason`, unless one was written
 * less than {@link STOP_NOTICE_INTERVAL_MS} ago (one conditional statement claims the day's notice, so concurrent
 * endings write one). Never throws: a failure is logged.
 */
export async function noticeStoppedEndpoint(
  deps: { repos: Repositories; logger: Logger; now: () => Date },
  endpointId: string,
  reason: StopReason,
): Promise<void> {
  const now = deps.now();
  const noticedSince = new Date(now.getTime() - STOP_NOTICE_INTERVAL_MS);
  try {
    await deps.repos.transaction(async (tx) => {
      const endpoint = await tx.webhookEndpoints.claimWebhookEndpointStopNotice(endpointId, now, noticedSince);
      if (endpoint === null) return;
      await notifySeller(tx, {
        sellerId: endpoint.seller_id,
        type: DELIVERY_STOPPED_NOTIFICATION,
        title: "Webhook deliveries stopped",
        message:
          `Deliveries to your ${endpoint.mode} webhook endpoint ${endpoint.url} stopped: ${EXPLANATIONS[reason]} ` +
          "This notice comes at most once a day per endpoint; the deliveries list shows each one.",
        data: { webhook_endpoint_id: endpoint.id, mode: endpoint.mode, reason },
      });
    });
  } catch (err) {
    deps.logger.error("could not write the notice of a delivery that ended", { endpoint_id: endpointId, err });
  }
}

/** The host of `url`, for logs (never its path or query, which may carry tokens); the text itself if unparsable. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "(unparsable url)";
  }
}
