/**
 * Wire form of the store postback secret info (SPEC "Postback secret info"). The secret itself appears only in the
 * rotation reply.
 */
import type { PostbackSecretInfo } from "@lm/domain";

/** The info as the panel shows it. */
export interface PostbackSecretInfoView {
  prefix: string | null;
  rotated_at: string | null;
  previous_valid_until: string | null;
}

/** Serialises `info`. */
export function serializePostbackSecretInfo(info: PostbackSecretInfo): PostbackSecretInfoView {
  return {
    prefix: info.prefix,
    rotated_at: info.rotatedAt?.toISOString() ?? null,
    previous_valid_until: info.previousValidUntil?.toISOString() ?? null,
  };
}
