/**
 * Use case: the owner follows the verification link (SPEC `GET /v1/me/auth/verify-email`, DESIGN §3: 24 h, single
 * use).
 */
import { validationFailed } from "../errors";
import type { AccountDeps } from "./account-deps";
import { consumeMailedToken } from "./mailed-tokens";

/**
 * Marks the token's user as verified.
 * @throws ApiError `validation_failed` (param `token`) when the token is unknown, used or expired
 */
export async function verifyEmail(deps: Pick<AccountDeps, "repos" | "now">, token: string): Promise<void> {
  const now = deps.now();
  const used = await consumeMailedToken(deps.repos, { token, purpose: "email_verification", now });
  if (!used) throw validationFailed("This verification link is invalid, used or expired.", "token");
  await deps.repos.accounts.markUserEmailVerified(used.user_id, now);
}
