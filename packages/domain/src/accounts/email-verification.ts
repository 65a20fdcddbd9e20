/**
 * Use case: the owner follows the verification link (SPEC `GET /v1/me/auth/verify-email`, DESIGN §3: 24 h, single
 * use).
 */
import { markUserEmailVerified } from "@lm/db";
import { validationFailed } from "../errors";
import type { AccountDeps } from "./account-deps";
import { consumeMailedToken } from "./mailed-tokens";

/**
 * Marks the token's user as verified.
 * @throws ApiError `validation_failed` (param `token`) when the token is unknown, used or expired
 */
export async function verifyEmail(deps: Pick<AccountDeps, "db" | "now">, token: string): Promise<void> {
  const now = deps.now();
  const used = await consumeMailedToken(deps.db, { token, purpose: "email_verification", now });
  if (!used) throw validationFailed("This verification link is invalid, used or expired.", "token");
  await markUserEmailVerified(deps.db, used.user_id, now);
}
