/**
 * What the account use cases (sign-up, sign-in, sessions, mailed tokens, two-factor) need. The API's dependencies
 * satisfy it, and so can the worker's or an operator command's.
 */
import type { Config } from "@lm/config";
import type { Repositories } from "@lm/db";
import type { Logger } from "@lm/logging";
import type { MailMessage, Mailer } from "@lm/mail";

/** Dependencies of an account use case. */
export interface AccountDeps {
  config: Pick<
    Config,
    "bcryptCost" | "publicBaseUrl" | "panelOrigins" | "termsVersion" | "encryptionKey" | "stepUpWindowSeconds"
  >;
  repos: Repositories;
  mailer: Mailer;
  logger: Logger;
  /** Current time; tests inject their own. */
  now: () => Date;
}

/**
 * Sends `message`, logging instead of throwing when the transport fails: the account change it reports has already
 * been committed, and replies such as `request-password-reset` must not depend on mail delivery (SPEC).
 * @param what - the kind of mail, for the log line (never the address or the link)
 */
export async function sendMailSafely(
  deps: Pick<AccountDeps, "mailer" | "logger">,
  message: MailMessage,
  what: string,
): Promise<void> {
  try {
    await deps.mailer.send(message);
  } catch (err) {
    deps.logger.warn("mail not sent", { mail: what, err: err instanceof Error ? err.message : String(err) });
  }
}
