/**
 * An endpoint's health as its delivery chains end (SPEC endpoint state table; DESIGN §4 "Auto-disable", §8 "Early
 * warning"): a success resets the run of dead chains (in the statement that records it, `writeDeliveryAttempts`); a chain
 * that ends `dead` extends it, warns the seller's owners when the run reaches {@link EARLY_WARNING_DEAD_CHAINS} (once
 * per run) and disables the endpoint by the auto-disable rule. Feed items are written in the transaction that counts;
 * mails go after commit.
 */
import type { Repositories } from "@lm/db";
import type { Logger } from "@lm/logging";
import { endpointAutoDisabledMail, endpointFailingMail, type Mailer, type MailMessage } from "@lm/mail";
import { sendMailSafely } from "../accounts/account-deps";
import { notifySeller } from "../notifications/notifications";
import { AUTO_DISABLE_DEAD_CHAINS, shouldAutoDisableEndpoint } from "../webhooks/auto-disable";

/** `type` of the feed item of an automatic disabling. */
export const ENDPOINT_AUTO_DISABLED_NOTIFICATION = "webhook_endpoint.auto_disabled";
/** `type` of the feed item of an early warning (DESIGN §8). */
export const ENDPOINT_FAILING_NOTIFICATION = "webhook_endpoint.failing";
/** Consecutive `dead` chains that warn the owners (DESIGN §8 "Early warning"), before the disabling at 50. */
export const EARLY_WARNING_DEAD_CHAINS = 10;

/** What a counted dead chain led to, for the mails sent after commit. */
export type DeadChainOutcome = "none" | "warned" | "disabled";

/**
 * Counts a chain that ended `dead` (an atomic increment, so concurrent chains each see their own count): at exactly
 * {@link EARLY_WARNING_DEAD_CHAINS} it writes the `webhook_endpoint.failing` feed item (once per run: the run restarts
 * only after a success or a re-enable), and when the auto-disable rule says so it disables the endpoint with its feed
 * item. Call it inside the transaction that records the dead attempt, then {@link mailDeadChainOutcome} after commit.
 */
export async function countDeadChain(tx: Repositories, endpointId: string, now: Date): Promise<DeadChainOutcome> {
  const endpoint = await tx.webhookEndpoints.incrementWebhookEndpointDeadChains(endpointId);
  const sellerId = endpoint.store.seller_id;
  const health = {
    enabled: endpoint.enabled,
    consecutiveDeadChains: endpoint.consecutive_dead_chains,
    lastSucceededAt: endpoint.last_succeeded_at,
  };
  if (shouldAutoDisableEndpoint(health, now)) {
    if (await tx.webhookEndpoints.autoDisableWebhookEndpoint(endpointId, now)) {
      await notifySeller(tx, {
        sellerId,
        type: ENDPOINT_AUTO_DISABLED_NOTIFICATION,
        title: "Webhook endpoint disabled",
        message:
          `Your ${endpoint.mode} webhook endpoint ${endpoint.url} was disabled automatically: ${AUTO_DISABLE_DEAD_CHAINS} ` +
          "deliveries in a row failed through every retry and none succeeded in the last 7 days. Events are not " +
          "delivered to it until you switch it back on, and events missed meanwhile are not sent then.",
        data: { webhook_endpoint_id: endpoint.id, mode: endpoint.mode },
      });
      return "disabled";
    }
  }
  if (endpoint.enabled && endpoint.consecutive_dead_chains === EARLY_WARNING_DEAD_CHAINS) {
    await notifySeller(tx, {
      sellerId,
      type: ENDPOINT_FAILING_NOTIFICATION,
      title: "Webhook endpoint failing",
      message:
        `The last ${EARLY_WARNING_DEAD_CHAINS} deliveries to your ${endpoint.mode} webhook endpoint ${endpoint.url} ` +
        `failed through every retry. After ${AUTO_DISABLE_DEAD_CHAINS} in a row with no success in 7 days it is ` +
        "disabled automatically.",
      data: {
        webhook_endpoint_id: endpoint.id,
        mode: endpoint.mode,
        consecutive_dead_chains: EARLY_WARNING_DEAD_CHAINS,
      },
    });
    return "warned";
  }
  return "none";
}

/**
 * After the commit of a dead chain that warned or disabled: mails every owner of the endpoint's seller. A mail that
 * cannot be sent is logged, never thrown: the attempt is recorded, and a re-run would find its row no longer pending.
 */
export async function mailDeadChainOutcome(
  deps: { repos: Repositories; mailer: Mailer; logger: Logger },
  endpointId: string,
  outcome: DeadChainOutcome,
): Promise<void> {
  if (outcome === "none") return;
  deps.logger.warn(outcome === "disabled" ? "webhook endpoint auto-disabled" : "webhook endpoint failing", {
    endpoint_id: endpointId,
  });
  try {
    const endpoint = await deps.repos.webhookEndpoints.findWebhookEndpointWithOwners(endpointId);
    for (const owner of endpoint.store.seller.users) {
      const mail: MailMessage =
        outcome === "disabled"
          ? endpointAutoDisabledMail(owner.email, owner.name, {
              ...endpoint,
              disabledAt: endpoint.auto_disabled_at ?? endpoint.updated_at,
            })
          : endpointFailingMail(owner.email, owner.name, { ...endpoint, deadChains: EARLY_WARNING_DEAD_CHAINS });
      await sendMailSafely(deps, mail, `webhook endpoint ${outcome}`);
    }
  } catch (err) {
    deps.logger.error("webhook endpoint mail not sent", { endpoint_id: endpointId, outcome, err });
  }
}
