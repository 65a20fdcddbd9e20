/**
 * Audit of changes to a seller's credentials (API keys, the postback secret): each leaves one `security event` log
 * line naming the action, who acted and the ids involved. Neither the key nor the secret ever appears in it.
 */
import type { Db } from "@lm/db";
import type { Logger } from "@lm/logging";

/** What the use cases that change a seller's credentials need. */
export interface CredentialDeps {
  db: Db;
  logger: Logger;
  now: () => Date;
}

/** Who acts in the panel: the signed-in owner, their seller and its store. */
export interface PanelActor {
  userId: string;
  sellerId: string;
  storeId: string;
}

/** The audited actions. */
export type SecurityEvent = "api_key.created" | "api_key.rotated" | "api_key.deleted" | "postback_secret.rotated";

/** One audited action: its event name and the ids of what changed (never a secret, never a key). */
export interface SecurityAction {
  event: SecurityEvent;
  /** E.g. `{key_id, mode}`; field names must not look like secrets, or the log's redaction hides them. */
  details: Record<string, string>;
}

/** Writes the `security event` line of `action` by `actor`. */
export function logSecurityAction(logger: Logger, actor: PanelActor, action: SecurityAction): void {
  logger.info("security event", {
    event: action.event,
    user_id: actor.userId,
    seller_id: actor.sellerId,
    store_id: actor.storeId,
    ...action.details,
  });
}
