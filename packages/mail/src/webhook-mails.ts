/**
 * Mails about a seller's webhooks (DESIGN §4 "Auto-disable").
 */
import { compose } from "./compose";
import type { MailMessage } from "./mailer";

/** What an auto-disable notice names about the endpoint. */
export interface DisabledEndpoint {
  id: string;
  url: string;
  mode: "live" | "test";
  /** When it was disabled. */
  disabledAt: Date;
}

/** Notice to a seller's owner that an endpoint was disabled automatically after its deliveries kept dying. */
export function endpointAutoDisabledMail(to: string, name: string, endpoint: DisabledEndpoint): MailMessage {
  return compose(to, `Webhook endpoint disabled: ${endpoint.url}`, [
    `Hello ${name},`,
    `Your ${endpoint.mode} webhook endpoint ${endpoint.url} (${endpoint.id}) was disabled automatically at ${endpoint.disabledAt.toISOString()}: 50 deliveries in a row failed through every retry, and none succeeded in the last 7 days.`,
    "Events that happen while it is disabled are not delivered, and they are not sent when you switch it back on. Fix the receiver, test it with a ping, then switch the endpoint back on in the panel and resend the deliveries you need.",
  ]);
}

/** What an early warning names about the endpoint. */
export interface FailingEndpoint {
  id: string;
  url: string;
  mode: "live" | "test";
  /** Delivery chains in a row that ended `dead`. */
  deadChains: number;
}

/**
 * Early warning to a seller's owner (DESIGN §8 "Early warning"): an endpoint's deliveries keep dying, well before the
 * automatic disabling at 50.
 */
export function endpointFailingMail(to: string, name: string, endpoint: FailingEndpoint): MailMessage {
  return compose(to, `Webhook endpoint failing: ${endpoint.url}`, [
    `Hello ${name},`,
    `The last ${endpoint.deadChains} deliveries to your ${endpoint.mode} webhook endpoint ${endpoint.url} (${endpoint.id}) failed through every retry.`,
    "If 50 fail in a row and none succeeds for 7 days, the endpoint is disabled automatically. Check the receiver and its recent deliveries in the panel; once it answers again, recover what it missed with the endpoint's recover action.",
  ]);
}
