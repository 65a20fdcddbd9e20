/**
 * Audit of changes to a seller's credentials (API keys, the postback secret, webhook endpoints and their signing
 * secrets): each leaves one `security event` log
 * line naming the action, who acted and the ids involved, and an item in the seller's panel feed
 * (`GET /v1/me/notifications`), written in the transaction of the change. Neither ever holds the key or the secret.
 */
import type { Repositories } from "@lm/db";
import type { Logger } from "@lm/logging";
import { notifySeller } from "../notifications/notifications";

/** What the use cases that change a seller's credentials need. */
export interface CredentialDeps {
  repos: Repositories;
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
export type SecurityEvent =
  | "api_key.created"
  | "api_key.rotated"
  | "api_key.deleted"
  | "postback_secret.rotated"
  | "webhook_endpoint.created"
  | "webhook_endpoint.secret_rotated"
  | "webhook_endpoint.deleted"
  | "payout_key.added"
  | "payout_key.deleted";

/** One audited action: its event name, the ids of what changed and what the seller reads (never a secret or key). */
export interface SecurityAction {
  event: SecurityEvent;
  /** E.g. `{key_id, mode}`; field names must not look like secrets, or the log's redaction hides them. */
  details: Record<string, string>;
  /** The feed item's one-line title. */
  title: string;
  /** The feed item's sentence for people. */
  message: string;
}

/**
 * Adds `action` to the seller's feed (type = the event name; data = the details and the acting user's id). Call it
 * inside the transaction of the change, so the feed never reports a change that did not commit, nor misses one.
 */
async function notifySecurityAction(repos: Repositories, actor: PanelActor, action: SecurityAction): Promise<void> {
  await notifySeller(repos, {
    sellerId: actor.sellerId,
    type: action.event,
    title: action.title,
    message: action.message,
    data: { ...action.details, user_id: actor.userId },
  });
}

/** Writes the `security event` line of `action` by `actor`. */
function logSecurityAction(logger: Logger, actor: PanelActor, action: SecurityAction): void {
  logger.info("security event", {
    event: action.event,
    user_id: actor.userId,
    seller_id: actor.sellerId,
    store_id: actor.storeId,
    ...action.details,
  });
}

/**
 * Runs `change` in one transaction together with the feed item of the action it returns, then, once committed, logs
 * the action.
 * @param change - makes the change with `tx` and says what it did; throwing rolls everything back, nothing is audited
 * @returns what `change` returned as `result`
 */
export async function audited<T>(
  deps: CredentialDeps,
  actor: PanelActor,
  change: (tx: Repositories) => Promise<{ result: T; action: SecurityAction }>,
): Promise<T> {
  const { result, action } = await deps.repos.transaction(async (tx) => {
    const done = await change(tx);
    await notifySecurityAction(tx, actor, done.action);
    return done;
  });
  logSecurityAction(deps.logger, actor, action);
  return result;
}
