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
