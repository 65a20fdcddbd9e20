/**
 * Use cases of the store postback secret (SPEC `GET /v1/me/postback-secret`, `POST /v1/me/postback-secret/rotate`,
 * "Postback secret info"; DESIGN §4): the secret that signs deliveries to charges' `postback_url`. It is shown once,
 * when generated; afterwards only its prefix. Rotation has no grace window: the delivery engine reads the store's
 * secret at every attempt, so the next attempt is signed with the new secret only.
 */
import type { Config } from "@lm/config";
import type { Store, Repositories } from "@lm/db";
import { audited, type CredentialDeps, type PanelActor } from "../audit/security-audit";
import { encryptSecret } from "../secret-box";
import { generateWebhookSecret, webhookSecretPrefix } from "../webhooks/webhook-secret";

/** What the panel shows of the secret (never the secret). */
export interface PostbackSecretInfo {
  /** 6 characters after `whsec_`; null before a secret was ever generated. */
  prefix: string | null;
  rotatedAt: Date | null;
  /** When the previous secret stopped: the rotation time itself (no grace); null when there was no previous one. */
  previousValidUntil: Date | null;
}

/** The store's postback secret info. */
export async function getPostbackSecretInfo(repos: Repositories, storeId: string): Promise<PostbackSecretInfo> {
  return postbackSecretInfo(await repos.sellers.getStoreById(storeId));
}

/**
 * Generates the store's new postback secret, replacing the current one at once (the first call creates it). Stored
 * encrypted with the store id as associated data, as the delivery engine decrypts it.
 * @returns the secret (to be shown once) and the info after the rotation
 */
export async function rotatePostbackSecret(
  deps: CredentialDeps & { config: Pick<Config, "encryptionKey"> },
  actor: PanelActor,
): Promise<{ secret: string; info: PostbackSecretInfo }> {
  const now = deps.now();
  const secret = generateWebhookSecret();
  return audited(deps, actor, async (tx) => {
    // Locked, so that of two concurrent rotations the second sees the first's secret as the previous one.
    await tx.sellers.lockStoreForUpdate(actor.storeId);
    const current = await tx.sellers.getStoreById(actor.storeId);
    const store = await tx.sellers.updateStorePostbackSecret(actor.storeId, {
      ciphertext: encryptSecret(deps.config.encryptionKey, secret, actor.storeId),
      prefix: webhookSecretPrefix(secret),
      rotatedAt: now,
      previousValidUntil: current.postback_secret_ciphertext === null ? null : now,
    });
    const action = {
      event: "postback_secret.rotated" as const,
      details: {},
      title: "Postback secret rotated",
      message:
        current.postback_secret_ciphertext === null
          ? "A postback secret was generated; postbacks are now signed with it."
          : "A new postback secret was generated; postbacks are signed with it from now on, and the previous one no longer verifies them.",
    };
    return { result: { secret, info: postbackSecretInfo(store) }, action };
  });
}

function postbackSecretInfo(store: Store): PostbackSecretInfo {
  return {
    prefix: store.postback_secret_prefix,
    rotatedAt: store.postback_secret_rotated_at,
    previousValidUntil: store.postback_previous_valid_until,
  };
}
