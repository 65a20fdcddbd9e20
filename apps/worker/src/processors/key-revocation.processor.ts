/**
 * `key-revocation` job (repeatable, DESIGN §1): records as revoked every rotated API key whose 24 h grace has ended.
 * Authentication already refuses such a key from its `revoke_at` on; this makes the row say so too.
 */
import { revokeDueApiKeys } from "@lm/domain";
import type { Processor } from ".";

/** Marks due keys revoked and logs how many. */
export const keyRevocationProcessor: Processor<"key-revocation"> = async (deps) => {
  const revoked = await revokeDueApiKeys(deps.repos, deps.now());
  if (revoked > 0) deps.logger.info("rotated api keys revoked", { count: revoked });
};
