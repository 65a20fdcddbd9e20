/**
 * Use case: a user accepts the current terms (SPEC `POST /v1/me/terms/accept`).
 */
import { validationFailed } from "../errors";
import type { AccountDeps } from "./account-deps";

/**
 * Records that `userId` accepted `version` now.
 * @throws ApiError `validation_failed` (param `version`) when `version` is not the current `TERMS_VERSION`
 */
export async function acceptTerms(
  deps: Pick<AccountDeps, "repos" | "config" | "now">,
  input: { userId: string; version: string },
): Promise<void> {
  if (input.version !== deps.config.termsVersion) {
    throw validationFailed(`The current terms version is ${deps.config.termsVersion}.`, "version");
  }
  await deps.repos.accounts.recordUserTermsAccepted(input.userId, input.version, deps.now());
}
