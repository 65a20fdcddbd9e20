/**
 * Use case: a user accepts the current terms (SPEC `POST /v1/me/terms/accept`).
 */
import { recordUserTermsAccepted } from "@lm/db";
import { validationFailed } from "../errors";
import type { AccountDeps } from "./account-deps";

/**
 * Records that `userId` accepted `version` now.
 * @throws ApiError `validation_failed` (param `version`) when `version` is not the current `TERMS_VERSION`
 */
export async function acceptTerms(
  deps: Pick<AccountDeps, "db" | "config" | "now">,
  input: { userId: string; version: string },
): Promise<void> {
  if (input.version !== deps.config.termsVersion) {
    throw validationFailed(`The current terms version is ${deps.config.termsVersion}.`, "version");
  }
  await recordUserTermsAccepted(deps.db, input.userId, input.version, deps.now());
}
